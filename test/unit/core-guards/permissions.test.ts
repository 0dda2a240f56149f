import { describe, expect, it } from "vitest";
import { firstMatchingGlob, matchesGlob } from "../../../src/config/glob.js";
import {
  decidePermission,
  effectiveRole,
  needsTeamCheck,
  roleSatisfies,
  teamsToCheck,
  type PermissionPolicy,
} from "../../../src/core/permissions.js";

const policy = (over: Partial<PermissionPolicy> = {}): PermissionPolicy => ({ minimum: "write", users: [], teams: [], ...over });

describe("decidePermission: role ≥ minimum OR listed user OR team member", () => {
  it("allows by role and explains why", () => {
    expect(decidePermission({ login: "alice", repoOwner: "acme", role: "write" }, policy())).toEqual({
      allowed: true,
      why: "@alice has the write role on this repository (write, maintain or admin is required).",
    });
    expect(decidePermission({ login: "alice", repoOwner: "acme", role: "admin" }, policy({ minimum: "maintain" })).allowed).toBe(true);
  });

  it("refuses a role below the minimum", () => {
    const decision = decidePermission({ login: "bob", repoOwner: "acme", role: "write" }, policy({ minimum: "admin" }));
    expect(decision).toEqual({
      allowed: false,
      why: "@bob has the write role and is not listed in `permissions.users`; the admin role is required.",
    });
    expect(decidePermission({ login: "bob", repoOwner: "acme", role: "triage" }, policy()).allowed).toBe(false);
  });

  it("allows a listed user whatever the role (case-insensitive)", () => {
    expect(decidePermission({ login: "Carol", repoOwner: "acme", role: "read" }, policy({ users: ["carol"] }))).toEqual({
      allowed: true,
      why: "@Carol is listed in `permissions.users`.",
    });
  });

  it("allows a team member; a bare team slug means the owner's organization", () => {
    const teams = policy({ teams: ["reviewers", "Other-Org/Ops"] });
    expect(teamsToCheck(teams, "Acme")).toEqual([
      { org: "acme", slug: "reviewers", name: "acme/reviewers" },
      { org: "other-org", slug: "ops", name: "other-org/ops" },
    ]);
    expect(decidePermission({ login: "dan", repoOwner: "Acme", role: null, memberOfTeams: ["acme/reviewers"] }, teams)).toEqual({
      allowed: true,
      why: "@dan is a member of the team `acme/reviewers` listed in `permissions.teams`.",
    });
    // Membership of a same-named team elsewhere does not count.
    expect(decidePermission({ login: "dan", repoOwner: "acme", role: null, memberOfTeams: ["evil/reviewers"] }, teams)).toEqual({
      allowed: false,
      why: "@dan is not a collaborator on this repository, is not listed in `permissions.users` and is not a member of a team in `permissions.teams`; the write, maintain or admin role is required.",
    });
  });

  it("counts a custom role as its base permission", () => {
    expect(effectiveRole({ role: "release-manager", basePermission: "write" })).toBe("write");
    expect(effectiveRole({ role: null })).toBe("none");
    expect(decidePermission({ login: "eve", repoOwner: "acme", role: "release-manager", basePermission: "write" }, policy()).allowed).toBe(
      true,
    );
  });

  it("tells the shell when team look-ups are needed", () => {
    expect(needsTeamCheck({ login: "a", role: "admin" }, policy({ teams: ["t"] }))).toBe(false);
    expect(needsTeamCheck({ login: "a", role: "read" }, policy({ teams: ["t"], users: ["a"] }))).toBe(false);
    expect(needsTeamCheck({ login: "a", role: "read" }, policy({ teams: ["t"] }))).toBe(true);
    expect(needsTeamCheck({ login: "a", role: "read" }, policy())).toBe(false);
  });

  it("orders roles", () => {
    expect(roleSatisfies("maintain", "write")).toBe(true);
    expect(roleSatisfies("write", "maintain")).toBe(false);
    expect(roleSatisfies("none", "write")).toBe(false);
  });
});

describe("globs", () => {
  it("branch patterns: * stays within a segment, ** crosses /", () => {
    expect(matchesGlob("feature/x", "feature/*")).toBe(true);
    expect(matchesGlob("feature/x/y", "feature/*")).toBe(false);
    expect(matchesGlob("feature/x/y", "feature/**")).toBe(true);
    expect(matchesGlob("release-1.2", "release-?.?")).toBe(true);
    expect(matchesGlob("releaseX1.2", "release-*")).toBe(false);
    expect(matchesGlob("main", "main")).toBe(true);
    expect(matchesGlob("Main", "main")).toBe(false);
    // Regex characters are literal.
    expect(matchesGlob("a+b", "a+b")).toBe(true);
    expect(matchesGlob("aab", "a+b")).toBe(false);
  });

  it("check names: case-insensitive, * crosses /", () => {
    expect(firstMatchingGlob("CI / Lint (node 20)", ["ci / lint*"], { pathAware: false, ignoreCase: true })).toBe("ci / lint*");
    expect(firstMatchingGlob("build", ["lint*", "test"], { pathAware: false, ignoreCase: true })).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { checkTriggerPermission, getRepoPermission, isTeamMember, type TriggerPolicy } from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const seed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  collaborators: [
    { login: "ada", permission: "admin" },
    { login: "max", permission: "maintain" },
    { login: "wes", permission: "write" },
    { login: "tri", permission: "triage" },
    { login: "rea", permission: "read" },
  ],
  teams: [
    { org: "acme", slug: "reviewers", members: ["rea", { login: "pen", state: "pending" }] },
    { org: "partner", slug: "ops", members: [{ login: "out", role: "maintainer" }] },
  ],
};

const policy = (over: Partial<TriggerPolicy> = {}): TriggerPolicy => ({ minimum: "write", users: [], teams: [], ...over });

describe("getRepoPermission", () => {
  it("reads role_name, so maintain and triage are not flattened to write and read", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    const roles: Record<string, string> = {};
    for (const login of ["ada", "max", "wes", "tri", "rea", "stranger"]) roles[login] = await getRepoPermission(octokit, REPO, login);
    expect(roles).toEqual({ ada: "admin", max: "maintain", wes: "write", tri: "triage", rea: "read", stranger: "none" });

    // What the fake answered for maintain: the legacy field says write, role_name says maintain.
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...REPO, username: "max" });
    expect({ permission: data.permission, role_name: data.role_name }).toEqual({ permission: "write", role_name: "maintain" });
    expect(fake.callsTo("GET", "/repos/acme/widgets/collaborators/{u}/permission").map((r) => r.status)).toEqual([
      200, 200, 200, 200, 200, 404, 200,
    ]);
  });
});

describe("isTeamMember", () => {
  it("is true for active members only", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect(await isTeamMember(octokit, "acme", "reviewers", "rea")).toBe(true);
    expect(await isTeamMember(octokit, "acme", "reviewers", "pen")).toBe(false);
    expect(await isTeamMember(octokit, "acme", "reviewers", "wes")).toBe(false);
    expect(await isTeamMember(octokit, "acme", "no-such-team", "rea")).toBe(false);
    expect(callSummary(fake)).toEqual([
      "GET /orgs/acme/teams/reviewers/memberships/rea → 200",
      "GET /orgs/acme/teams/reviewers/memberships/pen → 200",
      "GET /orgs/acme/teams/reviewers/memberships/wes → 404",
      "GET /orgs/acme/teams/no-such-team/memberships/rea → 404",
    ]);
  });
});

describe("checkTriggerPermission", () => {
  it("allows write and above, refuses triage, with a reason", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect(await checkTriggerPermission(octokit, REPO, "max", policy())).toMatchObject({
      allowed: true,
      why: expect.stringContaining("maintain role"),
    });
    const refused = await checkTriggerPermission(octokit, REPO, "tri", policy());
    expect(refused.allowed).toBe(false);
    expect(refused.why).toContain("@tri has the triage role");
    const maintainOnly = await checkTriggerPermission(octokit, REPO, "wes", policy({ minimum: "maintain" }));
    expect(maintainOnly.allowed).toBe(false);
    // One permission call per check, nothing else.
    expect(fake.requests.map((r) => r.route)).toEqual(Array(3).fill("/repos/:owner/:repo/collaborators/:username/permission"));
  });

  it("allows an allow-listed user without asking about teams", async () => {
    const fake = await startFake(seed);
    const decision = await checkTriggerPermission(
      octokitFor(fake),
      REPO,
      "Stranger",
      policy({ users: ["stranger"], teams: ["reviewers"] }),
    );
    expect(decision).toMatchObject({ allowed: true, why: expect.stringContaining("permissions.users") });
    expect(callSummary(fake)).toEqual(["GET /repos/acme/widgets/collaborators/Stranger/permission → 404"]);
  });

  it("allows a member of a listed team (bare slug = the repository owner's org, or org/slug)", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    const viaBare = await checkTriggerPermission(octokit, REPO, "rea", policy({ teams: ["reviewers"] }));
    expect(viaBare).toMatchObject({ allowed: true, why: expect.stringContaining("acme/reviewers") });
    const viaOther = await checkTriggerPermission(octokit, REPO, "out", policy({ teams: ["reviewers", "partner/ops"] }));
    expect(viaOther.allowed).toBe(true);
    const pending = await checkTriggerPermission(octokit, REPO, "pen", policy({ teams: ["reviewers"] }));
    expect(pending.allowed).toBe(false);
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/collaborators/rea/permission → 200",
      "GET /orgs/acme/teams/reviewers/memberships/rea → 200",
      "GET /repos/acme/widgets/collaborators/out/permission → 404",
      "GET /orgs/acme/teams/reviewers/memberships/out → 404",
      "GET /orgs/partner/teams/ops/memberships/out → 200",
      "GET /repos/acme/widgets/collaborators/pen/permission → 404",
      "GET /orgs/acme/teams/reviewers/memberships/pen → 200",
    ]);
  });

  it("never allows bots, and asks GitHub nothing about them", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect(await checkTriggerPermission(octokit, REPO, "dependabot[bot]", policy({ users: ["dependabot[bot]"] }))).toMatchObject({
      allowed: false,
    });
    expect(await checkTriggerPermission(octokit, REPO, { login: "helper", type: "Bot" }, policy())).toMatchObject({
      allowed: false,
      why: "@helper is a bot; bots cannot trigger runs.",
    });
    expect(fake.requests).toEqual([]);
  });

  it("says so when a team's membership cannot be read (403), and refuses", async () => {
    const fake = await startFake(seed);
    fake.injectFault({
      method: "GET",
      path: "/orgs/{org}/teams/{team}/memberships/{user}",
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    const decision = await checkTriggerPermission(octokitFor(fake), REPO, "rea", policy({ teams: ["reviewers"] }));
    expect(decision.allowed).toBe(false);
    expect(decision.why).toContain("`acme/reviewers` could not be read");
  });
});

/**
 * Who may trigger a run, as configured under `permissions`:
 *
 *   allowed = role ≥ permissions.minimum  OR  login ∈ permissions.users  OR  member of one of permissions.teams
 *
 * The role is the repository role from `GET /repos/{owner}/{repo}/collaborators/{login}/permission`
 * (`role_name`, falling back to the legacy `permission` for custom roles); `author_association` is
 * not used because it under-reports private organization members. The shell fetches the facts in
 * the cheapest order (role, then the allow-list, which is free, then team membership) and hands
 * them here; this module only decides. The `permissions` keys themselves are config/schema.ts's.
 */
import { MINIMUM_ROLES, REPO_ROLES, type MinimumRole, type RepoConfig, type RepoRole } from "../config/schema.js";

export type PermissionPolicy = RepoConfig["permissions"];

export interface PermissionFacts {
  login: string;
  /** Owner of the repository: the organization of teams written as a bare `team-slug`. */
  repoOwner: string;
  /** `role_name` of the collaborator permission API, or null when the user is not a collaborator (404). */
  role: string | null;
  /** The legacy `permission` field (`admin`, `write`, `read`, `none`), used when `role` is a custom role name. */
  basePermission?: string | null;
  /** Teams (as returned by `teamsToCheck`, `org/slug`) the user is an active member of. */
  memberOfTeams?: readonly string[];
}

export interface PermissionDecision {
  allowed: boolean;
  /** One sentence for logs and for the refusal reply. */
  why: string;
}

export interface TeamRef {
  org: string;
  slug: string;
  /** `org/slug`, the form `memberOfTeams` uses. */
  name: string;
}

const rank = (role: RepoRole) => REPO_ROLES.indexOf(role);

function asRole(value: string | null | undefined): RepoRole | undefined {
  const lower = value?.toLowerCase();
  return (REPO_ROLES as readonly string[]).includes(lower ?? "") ? (lower as RepoRole) : undefined;
}

/** The repository role a user effectively has; custom roles count as their base permission. */
export function effectiveRole(facts: Pick<PermissionFacts, "role" | "basePermission">): RepoRole {
  return asRole(facts.role) ?? asRole(facts.basePermission) ?? "none";
}

export function roleSatisfies(role: RepoRole, minimum: MinimumRole): boolean {
  return rank(role) >= rank(minimum);
}

/** The roles that satisfy `minimum`, for messages ("write, maintain or admin"). */
function rolesAtLeast(minimum: MinimumRole): string {
  const roles = MINIMUM_ROLES.filter((role) => rank(role) >= rank(minimum));
  return roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(", ")} or ${roles[roles.length - 1]}`;
}

/** The configured teams, with `team-slug` resolved to the repository owner's organization. */
export function teamsToCheck(policy: PermissionPolicy, repoOwner: string): TeamRef[] {
  const seen = new Set<string>();
  const teams: TeamRef[] = [];
  for (const entry of policy.teams) {
    const [org, slug] = entry.includes("/") ? (entry.split("/", 2) as [string, string]) : [repoOwner, entry];
    const name = `${org}/${slug}`.toLowerCase();
    if (seen.has(name)) continue;
    seen.add(name);
    teams.push({ org: org.toLowerCase(), slug: slug.toLowerCase(), name });
  }
  return teams;
}

export function isAllowListed(login: string, policy: PermissionPolicy): boolean {
  const wanted = login.toLowerCase();
  return policy.users.some((user) => user.toLowerCase() === wanted);
}

/** True when the role alone settles it, so the shell can skip the team look-ups. */
export function needsTeamCheck(facts: Pick<PermissionFacts, "login" | "role" | "basePermission">, policy: PermissionPolicy): boolean {
  return !roleSatisfies(effectiveRole(facts), policy.minimum) && !isAllowListed(facts.login, policy) && policy.teams.length > 0;
}

export function decidePermission(facts: PermissionFacts, policy: PermissionPolicy): PermissionDecision {
  const role = effectiveRole(facts);
  const who = `@${facts.login}`;
  if (roleSatisfies(role, policy.minimum)) {
    return { allowed: true, why: `${who} has the ${role} role on this repository (${rolesAtLeast(policy.minimum)} is required).` };
  }
  if (isAllowListed(facts.login, policy)) {
    return { allowed: true, why: `${who} is listed in \`permissions.users\`.` };
  }
  const member = new Set((facts.memberOfTeams ?? []).map((team) => team.toLowerCase()));
  const team = teamsToCheck(policy, facts.repoOwner).find((candidate) => member.has(candidate.name));
  if (team) {
    return { allowed: true, why: `${who} is a member of the team \`${team.name}\` listed in \`permissions.teams\`.` };
  }
  const has = facts.role === null && !facts.basePermission ? "is not a collaborator on this repository" : `has the ${role} role`;
  const alternatives =
    policy.teams.length > 0
      ? ", is not listed in `permissions.users` and is not a member of a team in `permissions.teams`"
      : " and is not listed in `permissions.users`";
  return {
    allowed: false,
    why: `${who} ${has}${alternatives}; the ${rolesAtLeast(policy.minimum)} role is required.`,
  };
}

/**
 * Who may trigger a run: the I/O half. The decision itself is core/permissions.ts (pure); this
 * fetches the facts it needs in the cheapest order: the repository role (one call), then team
 * memberships only when the role and the allow-list do not settle it.
 */
import { isBotAccount } from "../core/actors.js";
import {
  decidePermission,
  isAllowListed,
  needsTeamCheck,
  teamsToCheck,
  type PermissionDecision,
  type PermissionPolicy,
} from "../core/permissions.js";
import type { GitHubClient, RepoRef } from "./client.js";
import { GitHubPermissionError, isNotFound, toGitHubError } from "./errors.js";

export type RepoPermission = "admin" | "maintain" | "write" | "triage" | "read" | "none";
const ROLES: readonly RepoPermission[] = ["admin", "maintain", "write", "triage", "read", "none"];

/** The raw answer of the collaborator-permission endpoint; both fields null for a non-collaborator (404). */
interface CollaboratorRole {
  /** `role_name`: admin, maintain, write, triage, read, or a custom role's name. */
  roleName: string | null;
  /** The legacy `permission` (admin, write, read, none): maintain reads as write, triage as read. */
  permission: string | null;
}

async function getCollaboratorRole(octokit: GitHubClient, repo: RepoRef, login: string): Promise<CollaboratorRole> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/collaborators/{username}/permission", { ...repo, username: login });
    return { roleName: data.role_name || null, permission: data.permission || null };
  } catch (error) {
    if (isNotFound(error)) return { roleName: null, permission: null };
    throw toGitHubError(error, `reading the repository permission of ${login} on ${repo.owner}/${repo.repo}`);
  }
}

/**
 * A user's role on the repository. `role_name` is preferred because `permission` maps maintain to
 * write and triage to read; a custom role counts as its base permission; 404 means none.
 */
export async function getRepoPermission(octokit: GitHubClient, repo: RepoRef, login: string): Promise<RepoPermission> {
  const { roleName, permission } = await getCollaboratorRole(octokit, repo, login);
  const asRole = (value: string | null) => ROLES.find((role) => role === value?.toLowerCase());
  return asRole(roleName) ?? asRole(permission) ?? "none";
}

/** True for an active member of `org/teamSlug` (a pending invitation does not count). */
export async function isTeamMember(octokit: GitHubClient, org: string, teamSlug: string, login: string): Promise<boolean> {
  try {
    const { data } = await octokit.request("GET /orgs/{org}/teams/{team_slug}/memberships/{username}", {
      org,
      team_slug: teamSlug,
      username: login,
    });
    return data.state === "active";
  } catch (error) {
    if (isNotFound(error)) return false;
    throw toGitHubError(error, `checking whether ${login} is a member of the team ${org}/${teamSlug}`);
  }
}

export type TriggerPolicy = PermissionPolicy;

/**
 * Whether `login` may start a run under `policy`: role ≥ minimum, or listed in users, or an active
 * member of one of the teams. Bots never may (their comments are the bot's own or another app's).
 * A team the token cannot read (403, e.g. a workflow's GITHUB_TOKEN) counts as not a member, and
 * `why` says so.
 */
export async function checkTriggerPermission(
  octokit: GitHubClient,
  repo: RepoRef,
  actor: string | { login: string; type?: string },
  policy: TriggerPolicy,
): Promise<PermissionDecision> {
  const login = typeof actor === "string" ? actor : actor.login;
  if (isBotAccount(actor)) return { allowed: false, why: `@${login} is a bot; bots cannot trigger runs.` };

  const { roleName, permission } = await getCollaboratorRole(octokit, repo, login);
  const facts = { login, repoOwner: repo.owner, role: roleName, basePermission: permission };
  if (!needsTeamCheck(facts, policy) || isAllowListed(login, policy)) return decidePermission(facts, policy);

  const memberOfTeams: string[] = [];
  const unreadable: string[] = [];
  for (const team of teamsToCheck(policy, repo.owner)) {
    try {
      if (await isTeamMember(octokit, team.org, team.slug, login)) {
        memberOfTeams.push(team.name);
        break;
      }
    } catch (error) {
      if (!(error instanceof GitHubPermissionError)) throw error;
      unreadable.push(team.name);
    }
  }
  const decision = decidePermission({ ...facts, memberOfTeams }, policy);
  if (decision.allowed || unreadable.length === 0) return decision;
  return {
    allowed: false,
    why: `${decision.why} The membership of ${unreadable.map((t) => `\`${t}\``).join(", ")} could not be read (the token needs the organization's members: read permission).`,
  };
}

/**
 * Who the Action writes as, so it trusts its own markers and ignores its own comments.
 *
 * - The job's GITHUB_TOKEN writes as `github-actions[bot]`: always one of ours.
 * - A GitHub App installation token (e.g. from actions/create-github-app-token) writes as
 *   `<app-slug>[bot]`. Installation tokens cannot call `GET /user`, but GraphQL's `viewer` answers
 *   with the bot's login, so that login is added.
 * - A personal access token writes as a person. That login is NOT added: the person would then be
 *   unable to trigger runs (their comments would look like the bot's), and markers in a person's
 *   comments are what trust must exclude. With such a token the Action starts fresh runs rather
 *   than resuming from markers it cannot tell apart from the person's own text.
 */
import { isBotAccount } from "../core/actors.js";
import type { GitHubClient } from "../github/client.js";

export const ACTIONS_BOT_LOGIN = "github-actions[bot]";

export interface ActionIdentity {
  /** Logins whose comments are the Action's own (trusted markers, never triggers). */
  botLogins: string[];
  /** The token's own login as GraphQL reports it, when it could be read. */
  viewerLogin: string | null;
}

/** The token's login through GraphQL `viewer`, or null when GitHub does not say (no GraphQL, an error). */
export async function readViewerLogin(octokit: GitHubClient): Promise<string | null> {
  try {
    const response = await octokit.request("POST /graphql", { query: "query { viewer { login } }" });
    const data = response.data as { data?: { viewer?: { login?: unknown } } } | undefined;
    const login = data?.data?.viewer?.login;
    return typeof login === "string" && login !== "" ? login : null;
  } catch {
    return null;
  }
}

/** The identity for a viewer login: app bots are added to the trusted logins, people are not. */
export function identityFor(viewerLogin: string | null): ActionIdentity {
  const botLogins = [ACTIONS_BOT_LOGIN];
  if (viewerLogin && isBotAccount(viewerLogin) && viewerLogin.toLowerCase() !== ACTIONS_BOT_LOGIN) {
    botLogins.push(viewerLogin);
  }
  return { botLogins, viewerLogin };
}

export async function resolveIdentity(octokit: GitHubClient): Promise<ActionIdentity> {
  return identityFor(await readViewerLogin(octokit));
}

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
 *
 * GraphQL lives at GITHUB_GRAPHQL_URL: `https://api.github.com/graphql` on github.com,
 * `https://HOST/api/graphql` on a GitHub Enterprise Server (never under the REST base `/api/v3`).
 */
import { isBotAccount } from "../core/actors.js";
import type { GitHubClient } from "../github/client.js";

const ACTIONS_BOT_LOGIN = "github-actions[bot]";

export interface ActionIdentity {
  /** Logins whose comments are the Action's own (trusted markers, never triggers). */
  botLogins: string[];
  /** The token's own login as GraphQL reports it, when it could be read. */
  viewerLogin: string | null;
  /** Why GitHub did not say who the token is (the GraphQL request failed or answered no login); null when it did. */
  unknownBecause: string | null;
}

export type ViewerLogin = { login: string } | { login: null; because: string };

/** The token's login through GraphQL `viewer` at `graphqlUrl`, or why GitHub did not say. */
async function readViewerLogin(octokit: GitHubClient, graphqlUrl: string): Promise<ViewerLogin> {
  try {
    // An absolute URL: octokit sends it as is, not under the REST base.
    const response = await octokit.request({ method: "POST", url: graphqlUrl, query: "query { viewer { login } }" });
    const data = response.data as { data?: { viewer?: { login?: unknown } }; errors?: Array<{ message?: unknown }> } | undefined;
    const login = data?.data?.viewer?.login;
    if (typeof login === "string" && login !== "") return { login };
    const error = data?.errors?.[0]?.message;
    return { login: null, because: typeof error === "string" ? `it answered "${error}"` : "it answered no login" };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    return { login: null, because: typeof status === "number" ? `it answered HTTP ${status}` : `it failed (${(error as Error).message})` };
  }
}

/** The identity for a viewer login: app bots are added to the trusted logins, people are not. */
export function identityFor(viewer: ViewerLogin | null): ActionIdentity {
  const viewerLogin = viewer?.login ?? null;
  const botLogins = [ACTIONS_BOT_LOGIN];
  if (viewerLogin && isBotAccount(viewerLogin) && viewerLogin.toLowerCase() !== ACTIONS_BOT_LOGIN) {
    botLogins.push(viewerLogin);
  }
  return { botLogins, viewerLogin, unknownBecause: viewer && viewer.login === null ? viewer.because : null };
}

export async function resolveIdentity(octokit: GitHubClient, graphqlUrl: string): Promise<ActionIdentity> {
  return identityFor(await readViewerLogin(octokit, graphqlUrl));
}

/** The one warning line when the token's login is unknown: what was asked, why it failed, and what that costs. */
export function unknownIdentityWarning(graphqlUrl: string, because: string): string {
  return (
    `Could not learn who github-token writes as: GraphQL at ${graphqlUrl} ${because}. Only ${ACTIONS_BOT_LOGIN}'s markers are trusted, ` +
    `so with another token (a GitHub App's) this step cannot trust its own markers and starts fresh runs instead of resuming; ` +
    `check GITHUB_GRAPHQL_URL and the token.`
  );
}

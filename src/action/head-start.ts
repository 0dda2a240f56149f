/**
 * The GitHub reads a step is sure to make, sent before the rest of the Action is loaded.
 *
 * Validating the inputs, the event and the configuration needs zod and most of the bundle, which a
 * runner spends about 30 ms compiling and evaluating; GitHub answers in tens of milliseconds. Sent
 * first, the two overlap. This module (and all it imports) therefore stays free of zod and of the
 * schemas: the entry loads it, starts the reads, then imports the runner (BENCHMARKS.md, cold start).
 *
 * Only reads are sent, and only what the step would send anyway: the configuration file (every
 * step), and with a `prompt` or `mode: resume` who the token is; with a prompt to start a run, the
 * repository's recent comments for the spend limits, the repository role of the event's sender
 * (a prompt runs on their behalf, and their role is checked before the create) and, without
 * `repo-id`, the service's list of the organization's repositories (which the create's `repo_id`
 * comes from; one read spent for nothing when the configuration file sets `repo_id`, as the role
 * is when the workflow lets the sender in without it). They are sent before the inputs are
 * validated, so a step whose inputs turn out to be wrong may have read these; it writes nothing.
 * `openStep` takes a read over only when the validated inputs name the same token, API and
 * repository (and organization, for the service); the role's answer is handed to the step's first
 * request for that same role, through the client's request hook.
 */
import { readFileSync } from "node:fs";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listRecentRepositoryComments, type RecentRepositoryComments } from "../flows/recent-comments.js";
import { fetchConfigFile } from "./config-file.js";
import { resolveIdentity, type ActionIdentity } from "./identity.js";
import { nodeFetch } from "../http/node-fetch.js";
import type { SentAheadRequest } from "../service/client.js";
import { API_PATHS, LIST_PAGE_MAX, serviceUrl } from "../service/paths.js";
import { isAllowedServiceUrl } from "../service/service-url.js";
import { createActionOctokit, proxyFor, type ActionOctokit } from "./octokit.js";
import { rawInput, type Env } from "./raw-inputs.js";
import { apiUrlOf, graphqlUrlOf } from "./runner-env.js";

/** How the Action names itself in run metadata and its user agent. */
export const ACTION_NAME = `${BRIDGE_NAME}/action`;
export const ACTION_USER_AGENT = `${ACTION_NAME}/${BRIDGE_VERSION}`;

export interface HeadStart {
  /** What the reads were sent with: `openStep` compares them with the validated inputs. */
  token: string;
  apiUrl: string;
  /** Where the identity was asked. */
  graphqlUrl: string;
  repoFullName: string;
  octokit: Promise<GitHubClient>;
  configFile: Promise<string | undefined>;
  identity: Promise<ActionIdentity> | null;
  recentComments: Promise<RecentRepositoryComments> | null;
  /** Whose repository role was asked (the event's sender), when it was. */
  roleOf: string | null;
  /** What was asked of the service, for the client to take over (same token and organization only). */
  service: { apiToken: string; orgId: number; sentAhead: SentAheadRequest[] } | null;
  /** Ends what is still waiting once the step is done: a read nobody took over must not hold the process open (one to the service for its 30 s timeout, one to GitHub for ever). */
  close(): void;
}

/** Starts the reads; null when the environment says too little to know what they would be (the step then reports why). */
export function startHeadStart(env: Env, now: () => number = Date.now): HeadStart | null {
  const token = rawInput(env, "github-token");
  const repoFullName = env.GITHUB_REPOSITORY?.trim() ?? "";
  const [owner, name, extra] = repoFullName.split("/");
  if (token === "" || !env.GITHUB_EVENT_NAME?.trim() || !owner || !name || extra !== undefined) return null;
  const repo: RepoRef = { owner, repo: name };
  // As readRunnerEnv reads them.
  const apiUrl = apiUrlOf(env);
  const graphqlUrl = graphqlUrlOf(env);
  const prompt = rawInput(env, "prompt") !== "";
  const resume = rawInput(env, "mode").toLowerCase() === "resume";

  const pending = new AbortController();
  const created = createActionOctokit(token, apiUrl, ACTION_USER_AGENT, pending.signal);
  const sender = prompt && !resume ? humanSender(env) : null;
  const octokit = sender ? created.then((client) => askRoleAhead(client, repo, sender)) : created;
  const after = <T>(read: (client: GitHubClient) => Promise<T>): Promise<T> => quiet(octokit.then(read));
  return {
    token,
    apiUrl,
    graphqlUrl,
    repoFullName,
    octokit: quiet(octokit),
    configFile: after((client) => fetchConfigFile(client, repo)),
    identity: prompt || resume ? after((client) => resolveIdentity(client, graphqlUrl)) : null,
    recentComments: prompt && !resume ? after((client) => listRecentRepositoryComments(client, repo, now())) : null,
    roleOf: sender,
    service: prompt && !resume && rawInput(env, "repo-id") === "" ? listRepositoriesAhead(env, pending.signal) : null,
    close: () => pending.abort(),
  };
}

const ROLE_ROUTE = "GET /repos/{owner}/{repo}/collaborators/{username}/permission";

/** The login of the event's sender when it is a person (a bot's role is never asked); null when the payload says nothing usable. */
function humanSender(env: Env): string | null {
  const path = env.GITHUB_EVENT_PATH?.trim();
  if (!path) return null;
  try {
    const sender = (JSON.parse(readFileSync(path, "utf8")) as { sender?: { login?: unknown; type?: unknown } } | null)?.sender;
    const login = sender?.login;
    if (typeof login !== "string" || login === "" || login.endsWith("[bot]") || sender?.type !== "User") return null;
    return login;
  } catch {
    // The step reads the payload again and says what is wrong with it.
    return null;
  }
}

/**
 * Sends the read of `login`'s repository role now, and answers the client's first identical
 * request with it (its answer, or its error, as if that request had been sent then); every other
 * request goes to GitHub as usual.
 */
function askRoleAhead(client: ActionOctokit, repo: RepoRef, login: string): ActionOctokit {
  // Hooks run from a later microtask: the first matching request through the hook is the one sent here.
  let phase: "sending" | "sent" | "taken" = "sending";
  client.hook.wrap("request", (request, options) => {
    const same =
      `${options.method} ${options.url}` === ROLE_ROUTE &&
      options.owner === repo.owner &&
      options.repo === repo.repo &&
      options.username === login;
    if (!same || phase === "taken") return request(options);
    if (phase === "sending") {
      phase = "sent";
      return request(options);
    }
    phase = "taken";
    return ahead;
  });
  const ahead = quiet(client.request(ROLE_ROUTE, { ...repo, username: login }));
  return client;
}

const SERVICE_TIMEOUT_MS = 30_000;

/** The first page of the organization's repositories, asked as AgentRunClient asks it (flows/repository-id.ts reads it). */
function listRepositoriesAhead(env: Env, closed: AbortSignal): HeadStart["service"] {
  const apiUrl = rawInput(env, "api-url");
  const apiToken = rawInput(env, "api-token");
  const orgId = Number(rawInput(env, "org-id"));
  // Through a proxy the client uses Node's own fetch: it reads for itself. The token never goes to a URL the inputs would refuse.
  if (apiToken === "" || !Number.isSafeInteger(orgId) || orgId <= 0 || !isAllowedServiceUrl(apiUrl) || proxyFor(apiUrl)) return null;
  let url: URL;
  try {
    url = serviceUrl(apiUrl, API_PATHS.listRepositories(orgId), { skip: 0, limit: LIST_PAGE_MAX });
  } catch {
    return null;
  }
  const headers = { accept: "application/json", authorization: `Bearer ${apiToken}`, "user-agent": ACTION_USER_AGENT };
  // Bounded as the client bounds a request, and ended with the step.
  const signal = AbortSignal.any([closed, AbortSignal.timeout(SERVICE_TIMEOUT_MS)]);
  const response = quiet(nodeFetch(url, { method: "GET", headers, signal }));
  return { apiToken, orgId, sentAhead: [{ method: "GET", url, response }] };
}

/** A read's failure is reported where the step awaits it, never as an unhandled rejection here. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

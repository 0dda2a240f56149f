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
 * repository's recent comments for the spend limits. They are sent before the inputs are validated,
 * so a step whose inputs turn out to be wrong may have read these; it writes nothing. `openStep`
 * takes a read over only when the validated inputs name the same token, API and repository.
 */
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listRecentRepositoryComments, type RecentRepositoryComments } from "../flows/recent-comments.js";
import { fetchConfigFile } from "./config-file.js";
import { resolveIdentity, type ActionIdentity } from "./identity.js";
import { createActionOctokit } from "./octokit.js";
import { rawInput, type Env } from "./raw-inputs.js";

/** How the Action names itself in run metadata and its user agent. */
export const ACTION_NAME = `${BRIDGE_NAME}/action`;
export const ACTION_USER_AGENT = `${ACTION_NAME}/${BRIDGE_VERSION}`;

export interface HeadStart {
  /** What the reads were sent with: `openStep` compares them with the validated inputs. */
  token: string;
  apiUrl: string;
  repoFullName: string;
  octokit: Promise<GitHubClient>;
  configFile: Promise<string | undefined>;
  identity: Promise<ActionIdentity> | null;
  recentComments: Promise<RecentRepositoryComments> | null;
}

/** Starts the reads; null when the environment says too little to know what they would be (the step then reports why). */
export function startHeadStart(env: Env, now: () => number = Date.now): HeadStart | null {
  const token = rawInput(env, "github-token");
  const repoFullName = env.GITHUB_REPOSITORY?.trim() ?? "";
  const [owner, name, extra] = repoFullName.split("/");
  if (token === "" || !env.GITHUB_EVENT_NAME?.trim() || !owner || !name || extra !== undefined) return null;
  const repo: RepoRef = { owner, repo: name };
  // As readRunnerEnv reads it.
  const apiUrl = (env.GITHUB_API_URL?.trim() || "https://api.github.com").replace(/\/+$/, "");
  const prompt = rawInput(env, "prompt") !== "";
  const resume = rawInput(env, "mode").toLowerCase() === "resume";

  const octokit = createActionOctokit(token, apiUrl, ACTION_USER_AGENT);
  const after = <T>(read: (client: GitHubClient) => Promise<T>): Promise<T> => quiet(octokit.then(read));
  return {
    token,
    apiUrl,
    repoFullName,
    octokit: quiet(octokit),
    configFile: after((client) => fetchConfigFile(client, repo)),
    identity: prompt || resume ? after(resolveIdentity) : null,
    recentComments: prompt && !resume ? after((client) => listRecentRepositoryComments(client, repo, now())) : null,
  };
}

/** A read's failure is reported where the step awaits it, never as an unhandled rejection here. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

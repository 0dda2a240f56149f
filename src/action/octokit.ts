/**
 * The Action's GitHub client. Everything in src/github needs only `request`, so @octokit/core is
 * enough. @actions/github's `getOctokit` sends every request through a bundled undici (0.8 MB, tens
 * of milliseconds to load on a runner) only to honour a proxy. So: that proxy-aware client when the
 * runner sets a proxy for the API's host, and node:http (see http/node-fetch.ts) otherwise. Both
 * log through the step's door (octokit-log.ts), never straight to stderr.
 */
import { getProxyUrl } from "@actions/http-client/lib/proxy";
import { Octokit } from "@octokit/core";
import type { GitHubClient } from "../github/client.js";
import { nodeFetch } from "../http/node-fetch.js";
import { octokitLog } from "./octokit-log.js";

/** The client with its request hooks (the head start answers a read it sent ahead through them). */
export type ActionOctokit = GitHubClient & Pick<Octokit, "hook">;

/** `signal` ends every request of the client (the head start's, once the step is done). */
export async function createActionOctokit(token: string, baseUrl: string, userAgent: string, signal?: AbortSignal): Promise<ActionOctokit> {
  if (proxyFor(baseUrl)) {
    // Loaded only here: it brings undici with it (proxy-client.ts).
    // What `getOctokit` makes. Octokit merges `request` shallowly: its proxy-aware agent and fetch are kept by hand.
    const { GitHub, defaults, getOctokitOptions } = await import("./proxy-client.js");
    const request = { ...defaults.request, log: octokitLog, ...(signal ? { signal } : {}) };
    return new GitHub(getOctokitOptions(token, { baseUrl, userAgent, log: octokitLog, request }));
  }
  return new Octokit({
    auth: `token ${token}`,
    baseUrl,
    userAgent: withOrchestrationId(userAgent),
    log: octokitLog,
    request: { fetch: nodeFetch, log: octokitLog, ...(signal ? { signal } : {}) },
  });
}

/** Whether `https_proxy`/`http_proxy` (less `no_proxy`) applies to this URL, as @actions/http-client reads them. */
export function proxyFor(baseUrl: string): boolean {
  try {
    return getProxyUrl(new URL(baseUrl)) !== undefined;
  } catch {
    return false;
  }
}

/** What @actions/github adds to the user agent: the runner's orchestration id, for GitHub's request tracing. */
function withOrchestrationId(userAgent: string): string {
  const id = process.env.ACTIONS_ORCHESTRATION_ID?.trim();
  if (!id) return userAgent;
  const tag = `actions_orchestration_id/${id.replace(/[^a-z0-9_.-]/gi, "_")}`;
  return userAgent.includes(tag) ? userAgent : `${userAgent} ${tag}`;
}

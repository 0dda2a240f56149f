/**
 * What the runner tells a step about where it runs: the event (GITHUB_EVENT_NAME and the payload
 * file at GITHUB_EVENT_PATH), the repository, the REST, GraphQL and web URLs (a GitHub Enterprise
 * Server's runner points them at the server), the workflow run. Read once,
 * from the environment given (the process's in production), without @actions/github's `context`,
 * which reads the environment when it is first imported.
 */
import { readFileSync } from "node:fs";
import { GITHUB_COM_API_URL, githubServerAt, graphqlUrlOfApiUrl, type GitHubServer } from "../core/github-hosts.js";
import type { Env } from "./inputs.js";

export interface RunnerEnv {
  eventName: string;
  eventPath: string | null;
  /** `owner/name`, from GITHUB_REPOSITORY. */
  repository: string | null;
  apiUrl: string;
  /** GITHUB_GRAPHQL_URL, or what GitHub's layout gives for the API URL (core/github-hosts.ts). */
  graphqlUrl: string;
  serverUrl: string;
  /** The GitHub of GITHUB_SERVER_URL: which pasted images are its own, where the token may go. */
  server: GitHubServer;
  /** The workflow run this step belongs to, with its attempt: the `delivery_id` of the Action's runs. */
  runId: string | null;
  runAttempt: string | null;
  workflow: string | null;
  workspace: string;
  actor: string | null;
}

/** The runner's environment is not what a GitHub runner sets. */
export class RunnerEnvError extends Error {
  override name = "RunnerEnvError";
}

const value = (env: Env, name: string): string | null => {
  const text = env[name]?.trim();
  return text ? text : null;
};

export function readRunnerEnv(env: Env): RunnerEnv {
  const eventName = value(env, "GITHUB_EVENT_NAME");
  if (!eventName) {
    throw new RunnerEnvError("GITHUB_EVENT_NAME is not set: this action runs as a step of a GitHub Actions workflow (the runner sets it).");
  }
  const apiUrl = apiUrlOf(env);
  const serverUrl = (value(env, "GITHUB_SERVER_URL") ?? "https://github.com").replace(/\/+$/, "");
  let server: GitHubServer;
  try {
    server = githubServerAt(serverUrl);
  } catch (error) {
    throw new RunnerEnvError(`GITHUB_SERVER_URL: ${(error as Error).message}`);
  }
  return {
    eventName,
    eventPath: value(env, "GITHUB_EVENT_PATH"),
    repository: value(env, "GITHUB_REPOSITORY"),
    apiUrl,
    graphqlUrl: graphqlUrlOf(env),
    serverUrl,
    server,
    runId: value(env, "GITHUB_RUN_ID"),
    runAttempt: value(env, "GITHUB_RUN_ATTEMPT"),
    workflow: value(env, "GITHUB_WORKFLOW"),
    workspace: value(env, "GITHUB_WORKSPACE") ?? process.cwd(),
    actor: value(env, "GITHUB_ACTOR"),
  };
}

/** GITHUB_API_URL without trailing slashes; api.github.com when unset. */
export function apiUrlOf(env: Env): string {
  return (value(env, "GITHUB_API_URL") ?? GITHUB_COM_API_URL).replace(/\/+$/, "");
}

/** GITHUB_GRAPHQL_URL as the runner sets it; derived from the API URL when absent (`/api/graphql` beside an `/api/v3`). */
export function graphqlUrlOf(env: Env): string {
  return value(env, "GITHUB_GRAPHQL_URL") ?? graphqlUrlOfApiUrl(apiUrlOf(env));
}

/**
 * The event payload; `{}` when the runner wrote none (some events carry almost nothing). Read
 * synchronously: a small local file, and the first asynchronous file operation of a process starts
 * libuv's thread pool, which cost the step's start about as much as the rest of opening it.
 */
export async function readEventPayload(runner: RunnerEnv): Promise<unknown> {
  if (!runner.eventPath) return {};
  let text: string;
  try {
    text = readFileSync(runner.eventPath, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RunnerEnvError(`Cannot read the event payload at GITHUB_EVENT_PATH (${String(code ?? error)}).`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RunnerEnvError("The event payload at GITHUB_EVENT_PATH is not JSON.");
  }
}

/** The workflow run's page, for links in summaries and metadata. */
export function workflowRunUrl(runner: RunnerEnv): string | null {
  return runner.repository && runner.runId ? `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}` : null;
}

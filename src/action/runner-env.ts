/**
 * What the runner tells a step about where it runs: the event (GITHUB_EVENT_NAME and the payload
 * file at GITHUB_EVENT_PATH), the repository, the API and web URLs, the workflow run. Read once,
 * from the environment given (the process's in production), without @actions/github's `context`,
 * which reads the environment when it is first imported.
 */
import { readFile } from "node:fs/promises";
import type { Env } from "./inputs.js";

export interface RunnerEnv {
  eventName: string;
  eventPath: string | null;
  /** `owner/name`, from GITHUB_REPOSITORY. */
  repository: string | null;
  apiUrl: string;
  serverUrl: string;
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
  return {
    eventName,
    eventPath: value(env, "GITHUB_EVENT_PATH"),
    repository: value(env, "GITHUB_REPOSITORY"),
    apiUrl: (value(env, "GITHUB_API_URL") ?? "https://api.github.com").replace(/\/+$/, ""),
    serverUrl: (value(env, "GITHUB_SERVER_URL") ?? "https://github.com").replace(/\/+$/, ""),
    runId: value(env, "GITHUB_RUN_ID"),
    runAttempt: value(env, "GITHUB_RUN_ATTEMPT"),
    workflow: value(env, "GITHUB_WORKFLOW"),
    workspace: value(env, "GITHUB_WORKSPACE") ?? process.cwd(),
    actor: value(env, "GITHUB_ACTOR"),
  };
}

/** The event payload; `{}` when the runner wrote none (some events carry almost nothing). */
export async function readEventPayload(runner: RunnerEnv): Promise<unknown> {
  if (!runner.eventPath) return {};
  let text: string;
  try {
    text = await readFile(runner.eventPath, "utf8");
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

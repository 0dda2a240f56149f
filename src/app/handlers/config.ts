/**
 * The repository's `.github/agent-run.yml`, read through Probot (`context.config`: the default
 * branch, the owner's `.github` repository as a fallback, `_extends`) and validated. A broken file
 * gets one answer in the thread of an event that would have been a trigger, and nothing else.
 */
import { parseRepoConfig, type RepoConfig } from "../../config/schema.js";
import type { BridgeEvent } from "../../core/events.js";
import { triggerThread, type BridgeSelf } from "../../core/plan.js";
import { configErrorReply, detectDespiteConfigError } from "../../flows/index.js";
import { createComment } from "../../github/comments.js";
import type { GitHubClient } from "../../github/client.js";
import type { BridgeStore } from "../store/types.js";
import type { HandlerLogger } from "./types.js";

/** The name Probot's `context.config` takes (it reads `.github/<name>`). */
export const CONFIG_FILE_NAME = "agent-run.yml";

const CONFIG_LOADER_PREFIX = "[@probot/octokit-plugin-config]";

export type LoadedConfig = { ok: true; config: RepoConfig } | { ok: false; errors: string[]; raw: unknown };

export async function loadRepoConfig(readConfig: (file: string) => Promise<unknown>): Promise<LoadedConfig> {
  let raw: unknown;
  try {
    raw = await readConfig(CONFIG_FILE_NAME);
  } catch (error) {
    // Probot's config loader names the file's own problems (invalid YAML, a bad `_extends`) with
    // its prefix; anything else (GitHub failing, no access) is not the file's fault: the delivery fails.
    const message = error instanceof Error ? error.message : String(error);
    if (!message.startsWith(CONFIG_LOADER_PREFIX)) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message.split("\n")[0]}` : "";
    return { ok: false, errors: [`the file could not be read: ${message.slice(CONFIG_LOADER_PREFIX.length).trim()}${cause}`], raw: null };
  }
  const parsed = parseRepoConfig(raw);
  return parsed.ok ? { ok: true, config: parsed.config } : { ok: false, errors: parsed.errors, raw };
}

/** Answers a broken config once per thread, only for events that would have started something. */
export async function answerConfigError(input: {
  octokit: GitHubClient;
  event: BridgeEvent;
  loaded: Extract<LoadedConfig, { ok: false }>;
  self: BridgeSelf;
  store: BridgeStore;
  log: HandlerLogger;
}): Promise<void> {
  const { event, loaded, log } = input;
  const detection = detectDespiteConfigError(event, loaded.raw, input.self);
  if (detection.kind !== "trigger") {
    log.info({ errors: loaded.errors, reason: detection.reason }, "the repository's agent-run.yml is invalid; the event is no trigger, so nothing is said");
    return;
  }
  const trigger = detection.trigger;
  const thread = triggerThread(trigger);
  if (!thread || !trigger.repo) return;
  if (!input.store.claimTrigger(`${trigger.repo.id}:${trigger.dedupeKey}`)) {
    log.info({ key: trigger.dedupeKey }, "this trigger was already handled");
    return;
  }
  const repo = { owner: trigger.repo.owner, repo: trigger.repo.name };
  const body = await configErrorReply({ octokit: input.octokit, repo, threadNumber: thread.number, errors: loaded.errors, self: { botLogins: [...input.self.botLogins] } });
  if (body === null) {
    log.info({ errors: loaded.errors }, "the repository's agent-run.yml is invalid; the thread already says so");
    return;
  }
  await createComment(input.octokit, repo, thread.number, body);
  log.warn({ errors: loaded.errors, thread: thread.number }, "the repository's agent-run.yml is invalid; told the thread");
}

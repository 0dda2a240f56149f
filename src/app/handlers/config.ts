/**
 * The repository's `.github/agent-run.yml`, read through Probot (`context.config`: the default
 * branch, the owner's `.github` repository as a fallback, `_extends`) and validated. A broken file
 * gets one answer in the thread of an event that would have been a trigger, and nothing else.
 */
import { createHash } from "node:crypto";
import { CONFIG_FILE_NAME } from "../../config/path.js";
import { parseRepoConfig, type RepoConfig } from "../../config/schema.js";
import type { BridgeEvent } from "../../core/events/types.js";
import { triggerThread } from "../../core/detect.js";
import type { BridgeSelf } from "../../core/actors.js";
import { configErrorReply, detectDespiteConfigError } from "../../flows/index.js";
import type { AppDependencies } from "./types.js";

const CONFIG_LOADER_PREFIX = "[@probot/octokit-plugin-config]";

/** `warnings`: invalid `automations` entries, skipped (the rest applies). */
export type LoadedConfig = { ok: true; config: RepoConfig; warnings: string[] } | { ok: false; errors: string[]; raw: unknown };

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
  return parsed.ok ? { ok: true, config: parsed.config, warnings: parsed.warnings } : { ok: false, errors: parsed.errors, raw };
}

/** Answers a broken config once per thread, only for events that would have started something. */
export async function answerConfigError(input: {
  event: BridgeEvent;
  loaded: Extract<LoadedConfig, { ok: false }>;
  self: BridgeSelf;
  deps: AppDependencies;
  installationId: number | null;
}): Promise<void> {
  const { event, loaded, deps } = input;
  const log = deps.log;
  const detection = detectDespiteConfigError(event, loaded.raw, input.self);
  if (detection.kind !== "trigger") {
    log.info(
      { errors: loaded.errors, reason: detection.reason },
      "the repository's agent-run.yml is invalid; the event is no trigger, so nothing is said",
    );
    return;
  }
  const trigger = detection.trigger;
  const thread = triggerThread(trigger);
  if (!thread || !trigger.repo) return;
  const triggerKey = `${trigger.repo.id}:${trigger.dedupeKey}`;
  if (!(await deps.store.claimTrigger(triggerKey))) {
    log.info({ key: trigger.dedupeKey }, "this trigger was already handled");
    return;
  }
  const repo = { owner: trigger.repo.owner, repo: trigger.repo.name };
  // Deliveries are handled side by side: the same problems are answered once per thread, whichever comes first.
  const problemsKey = `${trigger.repo.id}:config-error:${thread.number}:${createHash("sha256").update(loaded.errors.join("\n")).digest("hex").slice(0, 16)}`;
  if (!(await deps.store.claimTrigger(problemsKey))) {
    log.info({ errors: loaded.errors }, "the repository's agent-run.yml is invalid; the thread is being told already");
    return;
  }
  try {
    const octokit = await deps.octokitFor(input.installationId);
    const body = await configErrorReply({
      octokit,
      repo,
      threadNumber: thread.number,
      errors: loaded.errors,
      self: { botLogins: input.self.botLogins },
    });
    if (body === null) {
      log.info({ errors: loaded.errors }, "the repository's agent-run.yml is invalid; the thread already says so");
      return;
    }
    const replyThread = { installationId: input.installationId, owner: repo.owner, repo: repo.repo, issueNumber: thread.number };
    await deps.engine.reply(replyThread, body, "acknowledge");
  } catch (error) {
    await deps.store.releaseTrigger(triggerKey);
    await deps.store.releaseTrigger(problemsKey);
    throw error;
  }
  log.warn({ errors: loaded.errors, thread: thread.number }, "the repository's agent-run.yml is invalid; told the thread");
}

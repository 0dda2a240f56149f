/**
 * The repository's `.github/agent-run.yml`, read like Probot's config loader reads it (the default
 * branch, the owner's `.github` repository as a fallback, `_extends`) but through flows/config-sources,
 * which applies a file only where config/sources allows it, and validated. A broken file gets one
 * answer in the thread of an event that would have been a trigger, for someone who may trigger runs.
 */
import { createHash } from "node:crypto";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, type RepoConfig } from "../../config/schema.js";
import { labelWithOrigin } from "../../config/sources.js";
import type { BridgeEvent } from "../../core/events/types.js";
import { triggerThread } from "../../core/detect/triggers.js";
import type { BridgeSelf } from "../../core/actors.js";
import { configErrorReply, detectDespiteConfigError, mayHearConfigError } from "../../flows/index.js";
import { readConfigSources } from "../../flows/config-sources.js";
import type { GitHubClient, RepoRef } from "../../github/client.js";
import type { AppDependencies } from "./types.js";

/**
 * `warnings`: invalid `automations` entries, skipped (the rest applies). `version`: the blob shas of the
 * files read ("" without a file), which names this version of the configuration.
 */
export type LoadedConfig =
  { ok: true; config: RepoConfig; warnings: string[]; version: string } | { ok: false; errors: string[]; raw: unknown };

/** The repository's settings; a repository-less event (none can be a trigger) has the defaults. */
export async function loadRepoConfig(octokit: GitHubClient, repo: RepoRef | null): Promise<LoadedConfig> {
  if (!repo) return { ok: true, config: DEFAULT_REPO_CONFIG, warnings: [], version: "" };
  const read = await readConfigSources(octokit, repo);
  if (!read.ok) return read;
  const parsed = parseRepoConfig(read.raw, { label: labelWithOrigin(read.origins, repo) });
  return parsed.ok
    ? { ok: true, config: parsed.config, warnings: parsed.warnings, version: read.versions.join("+") }
    : { ok: false, errors: parsed.errors, raw: read.raw };
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
  const repo = { owner: trigger.repo.owner, repo: trigger.repo.name };
  const octokit = await deps.octokitFor(input.installationId);
  const audience = await mayHearConfigError({ octokit, repo, trigger, raw: loaded.raw, self: input.self });
  if (!audience.allowed) {
    log.info(
      { errors: loaded.errors, thread: thread.number, why: audience.why },
      "the repository's agent-run.yml is invalid; whoever asked may not trigger runs, so nothing is said",
    );
    return;
  }
  const triggerKey = `${trigger.repo.id}:${trigger.dedupeKey}`;
  if (!(await deps.store.claimTrigger(triggerKey))) {
    log.info({ key: trigger.dedupeKey }, "this trigger was already handled");
    return;
  }
  // Deliveries are handled side by side: the same problems are answered once per thread, whichever comes first.
  const problemsKey = `${trigger.repo.id}:config-error:${thread.number}:${createHash("sha256").update(loaded.errors.join("\n")).digest("hex").slice(0, 16)}`;
  if (!(await deps.store.claimTrigger(problemsKey))) {
    log.info({ errors: loaded.errors }, "the repository's agent-run.yml is invalid; the thread is being told already");
    return;
  }
  try {
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

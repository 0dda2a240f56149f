/**
 * A broken `.github/agent-run.yml`: decide whether the event deserves an answer at all (it would
 * have been a trigger), and answer once per thread (not again while the bot's latest config-error
 * comment in the thread already says the same).
 */
import { CONFIG_PATH } from "../config/path.js";
import { configForJudging, salvageConfig } from "../config/salvage.js";
import type { BridgeEvent } from "../core/events/types.js";
import { findTrustedComment, type BotIdentity } from "../core/markers/trust.js";
import { withoutMarkerSignature } from "../core/markers/signature.js";
import { bindKindMarker } from "../core/markers/write.js";
import { detectTrigger, type TriggerDetection } from "../core/detect/index.js";
import type { RunTrigger } from "../core/detect/triggers.js";
import type { BridgeSelf } from "../core/actors.js";
import { renderConfigError } from "../core/render/replies.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments } from "../github/comments.js";
import { asMarkerComments, markerPlaceOf, planFromEvent, triggerPermission } from "./facts.js";

/** Whether the event would have been a request for a run, or why not. */
export type ConfigErrorDetection = Extract<TriggerDetection, { kind: "trigger" }> | { kind: "ignore"; reason: string };
import { THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";

/**
 * Whether an event would have been a trigger had the file been right: judged with what is readable,
 * and with every switch the broken part may have turned on taken as on (see config/salvage). A CI
 * failure, a label or a review affected by the broken section therefore gets the config-error reply;
 * one the file cannot have affected (CI auto-fix left off in a valid section) stays quiet.
 */
export function detectDespiteConfigError(event: BridgeEvent, raw: unknown, self: BridgeSelf): ConfigErrorDetection {
  const addedLabel = event.kind === "issues" && event.action === "labeled" ? (event.label?.name ?? null) : null;
  const config = configForJudging(salvageConfig(raw), addedLabel);
  const detection = detectTrigger(event, config, self);
  // A stop asks for no run: nothing a broken file holds back.
  if (detection.kind === "stop") return { kind: "ignore", reason: "A stop request starts no run." };
  // Nobody asked an automation: a broken file is told to whoever asks next, never to someone who opened an issue.
  if (detection.kind === "automations") return { kind: "ignore", reason: "An automation was nobody's request." };
  if (detection.kind === "ignore") return detection;
  // A thread the kill switch holds back hears nothing, a broken file included.
  const early = planFromEvent(detection.trigger, config);
  return early?.action === "ignore" ? { kind: "ignore", reason: early.reason } : detection;
}

/**
 * Whether the trigger's author may hear that the file is broken: only someone who may trigger runs,
 * judged by the file's readable `permissions` (defaults where it cannot be read), so that a
 * stranger's comment learns nothing of the repository's settings. CI failures need no permission.
 */
export async function mayHearConfigError(input: {
  octokit: GitHubClient;
  repo: RepoRef;
  trigger: RunTrigger;
  raw: unknown;
  self: BridgeSelf;
}): Promise<{ allowed: boolean; why: string }> {
  return triggerPermission(input.octokit, input.repo, input.trigger, salvageConfig(input.raw).config, input.self);
}

/**
 * The config-error reply to post in a thread, or null when the bot's latest config-error comment
 * there already says exactly this (one answer per problem, however many triggers follow).
 */
export async function configErrorReply(input: {
  octokit: GitHubClient;
  repo: RepoRef;
  threadNumber: number;
  errors: string[];
  self: BotIdentity;
}): Promise<string | null> {
  const body = renderConfigError({ errors: input.errors, file: CONFIG_PATH });
  const { comments } = await listIssueComments(input.octokit, input.repo, input.threadNumber, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const place = markerPlaceOf(input.repo, input.threadNumber);
  const latest = findTrustedComment(asMarkerComments(comments), "config_error", input.self, place);
  // The latest reply was bound to this thread (and signed) on its way out: compare it as this one would leave.
  return latest?.body && withoutMarkerSignature(latest.body).trim() === bindKindMarker(body, place).trim() ? null : body;
}

/**
 * A broken `.github/agent-run.yml`: decide whether the event deserves an answer at all (it would
 * have been a trigger), and answer once per thread (not again while the bot's latest config-error
 * comment in the thread already says the same).
 */
import { DEFAULT_REPO_CONFIG, REPO_CONFIG_FIELDS, type RepoConfig } from "../config/schema.js";
import type { BridgeEvent } from "../core/events.js";
import { findTrustedComment, type BotIdentity } from "../core/markers.js";
import { detectTrigger, type BridgeSelf, type TriggerDetection } from "../core/plan.js";
import { renderConfigError } from "../core/render.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments } from "../github/comments.js";
import { asMarkerComments } from "./facts.js";
import { THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";

/** Where the repository configuration lives (Probot's `context.config("agent-run.yml")` reads it under `.github/`). */
export const REPO_CONFIG_FILE = ".github/agent-run.yml";

/**
 * The configuration to detect triggers with when the file is invalid: every field that is valid on
 * its own keeps its value (a custom trigger phrase still works), the others take their defaults.
 */
export function configForDetection(raw: unknown): RepoConfig {
  const record = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const config: Record<string, unknown> = { ...DEFAULT_REPO_CONFIG };
  for (const [key, schema] of Object.entries(REPO_CONFIG_FIELDS)) {
    const parsed = schema.safeParse(record[key]);
    if (parsed.success) config[key] = parsed.data;
  }
  return config as RepoConfig;
}

/** Whether an event would have been a trigger, judged with what is valid in the broken file. */
export function detectDespiteConfigError(event: BridgeEvent, raw: unknown, self: BridgeSelf): TriggerDetection {
  return detectTrigger(event, configForDetection(raw), self);
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
  file?: string;
}): Promise<string | null> {
  const body = renderConfigError({ errors: input.errors, file: input.file ?? REPO_CONFIG_FILE });
  const { comments } = await listIssueComments(input.octokit, input.repo, input.threadNumber, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const latest = findTrustedComment(asMarkerComments(comments), "config_error", input.self);
  return latest?.body?.trim() === body.trim() ? null : body;
}

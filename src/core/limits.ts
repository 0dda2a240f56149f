/**
 * Spend guards: how many runs a thread and a repository may start (creates and resumes alike),
 * each over a sliding window ending now, and the one short reply when a trigger is over a limit.
 * Pure: the shell passes when the runs in each scope started (the App from its store, shared
 * through Redis between replicas; the Action from the bot's own markers) and the current time.
 *
 *   checkRunLimits({ starts, limits, isCiFix, now })  → allowed, or over { limit, count, max, freesAt }
 *   overLimitReplyDue({ over, earlierReplies, now })  → whether the thread hears about it (once per window)
 *   renderOverLimitReply({ over, now, … })            → the reply
 */
import { CONFIG_PATH } from "../config/path.js";
import type { RepoConfig, RunLimitName } from "../config/schema.js";
import { SOURCE } from "../service/wire.js";
import {
  isTrustedMarkerComment,
  listTrustedKindMarkers,
  markerPlaceFrom,
  sameRepository,
  type BotIdentity,
  type MarkerComment,
} from "./markers/trust.js";
import { parseMarker } from "./markers/read.js";
import type { MarkerPlace, RunMarker } from "./markers/schema.js";
import { renderOverLimitMarker } from "./markers/write.js";
import { LIMIT_WINDOW_MS } from "./limit-windows.js";
import { formatElapsed } from "./render/pieces.js";
import { inlineCode } from "./sanitize-output/code.js";
import { md, type SafeMarkdown } from "./sanitize-output/safe-markdown.js";

export { LIMIT_WINDOW_MS } from "./limit-windows.js";

/** When runs started (epoch milliseconds, any order, older ones are ignored): the facts behind the limits. */
export interface RunStarts {
  /** In this issue or pull request; empty when the trigger has no thread. */
  thread: readonly number[];
  /** In the whole repository. */
  repo: readonly number[];
  /** CI auto-fix runs in the whole repository. */
  ciFixes: readonly number[];
}

export interface OverLimit {
  limit: RunLimitName;
  /** The configured maximum. */
  max: number;
  /** Runs started in the window ending now (at least `max`). */
  count: number;
  windowMs: number;
  /** The first moment another run may start (epoch ms). */
  freesAt: number;
}

export type LimitVerdict = { allowed: true } | { allowed: false; over: OverLimit };

export interface LimitCheckInput {
  starts: RunStarts;
  limits: RepoConfig["limits"];
  /** A CI auto-fix: `ci_fixes_per_repo_per_day` applies too. */
  isCiFix: boolean;
  now: number;
}

function checkOne(limit: RunLimitName, max: number, starts: readonly number[], now: number): OverLimit | null {
  const windowMs = LIMIT_WINDOW_MS[limit];
  const inWindow = starts.filter((at) => at > now - windowMs && at <= now).sort((a, b) => a - b);
  if (inWindow.length < max) return null;
  // Once the oldest (count - max + 1) starts have left the window, one more fits.
  return { limit, max, count: inWindow.length, windowMs, freesAt: inWindow[inWindow.length - max]! + windowMs };
}

/**
 * Whether one more run may start now. When several limits are reached, the one that frees last is
 * named: its time is when a run can really start again.
 */
export function checkRunLimits(input: LimitCheckInput): LimitVerdict {
  const { starts, limits, now } = input;
  const over = [
    checkOne("runs_per_thread_per_day", limits.runs_per_thread_per_day, starts.thread, now),
    checkOne("runs_per_repo_per_hour", limits.runs_per_repo_per_hour, starts.repo, now),
    input.isCiFix ? checkOne("ci_fixes_per_repo_per_day", limits.ci_fixes_per_repo_per_day, starts.ciFixes, now) : null,
  ].filter((found): found is OverLimit => found !== null);
  if (over.length === 0) return { allowed: true };
  return { allowed: false, over: over.reduce((latest, found) => (found.freesAt > latest.freesAt ? found : latest)) };
}

/** An earlier over-limit reply in the thread. */
export interface OverLimitReply {
  limit: RunLimitName;
  /** When it was posted (epoch ms). */
  at: number;
}

/** At most one reply per thread per window of the limit: not again while an earlier one for it is inside the window. */
export function overLimitReplyDue(input: { over: OverLimit; earlierReplies: readonly OverLimitReply[]; now: number }): boolean {
  const since = input.now - input.over.windowMs;
  return !input.earlierReplies.some((reply) => reply.limit === input.over.limit && reply.at > since && reply.at <= input.now);
}

function describeCount(over: OverLimit, threadKind: "issue" | "pull_request" | null): SafeMarkdown {
  const runs = over.count === 1 ? "1 run" : `${over.count} runs`;
  switch (over.limit) {
    case "runs_per_thread_per_day":
      return `this ${threadKind === "issue" ? "issue" : "pull request"} has started ${runs} in the last 24 hours` as SafeMarkdown;
    case "runs_per_repo_per_hour":
      return `this repository has started ${runs} in the last hour` as SafeMarkdown;
    case "ci_fixes_per_repo_per_day":
      return `this repository has started ${over.count === 1 ? "1 CI fix run" : `${over.count} CI fix runs`} in the last 24 hours` as SafeMarkdown;
  }
}

/** `2026-06-21 14:05 UTC`: unambiguous wherever the reader is. */
function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The one short reply in the thread: which limit, its count, and when it frees. Nothing was sent to the service. */
export function renderOverLimitReply(input: { over: OverLimit; now: number; threadKind: "issue" | "pull_request" | null }): string {
  const { over } = input;
  // Rounded up to the minute: "14:05" must not be a moment when it is still refused.
  const freesAt = Math.ceil(over.freesAt / 60_000) * 60_000;
  const wait = formatElapsed(Math.max(60_000, freesAt - input.now));
  const key = inlineCode(`limits.${over.limit}: ${over.max}`, { maxLength: 80 });
  return `${renderOverLimitMarker(over.limit)}\n${md`⏸️ I did not start the agent: ${describeCount(over, input.threadKind)}, the limit set by ${key}. The next run can start at ${utcMinute(freesAt) as SafeMarkdown} (in ${wait as SafeMarkdown}). A maintainer can change the limit in \`${CONFIG_PATH as SafeMarkdown}\`.`}`;
}

export type SpendVerdict =
  | { allowed: true }
  | {
      allowed: false;
      over: OverLimit;
      /** For logs. */
      reason: string;
      /** The reply to post, or null when the thread already heard about this limit in this window. */
      reply: string | null;
    };

/** The whole decision a shell makes before calling the service: the limits, then whether the thread hears about it. */
export function judgeSpendLimits(
  input: LimitCheckInput & { earlierReplies: readonly OverLimitReply[]; threadKind: "issue" | "pull_request" | null },
): SpendVerdict {
  const verdict = checkRunLimits(input);
  if (verdict.allowed) return verdict;
  const { over } = verdict;
  const reason = `Over \`limits.${over.limit}\` (${over.count} of ${over.max}); another run can start at ${new Date(over.freesAt).toISOString()}. Nothing was sent to the service.`;
  const due = input.threadKind !== null && overLimitReplyDue({ over, earlierReplies: input.earlierReplies, now: input.now });
  return { allowed: false, over, reason, reply: due ? renderOverLimitReply({ over, now: input.now, threadKind: input.threadKind }) : null };
}

// ---------------------------------------------------------------------------------------------
// Reading the facts from the bot's own comments (for shells without a store: the Action)

const createdAt = (comment: MarkerComment): number | null => {
  const at = comment.created_at ? Date.parse(comment.created_at) : Number.NaN;
  return Number.isFinite(at) ? at : null;
};

/** Where runs are counted: one thread, or a whole repository (`thread` left out). */
export interface StartScope {
  repository: string;
  thread?: number;
}

/**
 * Whether a run marker counts in `scope`: not when it names another thread (or, for a repository's
 * count, another repository). A legacy marker naming none counts: counting one run too many is the
 * safe side of a spend limit.
 */
function startsWithin(marker: RunMarker, scope: StartScope): boolean {
  if (scope.thread !== undefined) return markerPlaceFrom(marker, { repository: scope.repository, thread: scope.thread }) !== "elsewhere";
  return marker.repo === undefined || sameRepository(marker.repo, scope.repository);
}

/**
 * Runs started in `scope`, one per tracking comment the bot wrote: a trusted run marker that names
 * the request which started it (`requestId`; the link comments the Action leaves on pull requests
 * name none). Each comes with its time and whether it was a CI fix.
 */
export function runStartsFromComments(
  comments: readonly MarkerComment[],
  self: BotIdentity,
  scope: StartScope,
): Array<{ at: number; ciFix: boolean }> {
  const starts: Array<{ at: number; ciFix: boolean }> = [];
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self)) continue;
    const marker = parseMarker(comment.body);
    const at = createdAt(comment);
    if (!marker || marker.requestId === undefined || at === null || !startsWithin(marker, scope)) continue;
    starts.push({ at, ciFix: marker.sourceType === SOURCE.gitHostCheckSuite });
  }
  return starts;
}

/** The bot's earlier over-limit replies in the thread at `place` (naming it: a copy or a legacy reply does not silence the next). */
export function overLimitRepliesFromComments(comments: readonly MarkerComment[], self: BotIdentity, place: MarkerPlace): OverLimitReply[] {
  const replies: OverLimitReply[] = [];
  for (const { comment, marker } of listTrustedKindMarkers(comments, "over_limit", self, place)) {
    const at = createdAt(comment);
    if (marker.limit !== undefined && at !== null) replies.push({ limit: marker.limit, at });
  }
  return replies;
}

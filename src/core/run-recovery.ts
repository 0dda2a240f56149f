/**
 * Runs a thread still shows as working that the App's store no longer knows (the store lost its
 * data): which tracking comments say so, what to do with each, how far back to look, and which
 * follow-ups written while such a run worked were held by the store that is gone.
 *
 * Only the bot's own markers count (markers/trust.ts), and only those naming the thread they are in
 * (`"v":2`): a legacy marker's run could be any thread's, and a recovery that acts on it without
 * the service's record would write into the wrong conversation.
 */
import { actsAsPerson, classifyActor, type BridgeSelf } from "./actors.js";
import { parseMarker } from "./markers/read.js";
import type { RunMarker } from "./markers/schema.js";
import { isTrustedAuthor, isTrustedMarkerComment, markerPlaceFrom, type MarkerComment } from "./markers/trust.js";
import { parseTriggerComment, type TriggerGrammar } from "./trigger.js";
import { REPLAY_WINDOW_MS } from "./trigger-age.js";

/** A comment as a repository-wide listing gives it: the trust fields, its thread and its times. */
export interface RecoveryComment extends MarkerComment {
  issueNumber: number;
  /** ISO 8601. */
  created_at: string;
  updated_at: string;
}

/** A tracking comment whose marker says its run is not finished. */
export interface WorkingMarker {
  commentId: number;
  /** The issue or pull request the comment is in (and its marker names). */
  thread: number;
  marker: RunMarker;
  createdAt: number;
  updatedAt: number;
}

/** The bot's own tracking comments in `repository` (`owner/name`) whose marker is not `done`, each naming its own thread. */
export function findWorkingMarkers(
  comments: readonly RecoveryComment[],
  self: Pick<BridgeSelf, "botLogins" | "markerSigner">,
  repository: string,
): WorkingMarker[] {
  const found: WorkingMarker[] = [];
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self)) continue;
    const marker = parseMarker(comment.body);
    if (!marker || marker.state === "done") continue;
    if (markerPlaceFrom(marker, { repository, thread: comment.issueNumber }) !== "here") continue;
    found.push({
      commentId: comment.id,
      thread: comment.issueNumber,
      marker,
      createdAt: Date.parse(comment.created_at),
      updatedAt: Date.parse(comment.updated_at),
    });
  }
  return found;
}

/** What the store says about a working marker's run and thread, read when it is judged. */
export interface WorkingMarkerFacts {
  /** Some task (any state) has the marker's run. */
  storeKnowsRun: boolean;
  /** The thread has an unfinished task (queued, sending, watching, reporting). */
  threadHasUnfinishedTask: boolean;
  /** When the store's data began (StoreEpoch.createdAt). */
  storeEpochAt: number;
  now: number;
  /** How long a marker without a run may say `queued` before it is taken for lost when the store does not know it. */
  queuedGraceMs: number;
}

/**
 * - `adopt`: the run exists and no task watches it: watch it again and post its result once;
 * - `settle_unsent`: a request with no run yet whose task is gone: the thread is told it was lost;
 * - `leave`: the store still knows it (or may be about to: a tracking comment just posted), with why.
 */
export type WorkingMarkerVerdict =
  { kind: "adopt"; runId: number } | { kind: "settle_unsent" } | { kind: "leave"; reason: "known_run" | "thread_busy" | "too_recent" };

export function judgeWorkingMarker(found: WorkingMarker, facts: WorkingMarkerFacts): WorkingMarkerVerdict {
  const runId = found.marker.runId;
  if (runId !== null) return facts.storeKnowsRun ? { kind: "leave", reason: "known_run" } : { kind: "adopt", runId };
  // No run id: the task that posted it may be waiting for budget right now (it knows no run yet).
  if (facts.threadHasUnfinishedTask) return { kind: "leave", reason: "thread_busy" };
  // Written before the store's data began, it cannot be a task of this store; otherwise it must have said "queued" for long.
  const lost = found.createdAt < facts.storeEpochAt || facts.now - found.updatedAt >= facts.queuedGraceMs;
  return lost ? { kind: "settle_unsent" } : { kind: "leave", reason: "too_recent" };
}

/**
 * Comments updated since when are read. After the store came back empty (`fresh`), as far back as a
 * trigger is still acted on (the replay window: a store lost days ago leaves threads working since);
 * otherwise a little more than the longest a run is watched, since a working tracking comment was
 * last written at most that long ago.
 */
export function recoveryLookBack(fresh: boolean, watchTimeoutMs: number): number {
  return fresh ? Math.max(REPLAY_WINDOW_MS, watchTimeoutMs) : watchTimeoutMs + 60 * 60_000;
}

/**
 * The follow-ups a store held behind a run: the people's triggers after its tracking comment (ids
 * oldest first) that nothing of the bot's answered. A held follow-up gets only a 👀; a refusal, a
 * reply or a resume's tracking comment is a bot comment after it, which answers every trigger before.
 */
export function unansweredFollowUps<T extends MarkerComment>(
  comments: readonly T[],
  trackingCommentId: number,
  grammar: TriggerGrammar,
  self: BridgeSelf,
): T[] {
  let waiting: T[] = [];
  for (const comment of [...comments].sort((a, b) => a.id - b.id)) {
    if (comment.id <= trackingCommentId) continue;
    if (isTrustedAuthor(comment, self)) {
      waiting = [];
      continue;
    }
    const login = comment.user?.login;
    if (!login || !actsAsPerson(classifyActor({ login, type: comment.user?.type ?? "User" }, self))) continue;
    if (parseTriggerComment(comment.body, grammar)?.kind === "run") waiting.push(comment);
  }
  return waiting;
}

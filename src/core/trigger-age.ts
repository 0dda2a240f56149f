/**
 * Replayed deliveries: a signed payload captured once (from a log, a proxy, a leaked redelivery)
 * could be sent again under a new delivery id, which dedupe has never seen. The payload itself says
 * when its trigger happened, and the signature covers it: a trigger older than the window in which
 * delivery ids are remembered is ignored, so a replay finds either a remembered id or a stale trigger.
 */
import type { BridgeEvent } from "./events/types.js";

/** How long delivery ids and trigger keys are remembered (the App's dedupe); older triggers are ignored. */
export const REPLAY_WINDOW_MS = 8 * 24 * 60 * 60_000;

export interface StaleTrigger {
  code: "stale_trigger";
  reason: string;
}

/** The newest of the timestamps given (ISO 8601), in ms; null when none parses. */
function newestOf(...stamps: Array<string | null | undefined>): number | null {
  let newest: number | null = null;
  for (const stamp of stamps) {
    const ms = stamp ? Date.parse(stamp) : Number.NaN;
    if (Number.isFinite(ms) && (newest === null || ms > newest)) newest = ms;
  }
  return newest;
}

/**
 * When the thing that asks for the agent happened: a comment written or edited, a review submitted,
 * an issue labelled (its `updated_at`), a check suite or workflow run completed. Null for events
 * that carry no such time (the bridge then does not judge their age).
 */
export function triggerTimeOf(event: BridgeEvent): number | null {
  switch (event.kind) {
    case "issue_comment":
      return newestOf(event.raw.comment.created_at, event.raw.comment.updated_at);
    case "pull_request_review_comment":
      return newestOf(event.raw.comment.created_at, event.raw.comment.updated_at);
    case "pull_request_review":
      return newestOf(event.raw.review.submitted_at);
    case "issues":
      return newestOf(event.raw.issue.created_at, event.raw.issue.updated_at);
    case "pull_request":
      return newestOf(event.raw.pull_request.created_at, event.raw.pull_request.updated_at);
    case "check_suite":
      return newestOf(event.raw.check_suite.updated_at);
    case "workflow_run":
      return newestOf(event.raw.workflow_run.updated_at);
    case "other":
      return null;
  }
}

/** Why a delivery's trigger is too old to act on, or null when it is recent enough (or carries no time). */
export function judgeTriggerAge(event: BridgeEvent, now: number, windowMs: number = REPLAY_WINDOW_MS): StaleTrigger | null {
  const at = triggerTimeOf(event);
  if (at === null || now - at <= windowMs) return null;
  const days = Math.floor((now - at) / (24 * 60 * 60_000));
  return {
    code: "stale_trigger",
    reason:
      `The ${event.name} trigger happened ${days} days ago (${new Date(at).toISOString()}), longer ago than deliveries are remembered ` +
      `(${Math.round(windowMs / (24 * 60 * 60_000))} days): a replayed delivery starts nothing.`,
  };
}

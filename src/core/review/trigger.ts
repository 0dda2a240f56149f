/**
 * Review mode: which runs review a pull request. On a pull request, a trigger comment whose
 * instruction begins with the word `review` (`/agent review`, `/agent review focus on errors`), or
 * an automation with `mode: review`. On an issue that is not a pull request, `/agent review …` is
 * an ordinary run. Everything else (trust, limits, kill switch, stop) is the comment's.
 */
import type { RunTrigger } from "../detect/triggers.js";

export type RunMode = "run" | "review";

/** The word `review` alone, or followed by whitespace or punctuation (not `reviewer`, not `review-bot`). */
const REVIEW_WORD = /^review(?=$|\s|[.:,;!?])/i;

/** True when an instruction asks for a review (the first word is `review`). */
export function asksForReview(instruction: string): boolean {
  return REVIEW_WORD.test(instruction.trimStart());
}

/** Whether the trigger starts a review of its pull request or an ordinary run. */
export function runModeOf(trigger: RunTrigger): RunMode {
  if (trigger.flow === "comment") return trigger.thread.kind === "pull_request" && asksForReview(trigger.instruction) ? "review" : "run";
  if (trigger.flow === "automation")
    return trigger.thread.kind === "pull_request" && trigger.automation.mode === "review" ? "review" : "run";
  return "run";
}

/** What a review task remembers (in its stored request, never sent to the service): the head it reviews and the inline limit. */
export interface ReviewRequest {
  head_sha: string;
  max_comments: number;
}

/** The review a stored request asks for, or null (an ordinary run, or a request stored before review mode). */
export function reviewRequestOf(request: { [key: string]: unknown }): ReviewRequest | null {
  const review = request.review as Partial<ReviewRequest> | undefined;
  if (!review || typeof review !== "object") return null;
  if (typeof review.head_sha !== "string" || !/^[0-9a-f]{40}$/.test(review.head_sha)) return null;
  const max = typeof review.max_comments === "number" && Number.isInteger(review.max_comments) ? review.max_comments : 20;
  return { head_sha: review.head_sha, max_comments: Math.max(0, max) };
}

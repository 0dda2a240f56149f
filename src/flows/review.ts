/**
 * Review mode's last step, shared by the App and the Action: read the run's review, look for one
 * already posted for this run and head (a redelivery, a crash, a restart or a re-run job posts
 * nothing twice), anchor the findings in every page of the pull request's files, and post one
 * `COMMENT` review; when GitHub refuses it (422), once more without inline comments. The caller
 * supplies the I/O (its own door out: redaction, pacing), so no decision here exists twice.
 */
import type { MarkerPlace } from "../core/markers/schema.js";
import { planReview, type PullRequestFile } from "../core/review/anchor.js";
import type { ReviewMarker } from "../core/review/marker.js";
import { parseReviewResult } from "../core/review/parse.js";
import {
  renderReview,
  renderReviewWithoutInline,
  type ReviewDraft,
  type ReviewOutcome,
  type ReviewRenderInput,
} from "../core/review/render.js";
import type { ReviewRequest } from "../core/review/trigger.js";
import type { OutputSanitizeOptions } from "../core/sanitize-output/safe-markdown.js";
import type { PostedReview } from "../github/reviews.js";

/** The reads and the one write a review needs, each through the caller's door. */
interface ReviewIo {
  /** The bot's own review carrying `marker` (this run, this head), or null. */
  findOwnReview(marker: ReviewMarker): Promise<{ id: number; htmlUrl: string } | null>;
  /** Every file of the pull request with its patch. */
  pullRequestFiles(): Promise<PullRequestFile[]>;
  postReview(review: ReviewDraft): Promise<PostedReview>;
}

interface ReviewLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface RunReviewInput {
  asked: ReviewRequest;
  runId: number;
  /** The run's result text (the agent's answer). */
  result: string | null | undefined;
  runUrl: string | null;
  /** The thread the review's marker is bound to. */
  place: MarkerPlace;
  sanitize: OutputSanitizeOptions;
  io: ReviewIo;
  log: ReviewLog;
}

/** What became of the run's review (for the tracking comment's notice). */
export async function postReviewOfRun(input: RunReviewInput): Promise<ReviewOutcome> {
  const { asked, io, log, runId } = input;
  const parsed = parseReviewResult(input.result);
  if (parsed.kind === "unreadable") {
    log.info({ runId, why: parsed.why }, "no review could be read from the run's result");
    return { kind: "unreadable", why: parsed.why };
  }
  const marker: ReviewMarker = { place: input.place, runId, headSha: asked.head_sha };
  const existing = await io.findOwnReview(marker);
  if (existing) {
    log.info({ runId, reviewId: existing.id }, "the review for this run and head was already posted");
    return { kind: "already_posted", htmlUrl: existing.htmlUrl };
  }
  const files = await io.pullRequestFiles();
  const render: ReviewRenderInput = {
    plan: planReview(parsed.review.comments, files, asked.max_comments),
    summary: parsed.review.summary,
    runUrl: input.runUrl,
    marker,
    sanitize: input.sanitize,
  };
  const draft = renderReview(render);
  const listed = parsed.review.comments.length - draft.comments.length;
  const first = await io.postReview(draft);
  if (first.kind === "posted") return { kind: "posted", htmlUrl: first.htmlUrl, inline: draft.comments.length, listed, fallback: false };
  log.warn({ runId, message: first.message }, "GitHub refused the review's inline comments; posting it once more without them");
  const second = await io.postReview(renderReviewWithoutInline(render));
  if (second.kind === "posted")
    return { kind: "posted", htmlUrl: second.htmlUrl, inline: 0, listed: parsed.review.comments.length, fallback: true };
  log.warn({ runId, message: second.message }, "GitHub refused the review without inline comments too");
  return { kind: "rejected", message: second.message };
}

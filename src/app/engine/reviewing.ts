/**
 * Review mode's last step, before the tracking comment's result: read the run's review, look for
 * one already posted for this run and head (a redelivery, a crash or a restart posts nothing
 * twice), anchor the findings in every page of the pull request's files, and post one `COMMENT`
 * review through the writer's door; when GitHub refuses it (422), once more without inline comments.
 */
import { markerPlaceIn } from "../../core/markers/schema.js";
import { planReview } from "../../core/review/anchor.js";
import { parseReviewResult } from "../../core/review/parse.js";
import { renderReview, renderReviewWithoutInline, type ReviewOutcome, type ReviewRenderInput } from "../../core/review/render.js";
import { reviewRequestOf } from "../../core/review/trigger.js";
import { DEFAULT_REPO_CONFIG } from "../../config/schema.js";
import type { AgentRun } from "../../service/wire.js";
import type { Task } from "../store/types.js";
import type { EngineContext } from "./context.js";

/** The review of a finished review run, or null when the task is not one (or the run did not succeed). */
export async function postRunReview(context: EngineContext, task: Task, run: AgentRun, succeeded: boolean): Promise<ReviewOutcome | null> {
  const asked = reviewRequestOf(task.request);
  if (!asked || !succeeded || task.runId === null) return null;
  const { writer, log } = context;
  const parsed = parseReviewResult(run.result);
  if (parsed.kind === "unreadable") {
    log.info({ taskId: task.id, runId: task.runId, why: parsed.why }, "no review could be read from the run's result");
    return { kind: "unreadable", why: parsed.why };
  }
  const marker = { place: markerPlaceIn(task.thread, task.thread.issueNumber), runId: task.runId, headSha: asked.head_sha };
  const existing = await writer.findOwnReview(task.thread, marker);
  if (existing) {
    log.info({ taskId: task.id, runId: task.runId, reviewId: existing.id }, "the review for this run and head was already posted");
    return { kind: "already_posted", htmlUrl: existing.htmlUrl };
  }
  const files = await writer.pullRequestFiles(task.thread);
  const input: ReviewRenderInput = {
    plan: planReview(parsed.review.comments, files, asked.max_comments),
    summary: parsed.review.summary,
    runUrl: run.web_url ?? task.webUrl,
    marker,
    sanitize: {
      triggerPhrase: task.thread.triggerPhrase ?? DEFAULT_REPO_CONFIG.trigger_phrase,
      ...(context.settings.imageHosts ? { imageHosts: context.settings.imageHosts } : {}),
    },
  };
  const draft = renderReview(input);
  const listed = parsed.review.comments.length - draft.comments.length;
  const first = await writer.postReview(task.thread, draft, { priority: "result" });
  if (first.kind === "posted") return { kind: "posted", htmlUrl: first.htmlUrl, inline: draft.comments.length, listed, fallback: false };
  log.warn(
    { taskId: task.id, runId: task.runId, message: first.message },
    "GitHub refused the review's inline comments; posting it once more without them",
  );
  const second = await writer.postReview(task.thread, renderReviewWithoutInline(input), { priority: "result" });
  if (second.kind === "posted")
    return { kind: "posted", htmlUrl: second.htmlUrl, inline: 0, listed: parsed.review.comments.length, fallback: true };
  log.warn({ taskId: task.id, runId: task.runId, message: second.message }, "GitHub refused the review without inline comments too");
  return { kind: "rejected", message: second.message };
}

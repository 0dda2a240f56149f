/**
 * Review mode's last step in the App, before the tracking comment's result: flows/review.ts decides
 * and posts (shared with the Action); here its reads and its one write go through the App's thread
 * writer (paced, redacted, traced). A review run's task posts it, and so does the task watching a run
 * that a `/agent review` reached while it worked (`follow_up: interrupt`): that follow-up has no
 * tracking comment of its own, so the run's carries the link.
 */
import { markerPlaceIn } from "../../core/markers/schema.js";
import type { ReviewOutcome } from "../../core/review/render.js";
import { reviewRequestOf, type ReviewRequest } from "../../core/review/trigger.js";
import { DEFAULT_REPO_CONFIG } from "../../config/schema.js";
import { postReviewOfRun } from "../../flows/review.js";
import type { AgentRun } from "../../service/wire.js";
import type { Task } from "../store/types.js";
import type { EngineContext } from "./context.js";

/**
 * The review a run's end owes: the latest `/agent review` that reached the working agent
 * (`follow_up: interrupt`; the run's result answers it), else the task's own request's.
 */
function askedReview(task: Task): ReviewRequest | null {
  const delivered = task.delivered.findLast((message) => message.review !== undefined);
  return (delivered ? reviewRequestOf({ review: delivered.review }) : null) ?? reviewRequestOf(task.request);
}

/** The review of a finished review run, or null when the task is not one (or the run did not succeed). */
export async function postRunReview(context: EngineContext, task: Task, run: AgentRun, succeeded: boolean): Promise<ReviewOutcome | null> {
  const asked = askedReview(task);
  if (!asked || !succeeded || task.runId === null) return null;
  const { writer, log } = context;
  const thread = task.thread;
  return postReviewOfRun({
    asked,
    runId: task.runId,
    result: run.result,
    runUrl: run.web_url ?? task.webUrl,
    place: markerPlaceIn(thread, thread.issueNumber),
    sanitize: {
      triggerPhrase: thread.triggerPhrase ?? DEFAULT_REPO_CONFIG.trigger_phrase,
      ...(context.settings.imageHosts ? { imageHosts: context.settings.imageHosts } : {}),
    },
    io: {
      findOwnReview: (marker) => writer.findOwnReview(thread, marker),
      pullRequestFiles: () => writer.pullRequestFiles(thread),
      postReview: (draft) => writer.postReview(thread, draft, { priority: "result" }),
    },
    log: {
      info: (fields, message) => log.info({ taskId: task.id, ...fields }, message),
      warn: (fields, message) => log.warn({ taskId: task.id, ...fields }, message),
    },
  });
}

/**
 * A job re-run after it was cancelled mid-create. The earlier attempt posted its tracking comment
 * (marker without a run id) before sending the create; cancelled before it could write the run id
 * in, nobody knows whether the service started a run. The organization's run list, where the
 * service has one, settles it by the delivery id that create carried (`<workflow run>-<attempt>`):
 * found, the run is adopted (watched, reported once, nothing sent again); certainly absent, the
 * create is sent. A service without the list cannot tell: the create is sent, since a re-run is
 * someone asking again, with a warning that the earlier attempt's run may exist too. Either way
 * the earlier tracking comment is reused, so the thread keeps one.
 *
 * An earlier attempt that wrote its run id finished its create: a re-run then starts a new run, as asked.
 */
import { botIdentityOf, listTrustedRunMarkers } from "../../core/markers/trust.js";
import { asMarkerComments, markerPlaceOf, THREAD_COMMENT_SCAN_LIMIT, type PreparedStart } from "../../flows/index.js";
import { listIssueComments } from "../../github/comments.js";
import { findInterruptedRun } from "../../service/reconcile.js";
import type { AgentRun } from "../../service/wire.js";
import type { PostedComment } from "../report.js";
import type { Step } from "./step.js";
import { log } from "../door.js";

export interface EarlierAttempt {
  /** The earlier attempt's tracking comment, to carry on in. */
  comment: PostedComment;
  /** The run its create started, when the run list shows one. */
  run: AgentRun | null;
}

/** For a create in a re-run job (`GITHUB_RUN_ATTEMPT` > 1): what an earlier, interrupted attempt left. */
export async function findEarlierAttempt(
  step: Step,
  prepared: Extract<PreparedStart, { action: "create" }>,
): Promise<EarlierAttempt | null> {
  const { runId: workflowRun, runAttempt } = step.runner;
  const attempt = Number(runAttempt ?? "1");
  if (!workflowRun || !(attempt > 1) || !step.repo || !prepared.thread) return null;

  const { comments } = await listIssueComments(step.octokit, step.repo, prepared.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT });
  const prefix = `actions:${workflowRun}:`;
  const earlierAttemptOf = (requestId: string | undefined) =>
    requestId?.startsWith(prefix) ? Number(requestId.slice(prefix.length)) : Number.NaN;
  // Newest first: the latest interrupted attempt of this workflow run.
  const interrupted = listTrustedRunMarkers(
    asMarkerComments(comments),
    botIdentityOf(step.self),
    markerPlaceOf(step.repo, prepared.thread.number),
  ).find(({ marker }) => marker.runId === null && earlierAttemptOf(marker.requestId) < attempt);
  if (!interrupted) return null;
  const comment = comments.find((c) => c.id === interrupted.commentId)!;
  const earlier = earlierAttemptOf(interrupted.marker.requestId);
  const reused = { id: comment.id, url: comment.htmlUrl };

  const search = await findInterruptedRun(step.client, {
    sentAfter: Date.parse(comment.createdAt),
    match: { delivery_id: `${workflowRun}-${earlier}` },
    deadline: step.deadline,
  });
  switch (search.kind) {
    case "found":
      log.info(
        `Attempt ${earlier} of this workflow run was stopped while starting run ${search.run.id}; this attempt watches that run instead of starting another.`,
      );
      return { comment: reused, run: search.run };
    case "not_found":
      log.info(`Attempt ${earlier} of this workflow run was stopped before its run started; starting it now.`);
      return { comment: reused, run: null };
    case "inconclusive":
    case "unsupported":
      log.warning(
        `Attempt ${earlier} of this workflow run was stopped while starting a run, and the service ${search.kind === "unsupported" ? "does not list runs" : `could not tell (${search.reason})`}: starting one now, so two runs may exist.`,
      );
      return { comment: reused, run: null };
  }
}

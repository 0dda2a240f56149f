/**
 * Finishing: the tracking comment becomes the result (summary, trace, pull requests), the trigger
 * gets 🚀 or 😕, each produced pull request links back to the thread, and the outcome says whether
 * the step fails. A run stopped from the thread is left as the stop job wrote it; a service error
 * replaces the tracking comment with what to do about it.
 */
import { botIdentityOf } from "../../core/markers/trust.js";
import { outcomeForPhase } from "../../core/markers/write.js";
import { reactionForPhase } from "../../core/render/reactions.js";
import { renderDeliveredFollowUp, resultCommentBody } from "../../core/render/result.js";
import { imageHostsFor } from "../../core/sanitize-output/image-hosts.js";
import { renderServiceError, serviceErrorForComment } from "../../core/render/replies.js";
import { renderRunMayHaveStarted } from "../../core/render/unknown-outcome.js";
import type { ReviewOutcome } from "../../core/review/render.js";
import type { SafeMarkdown } from "../../core/sanitize-output/safe-markdown.js";
import { OutcomeUnknownError } from "../../service/errors.js";
import type { AgentRunError } from "../../service/errors.js";
import { classifyRunStatus, type RunPhase } from "../../service/status.js";
import type { AgentRun } from "../../service/wire.js";
import { linkPullRequests } from "../links.js";
import { postActionReview, renderReviewNotice } from "../review.js";
import type { ActionOutcome } from "../report.js";
import { readTraceDigest, type WatchResult } from "../runs.js";
import type { TrackedRun } from "./start.js";
import { errorMessage, fail, logSink, softFailure, type Step, type StepResult } from "./step.js";
import { log } from "../door.js";

/** A step that ends while the run goes on: the run as last seen, and the step succeeds. */
function leftRunning(step: Step, tracked: TrackedRun, run: AgentRun, watch: "started" | "stopped", endedAt: number): StepResult {
  return {
    outcome: {
      kind: "run",
      run,
      resumed: tracked.start.resumed,
      watch,
      phase: classifyRunStatus(run.status),
      comment: tracked.thread.comment,
      startedAt: step.startedAt,
      endedAt,
    },
    failure: null,
  };
}

/** `wait: false`: the run is started, the step ends. */
export function startedOnly(step: Step, tracked: TrackedRun, run: AgentRun): StepResult {
  return leftRunning(step, tracked, run, "started", step.now());
}

/** The stop job wrote this thread's last word on the run: nothing more is written here. */
export function stoppedFromThread(step: Step, tracked: TrackedRun, run: AgentRun, endedAt: number): StepResult {
  log.notice(
    `Agent run ${run.id} was stopped from the thread; this step stopped watching it. The service has no cancel call: ${run.web_url ?? "stop it on its page"}.`,
    { title: "Agent stopped" },
  );
  return leftRunning(step, tracked, run, "stopped", endedAt);
}

export async function finishRun(step: Step, tracked: TrackedRun, watched: WatchResult, endedAt: number): Promise<StepResult> {
  const { inputs } = step;
  const { thread, start } = tracked;
  const run = watched.run;
  const triggerPhrase = tracked.config.trigger_phrase;
  const phase: RunPhase = watched.timedOut ? "in_progress" : watched.phase;
  const delivered = tracked.delivered;
  const notice = await reviewNotice(step, tracked, run, phase);
  if (delivered) {
    // The step that started the run writes its result and links its pull requests: this one closes the follow-up's loop.
    await thread.track(() =>
      renderDeliveredFollowUp({
        marker: tracked.marker,
        run,
        phase,
        firstLine: delivered.firstLine,
        startedAt: step.startedAt,
        finishedAt: endedAt,
        ...(notice ? { notice } : {}),
      }),
    );
  } else {
    const trace = thread.enabled ? await readTraceDigest(step.client, run.id, { deadline: endedAt + 60_000, triggerPhrase }) : null;
    const imageHosts = imageHostsFor(step.runner.server);
    await thread.track(() =>
      resultCommentBody({
        marker: tracked.marker,
        run,
        phase,
        startedAt: step.startedAt,
        finishedAt: endedAt,
        trace,
        triggerPhrase,
        imageHosts,
        ...(notice ? { notice } : {}),
      }),
    );
  }
  await thread.react(start.reaction, reactionForPhase(phase));
  if (!delivered && thread.enabled && step.repo && (run.git_host_pull_requests ?? []).length > 0) {
    await linkPullRequests(step.octokit, step.repo, {
      run,
      orgId: inputs.orgId,
      sourceType: tracked.marker.sourceType,
      outcome: outcomeForPhase(phase),
      triggerPhrase,
      self: botIdentityOf(step.self),
      log: logSink,
      skipThread: thread.number,
    });
  }

  const outcome: ActionOutcome = {
    kind: "run",
    run,
    resumed: start.resumed,
    watch: watched.timedOut ? "timed_out" : "finished",
    phase,
    comment: thread.comment,
    startedAt: step.startedAt,
    endedAt,
  };
  const link = run.web_url ? `: ${run.web_url}` : "";
  if (watched.timedOut) {
    return {
      outcome,
      failure: softFailure(
        step,
        `Agent run ${run.id} is still ${run.status ?? "running"} after ${inputs.timeoutMinutes} minute(s) (timeout-minutes); it keeps going${link}`,
      ),
    };
  }
  if (phase === "failed")
    return { outcome, failure: softFailure(step, `Agent run ${run.id} failed (status ${run.status ?? "none"})${link}`) };
  if (phase === "stopped")
    return {
      outcome,
      failure: softFailure(step, `Agent run ${run.id} was stopped before it finished (status ${run.status ?? "none"})${link}`),
    };
  if (phase === "waiting_for_input")
    log.notice(`Agent run ${run.id} is waiting for input${link}. Reply with \`${triggerPhrase} <answer>\` to continue it.`);
  return { outcome, failure: null };
}

/**
 * Review mode: the run's one pull-request review, posted when the run succeeded; the line the
 * tracking comment gets about it (null: not a review run). The review code is part of the step's end (step-end.ts).
 */
async function reviewNotice(step: Step, tracked: TrackedRun, run: AgentRun, phase: RunPhase): Promise<SafeMarkdown | null> {
  const asked = tracked.start.review;
  const pullNumber = tracked.thread.number;
  if (!asked || phase !== "succeeded" || !step.repo || pullNumber === null) return null;
  let outcome: ReviewOutcome;
  try {
    outcome = await postActionReview(step, {
      asked,
      run,
      repo: step.repo,
      pullNumber,
      triggerPhrase: tracked.config.trigger_phrase,
      imageHosts: imageHostsFor(step.runner.server),
    });
  } catch (error) {
    // The run's result still goes to the thread: a review that could not be posted is said there.
    log.warning(`Could not post the review of agent run ${run.id}: ${errorMessage(error)}`);
    outcome = { kind: "rejected", message: errorMessage(error) };
  }
  if (outcome.kind === "posted" || outcome.kind === "already_posted") log.info(`Review of agent run ${run.id}: ${outcome.htmlUrl}`);
  else if (outcome.kind === "unreadable")
    log.notice(`No review could be read from agent run ${run.id}'s result (${outcome.why}); it is posted as an ordinary result.`, {
      title: "No review",
    });
  return renderReviewNotice(outcome);
}

/** The service refused or failed: the tracking comment says what happened and what to do, the token never in it. */
export async function reportServiceError(step: Step, tracked: TrackedRun, error: AgentRunError): Promise<StepResult> {
  // A create whose answer was lost and that the runs list could not settle: the agent may be working.
  const body =
    error instanceof OutcomeUnknownError
      ? renderRunMayHaveStarted({
          what: error.what,
          why: error.reason,
          sentAt: error.sentAt,
          orgId: step.inputs.orgId,
          match: error.match,
          lookAt: step.inputs.runsUrl ?? null,
          triggerPhrase: tracked.triggerPhrase,
        })
      : renderServiceError(serviceErrorForComment(error));
  await tracked.thread.track(() => body);
  return fail(step, errorMessage(error), tracked.run, tracked.thread.comment, tracked.start.resumed);
}

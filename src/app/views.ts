import { DEFAULT_REPO_CONFIG } from "../config/schema.js";
import { newRunMarker } from "../core/markers/write.js";
import { markerPlaceOf } from "../flows/facts.js";
import type { RunMarker } from "../core/markers/schema.js";
import type { CommentBody } from "../core/render/fit.js";
import { resultCommentBody } from "../core/render/result.js";
import type { ImageHosts } from "../core/sanitize-output/image-hosts.js";
import { renderServiceError, serviceErrorForComment } from "../core/render/replies.js";
import { renderRunMayHaveStarted } from "../core/render/unknown-outcome.js";
import { bridgeMatchOf } from "../service/create-once.js";
import { renderTrackingComment, type TrackingPhase } from "../core/render/tracking.js";
import type { SafeMarkdown } from "../core/sanitize-output/safe-markdown.js";
import type { RunPhase } from "../service/status.js";
import type { AgentRun } from "../service/wire.js";
import type { Task } from "./store/types.js";

/** Glue between a stored task and the pure renderers of core/render. */

/** The id a task's tracking comment carries in its marker, so a step cut off by a crash finds what it posted. */
export function trackingRequestId(task: Pick<Task, "id">): string {
  return `task-${task.id}`;
}

/** The automation a create was started by (its request's `metadata.automation`), if any. */
export function automationOf(task: Pick<Task, "request">): string | undefined {
  const metadata = task.request.metadata;
  const name = metadata !== null && typeof metadata === "object" ? (metadata as Record<string, unknown>).automation : undefined;
  return typeof name === "string" ? name : undefined;
}

function markerOf(task: Task): RunMarker {
  const automation = automationOf(task);
  return newRunMarker({
    place: markerPlaceOf({ owner: task.thread.owner, repo: task.thread.repo }, task.thread.issueNumber),
    ...(automation !== undefined ? { automation } : {}),
    runId: task.runId,
    orgId: task.orgId,
    sourceType: task.sourceType,
    state: task.runId === null || task.state === "queued" || task.state === "held" ? "queued" : "running",
    requestId: trackingRequestId(task),
  });
}

export function renderTaskTracking(
  task: Task,
  view: { phase: TrackingPhase; heldFollowUps: number; now: number; queuePosition?: number },
): string {
  return renderTrackingComment({
    marker: markerOf(task),
    webUrl: task.webUrl,
    phase: view.phase,
    ...(view.queuePosition !== undefined ? { queuePosition: view.queuePosition } : {}),
    currentStep: task.progress.currentStep as SafeMarkdown | null,
    startedAt: task.startedAt ?? task.createdAt,
    now: view.now,
    followUps: view.heldFollowUps,
    sourceType: task.sourceType,
    orgDefaultRepository: task.kind === "create" && task.request.repo_id == null,
    interrupts: { delivered: task.delivered, refused: task.interruptsRefused },
  });
}

/** `timed_out`: the watch gave up while the run was still going. A rendering the writer fits after redacting it. */
export function renderTaskResult(
  task: Task,
  run: AgentRun,
  phase: RunPhase | "timed_out",
  now: number,
  extras: { imageHosts?: ImageHosts | undefined; notice?: SafeMarkdown } = {},
): CommentBody {
  const { imageHosts, notice } = extras;
  return resultCommentBody({
    marker: markerOf(task),
    run: { ...run, web_url: run.web_url ?? task.webUrl },
    phase: phase === "timed_out" ? "in_progress" : phase,
    startedAt: task.startedAt ?? task.createdAt,
    finishedAt: now,
    trace: {
      errors: task.progress.errors,
      lastSteps: task.progress.lastSteps as SafeMarkdown[],
      finalAnswer: task.progress.finalAnswer,
      totalEntries: task.progress.logsSeen,
    },
    triggerPhrase: task.thread.triggerPhrase ?? DEFAULT_REPO_CONFIG.trigger_phrase,
    ...(imageHosts ? { imageHosts } : {}),
    ...(notice ? { notice } : {}),
  });
}

export function renderTaskFailedToStart(_task: Task, error: unknown): string {
  return renderServiceError(serviceErrorForComment(error));
}

export function renderTaskAbandoned(task: Task, why: string): string {
  const when = new Date(task.updatedAt).toISOString();
  return renderServiceError({
    message: why,
    whatToDo: `Look on the Agent Run Service for a run started around ${when}; if there is none, trigger the agent again.`,
  });
}

/** A request given up before anything reached the service: nothing to look for there, only to ask again. */
export function renderTaskNeverSent(why: string): string {
  return renderServiceError({
    message: why,
    whatToDo: "Nothing was sent to the Agent Run Service. Ask again in a new comment; if it keeps failing, tell whoever runs the bridge.",
  });
}

/** Sent, and the runs list shows no run came of it: saying so is true, and asking again is safe. */
export function renderTaskNotMade(why: string): string {
  return renderServiceError({
    message: why,
    whatToDo:
      "The Agent Run Service's list of runs shows that no run was made. Ask again in a new comment; if it keeps failing, tell whoever runs the bridge.",
  });
}

/** A create that may have made a run nobody can confirm: where to look and how to go on (core/render/unknown-outcome.ts). */
export function renderTaskMayHaveStarted(
  task: Task,
  outcome: { what: string; why: string; sentAt: number },
  runsUrl: string | null = null,
): string {
  return renderRunMayHaveStarted({
    ...outcome,
    lookAt: runsUrl,
    orgId: task.orgId,
    match: bridgeMatchOf({ metadata: task.request.metadata as Record<string, unknown> | undefined }),
    triggerPhrase: task.thread.triggerPhrase ?? DEFAULT_REPO_CONFIG.trigger_phrase,
  });
}

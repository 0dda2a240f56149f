/**
 * Sending a task's create or resume within the service's rate budget, and starting to watch the run
 * it answers with; and, after a crash between sending and storing the answer, finding out whether the
 * call reached the service instead of repeating it blindly.
 */
import { withBridgeTaskId } from "../../core/metadata.js";
import { CREATE_ONCE_DEFAULTS } from "../../service/create-once.js";
import { answerLost, lostAnswerInWords } from "../../service/errors.js";
import { findInterruptedRun } from "../../service/reconcile.js";
import { classifyRunStatus, isFinalPhase } from "../../service/status.js";
import type { AgentRun, CreateRunRequest } from "../../service/wire.js";
import type { JobOutcome } from "../queue/types.js";
import type { Task } from "../store/types.js";
import { DONE, TAKE_AGAIN, transition, type EngineContext } from "./context.js";
import type { Reporter } from "./reporting.js";
import type { ThreadOutput } from "./thread-output.js";
import { annotateSpan } from "../ops/tracing.js";

/**
 * Creates that may wait for the service's budget inside a step (a minute's worth at 10 per minute).
 * Past that a create waits in the queue instead of in a worker slot, so that new triggers are still
 * acknowledged while a burst of creates is paced out by the service's limit.
 */
const CREATES_WAITING_IN_STEPS = 10;

/** What a task's create carries in `metadata.bridge_task_id` (see recoverInterruptedSend). */
function bridgeTaskId(task: Pick<Task, "id">): string {
  return `task-${task.id}`;
}

/**
 * A create whose answer was lost keeps its task in `sending` with `error` set to this prefix, the
 * number of answers lost so far and what became of the last one: the step that reconciles it (after
 * CREATE_ONCE_DEFAULTS.settleMs, scaled) tells a lost answer from a crash, and stops sending again after
 * MAX_LOST_ANSWERS. No column of its own: the field is free while a task is being sent.
 */
const LOST_ANSWER_PREFIX = "answer lost ";
const MAX_LOST_ANSWERS = 3;

/** How many answers to this task's create were lost, and what became of the last one; null after a crash. */
export function lostAnswerOf(task: Pick<Task, "state" | "error">): { count: number; what: string } | null {
  const match = task.state === "sending" ? /^answer lost (\d+): (.*)$/s.exec(task.error ?? "") : null;
  return match ? { count: Number(match[1]), what: match[2]! } : null;
}

/** The service answered the call with a run, or the step ends without one (with this outcome). */
type CallResult = { kind: "answered"; task: Task; run: AgentRun } | { kind: "unanswered"; outcome: JobOutcome };

export class Sender {
  /** Create steps of this process waiting for the service's budget (at most CREATES_WAITING_IN_STEPS). */
  private createsWaiting = 0;

  constructor(
    private readonly context: EngineContext,
    private readonly output: ThreadOutput,
    private readonly reporter: Reporter,
  ) {}

  /** A queued task: its create or resume goes out (or waits its turn), then its run is watched. */
  async send(task: Task): Promise<JobOutcome> {
    if (task.state !== "queued") return DONE;
    if (task.kind === "create" && this.createsWaiting >= CREATES_WAITING_IN_STEPS) {
      // One create frees a place about every 6 s (10 per minute): look again then.
      return { kind: "later", delayMs: Math.max(20, 6_000 * this.context.settings.scale) };
    }
    const call = await this.call(task);
    if (call.kind === "unanswered") return call.outcome;
    return this.watchStartedRun(call.task, call.run);
  }

  /**
   * The process stopped between handing the call to the client and storing its answer, so the call
   * may or may not have reached the service; it is never repeated blindly (a duplicate run costs
   * money). A create is looked for in the organization's recent runs by the task id it carried: found,
   * the run is adopted (watched, its result posted once); certainly absent, it is sent again. A resume
   * took if its run is working again. Anything else, or a service without the runs list, is reported
   * honestly in the thread.
   */
  async recoverInterruptedSend(task: Task): Promise<JobOutcome> {
    const { client, signal } = this.context;
    const sentAfter = task.sentAt ?? task.updatedAt;
    if (task.kind === "create") {
      // The task id alone could repeat across deployments sharing an organization; the delivery id cannot.
      const deliveryId = (task.request.metadata as Record<string, unknown> | undefined)?.delivery_id;
      const match = { bridge_task_id: bridgeTaskId(task), ...(typeof deliveryId === "string" ? { delivery_id: deliveryId } : {}) };
      const lost = lostAnswerOf(task);
      const search = await findInterruptedRun(client, { sentAfter, match, signal });
      if (search.kind === "found") return this.adopt(task, search.run, "found among the organization's runs");
      if (search.kind === "not_found") {
        if (lost && lost.count >= MAX_LOST_ANSWERS) {
          await this.reporter.abandon(task, `the Agent Run Service gave no usable answer ${lost.count} times (${lost.what}).`, "not_made");
          return DONE;
        }
        this.context.log.warn({ taskId: task.id, lostAnswers: lost?.count ?? 0 }, "the create never made a run; sending it again");
        const queued = await transition(this.context, task, ["sending"], { state: "queued", sentAt: null });
        return queued ? this.send(queued) : DONE;
      }
      await this.reporter.outcomeUnknown(
        task,
        lost?.what ?? "the bridge restarted before the answer was stored",
        search.kind === "unsupported" ? "the service does not list runs" : `its list of runs could not tell (${search.reason})`,
      );
      return DONE;
    }
    if (task.runId !== null) {
      const run = await client.getRun(task.runId, { signal }).catch(() => null);
      const phase = classifyRunStatus(run?.status);
      // A resume is only sent to a run that had finished: working again means the resume took.
      if (run && (phase === "in_progress" || phase === "unknown")) return this.adopt(task, run, "its run is working again");
    }
    await this.reporter.abandon(
      task,
      "The bridge restarted while this follow-up was being sent, so whether the run received it is unknown.",
    );
    return DONE;
  }

  /**
   * The create or resume, sent once the service's budget allows. The task is marked `sending` right
   * before the call goes on the wire, so that a crash from there on is recovered, never resent.
   */
  private async call(task: Task): Promise<CallResult> {
    const stopWaiting = this.countWaitingCreate(task);
    try {
      task = await this.carryTaskId(task);
      const beforeSend = async () => {
        stopWaiting();
        task = await this.context.store.updateTask(task.id, { state: "sending", sentAt: this.context.now() });
      };
      try {
        const run = await this.request(task, beforeSend);
        return { kind: "answered", task, run };
      } catch (error) {
        // Shutting down while waiting for budget (still queued) or mid-call (sending: the next step tells the thread).
        if (this.context.signal.aborted) return { kind: "unanswered", outcome: TAKE_AGAIN };
        if (task.kind === "create" && task.state === "sending" && answerLost(error)) return this.answerLost(task, error);
        await this.reporter.failToStart(task, error);
        return { kind: "unanswered", outcome: DONE };
      }
    } finally {
      stopWaiting();
    }
  }

  /**
   * The create went out and its answer was lost: the service may have made the run. The task stays
   * `sending`, so its next step (recoverInterruptedSend) looks for the run in the runs list after a
   * pause, adopts it or sends again only if it is certainly absent; never "could not run" now.
   */
  private async answerLost(task: Task, error: unknown): Promise<CallResult> {
    const count = (lostAnswerOf(task)?.count ?? 0) + 1;
    this.context.log.warn(
      { taskId: task.id, err: error, lostAnswers: count },
      "the answer to a create was lost; looking for its run before anything else",
    );
    await this.context.store.updateTask(task.id, { error: `${LOST_ANSWER_PREFIX}${count}: ${lostAnswerInWords(error)}` });
    return {
      kind: "unanswered",
      outcome: { kind: "later", delayMs: Math.max(20, CREATE_ONCE_DEFAULTS.settleMs * this.context.settings.scale) },
    };
  }

  /** Counts a create step from now until its call goes out (or fails); returns what ends the count, once. */
  private countWaitingCreate(task: Task): () => void {
    let waiting = task.kind === "create";
    if (waiting) this.createsWaiting += 1;
    return () => {
      if (waiting) this.createsWaiting -= 1;
      waiting = false;
    };
  }

  /** The task's own id travels with the create, so a crash mid-call can be reconciled by listing runs. */
  private async carryTaskId(task: Task): Promise<Task> {
    const metadata = task.request.metadata as Record<string, unknown> | undefined;
    if (task.kind !== "create" || metadata?.bridge_task_id !== undefined) return task;
    return this.context.store.updateTask(task.id, {
      request: { ...task.request, metadata: withBridgeTaskId(metadata ?? {}, bridgeTaskId(task)) },
    });
  }

  private async request(task: Task, beforeSend: () => Promise<void>): Promise<AgentRun> {
    const options = { signal: this.context.signal, beforeSend };
    if (task.kind === "create") {
      // `review` is the bridge's own note for the report (core/review/trigger.ts), not part of the create.
      const { review: _review, ...request } = task.request;
      return this.context.client.createRun(request as CreateRunRequest, options);
    }
    if (task.runId === null) throw new Error(`resume task ${task.id} has no run id`);
    return this.context.client.resumeRun(task.runId, task.request.prompt, options);
  }

  /** The service answered with a run: watch it from now, or only record it when a stop came first. */
  private async watchStartedRun(task: Task, run: AgentRun): Promise<JobOutcome> {
    const { store, log, observer, settings } = this.context;
    annotateSpan({ "bridge.run.id": run.id });
    const watched = await this.startWatching(task, run, null, settings.poll.initial);
    if (watched === null) {
      // Stopped (`/agent stop`) while the call was in flight: keep the run's id for the record, watch nothing.
      await store.updateTask(task.id, { runId: run.id, webUrl: run.web_url ?? null });
      observer.runStarted({ ...task, runId: run.id });
      return DONE;
    }
    log.info({ taskId: watched.id, runId: run.id, kind: watched.kind }, "agent run started");
    observer.runStarted(watched);
    // The run's link is what the person waits for next: as urgent as a result.
    await this.output.editTracking(watched, "result");
    // A finished answer straight away (unlikely, but allowed by the spec) is reported like any other.
    if (isFinalPhase(classifyRunStatus(run.status))) return this.reporter.finish(watched, run);
    return { kind: "later", delayMs: settings.poll.initial };
  }

  /** A run found after a crash is watched like one just started; its first poll is at once. */
  private async adopt(task: Task, run: AgentRun, why: string): Promise<JobOutcome> {
    const watched = await this.startWatching(task, run, task.sentAt, 0);
    if (!watched) return DONE;
    this.context.log.info({ taskId: task.id, runId: run.id, why }, "an interrupted call's run was adopted");
    this.context.observer.runStarted(watched);
    await this.output.editTracking(watched, "result");
    return { kind: "later", delayMs: 0 };
  }

  /**
   * A sending task moves to watching its run, unless a stop ended it meanwhile (null). `startedAt`
   * is when the call went out (null: now); the first poll comes `firstPollInMs` from now.
   */
  private startWatching(task: Task, run: AgentRun, startedAt: number | null, firstPollInMs: number): Promise<Task | null> {
    const { settings } = this.context;
    const now = this.context.now();
    return transition(this.context, task, ["sending"], {
      state: "watching",
      // A lost answer's note ends with the run found or answered.
      error: null,
      runId: run.id,
      startedAt: startedAt ?? now,
      lastStatus: run.status ?? null,
      webUrl: run.web_url ?? null,
      nextPollAt: now + firstPollInMs,
      pollIntervalMs: settings.poll.initial,
      deadlineAt: now + settings.watchTimeoutMs,
    });
  }
}

import { setMaxListeners } from "node:events";
import { GitHubInputError, GitHubNotFoundError, GitHubPermissionError, GitHubValidationError } from "../github/errors.js";
import { withBridgeTaskId } from "../core/metadata.js";
import { reactionForPhase, type ReactionContent } from "../core/render/reactions.js";
import type { AgentRunClient } from "../service/client.js";
import { findInterruptedRun } from "../service/reconcile.js";
import { AgentRunError, NotFoundError, PermissionError } from "../service/errors.js";
import { SlidingWindowLog } from "../service/sliding-window.js";
import { classifyRunStatus, isFinalPhase, type RunPhase } from "../service/status.js";
import { RATE_LIMITS, type AgentRun, type CreateRunRequest, type LogEntry } from "../service/wire.js";
import type { ThreadLocks } from "./locks.js";
import type { EngineObserver } from "./ops/metrics.js";
import { foldProgress } from "./progress.js";
import { taskJobId, type JobOutcome, type WorkQueue } from "./queue/types.js";
import type { BridgeStore, NewTask, Task, TaskPatch, ThreadId } from "./store/types.js";
import { commentSupersedeKey, type ThreadWriter, type WritePriority } from "./thread-writer.js";
import { renderTaskAbandoned, renderTaskFailedToStart, renderTaskNeverSent, renderTaskResult, renderTaskTracking, trackingRequestId } from "./views.js";

export interface EngineLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunEngineOptions {
  store: BridgeStore;
  client: AgentRunClient;
  /** Every GitHub write, paced per installation by priority. */
  writer: ThreadWriter;
  queue: WorkQueue;
  locks: ThreadLocks;
  logger?: EngineLogger;
  /** Scales poll and edit intervals (1 = real time); the emulator's and the budget's factor. */
  timeScale?: number;
  /** Per-run poll interval: starts short, grows to a cap (ms, before scaling). */
  pollIntervalMs?: { initial?: number; max?: number; factor?: number };
  /**
   * Share of the token's shared read budget that polling may use: `busy` while creates or resumes
   * wait (leaving them room), `idle` otherwise. With many runs in flight each is polled less often.
   */
  pollBudgetShare?: { busy?: number; idle?: number };
  /** Minimum time between two progress edits of one tracking comment (ms, before scaling). */
  progressEditIntervalMs?: number;
  /** Progress edits across all threads per minute, per process (results and acknowledgements are never skipped). */
  progressEditsPerMinute?: number;
  /** A run still going after this long is reported as such and no longer watched (ms, real time). */
  watchTimeoutMs?: number;
  now?: () => number;
  /** Told of acknowledgements, starts and ends (the metrics). */
  observer?: EngineObserver;
}

/** The watch deadline, in one place: a run still going after this long is reported as still going. */
export const DEFAULT_WATCH_TIMEOUT_MS = 4 * 60 * 60_000;

/** A body without its elapsed-time counter: "working · 3s so far" and "· 4s so far" read the same. */
function visibleText(body: string): string {
  return body.replace(/·\s*[\dhdms ]+ so far/g, "");
}

/** What a task's create carries in `metadata.bridge_task_id` (see recoverInterruptedSend). */
function bridgeTaskId(task: Pick<Task, "id">): string {
  return `task-${task.id}`;
}

/** The lock every decision about one conversation takes (see locks.ts). */
export function threadLockKey(thread: ThreadId): string {
  return `thread:${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}#${thread.issueNumber}`;
}

/** GitHub will never accept this write (no permission, locked or deleted thread, invalid body): go on without it. */
function isPermanentGitHubError(error: unknown): boolean {
  return error instanceof GitHubPermissionError || error instanceof GitHubNotFoundError || error instanceof GitHubValidationError || error instanceof GitHubInputError;
}

/** Reviews take no reactions: their first acknowledgement is the tracking comment. */
/**
 * How long the 👀 on a trigger may wait for its installation's turn: about the time its tracking
 * comment takes when writes are idle. Longer, and the tracking comment says more than it would.
 */
const COURTESY_WAIT_MS = 3_000;

const noopLogger: EngineLogger = { info() {}, warn() {}, error() {} };
const noopObserver: EngineObserver = { acknowledged() {}, runStarted() {}, runFinished() {} };
const DONE: JobOutcome = { kind: "done" };
/**
 * Creates that may wait for the service's budget inside a step (a minute's worth at 10 per minute).
 * Past that a create waits in the queue instead of in a worker slot, so that new triggers are still
 * acknowledged while a burst of creates is paced out by the service's limit.
 */
const CREATES_WAITING_IN_STEPS = 10;
/** Shutting down mid-step: the job stays queued, so the next process (or another replica) takes the step again. */
const TAKE_AGAIN: JobOutcome = { kind: "later", delayMs: 0 };

/**
 * Drives every task from queued to done, one queue job per task: acknowledges it in the thread (👀
 * and the tracking comment), sends the create or resume within the rate budget, polls the run to a
 * final state, keeps the tracking comment current, posts the result once, then releases the
 * follow-ups held for the run. All state lives in the store and the queue, so any replica can take
 * any step, and a step cut off by a crash is taken again where it stopped.
 */
export class RunEngine {
  private readonly store: BridgeStore;
  private readonly client: AgentRunClient;
  private readonly writer: ThreadWriter;
  private readonly queue: WorkQueue;
  private readonly locks: ThreadLocks;
  private readonly log: EngineLogger;
  private readonly observer: EngineObserver;
  private readonly poll: { initial: number; max: number; factor: number };
  private readonly pollShare: { busy: number; idle: number };
  private readonly editIntervalMs: number;
  private readonly courtesyWaitMs: number;
  private readonly editWindow: SlidingWindowLog;
  private readonly scale: number;
  /** Create steps of this process waiting for the service's budget (at most CREATES_WAITING_IN_STEPS). */
  private createsWaiting = 0;
  readonly watchTimeoutMs: number;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  private logsUnavailable = false;
  /** Last progress text written per task and the follow-ups it showed (per process: another replica just edits once more). */
  private readonly shown = new Map<number, { body: string; held: number }>();

  constructor(options: RunEngineOptions) {
    // Every call in flight listens to the shutdown signal: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.abort.signal);
    this.store = options.store;
    this.client = options.client;
    this.writer = options.writer;
    this.queue = options.queue;
    this.locks = options.locks;
    this.log = options.logger ?? noopLogger;
    this.observer = options.observer ?? noopObserver;
    this.scale = options.timeScale ?? 1;
    this.poll = {
      initial: (options.pollIntervalMs?.initial ?? 2_000) * this.scale,
      max: (options.pollIntervalMs?.max ?? 30_000) * this.scale,
      factor: options.pollIntervalMs?.factor ?? 1.5,
    };
    this.pollShare = { busy: options.pollBudgetShare?.busy ?? 0.75, idle: options.pollBudgetShare?.idle ?? 0.95 };
    this.editIntervalMs = (options.progressEditIntervalMs ?? 15_000) * this.scale;
    // Never less than a second of real time: on a busy machine a write's own turn takes that long.
    this.courtesyWaitMs = Math.max(COURTESY_WAIT_MS * this.scale, 1_000);
    this.editWindow = new SlidingWindowLog(options.progressEditsPerMinute ?? 30, 60_000 * this.scale);
    this.watchTimeoutMs = options.watchTimeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  /** Stops waiting for rate budget and lets steps in flight end early; the queue keeps their jobs. */
  stop(): void {
    this.abort.abort("the bridge is shutting down");
  }

  /**
   * Stores a new task (queued, or held behind a run in progress) and queues its first step. Callers
   * hold the thread's lock, so the decision that led here and the insert are one step for the thread.
   */
  async submit(task: Omit<NewTask, "deadlineAt">): Promise<Task> {
    let inserted = await this.store.insertTask({ ...task, deadlineAt: this.now() + this.watchTimeoutMs });
    const knownPage = inserted.runId !== null ? await this.store.lastWebUrlForRun(inserted.runId) : null;
    if (knownPage) inserted = await this.store.updateTask(inserted.id, { webUrl: knownPage });
    await this.queue.add({ id: taskJobId(inserted.id), name: "task", data: { taskId: inserted.id } });
    return inserted;
  }

  /** Runs a task's next step now (e.g. to show a new follow-up on its tracking comment). */
  async nudge(taskId: number): Promise<void> {
    await this.queue.promote(taskJobId(taskId));
  }

  /** One step of one task; `later` when it has to be looked at again (the next poll). */
  async processTask(taskId: number): Promise<JobOutcome> {
    const task = await this.store.getTask(taskId);
    if (!task) return DONE;
    if (this.abort.signal.aborted) return TAKE_AGAIN;
    switch (task.state) {
      case "held":
        return this.acknowledgeHeld(task);
      case "queued":
        return this.send(await this.acknowledge(task));
      case "sending":
        return this.recoverInterruptedSend(task);
      case "watching":
        return this.pollOnce(task);
      case "reporting":
        return this.report(task);
      default:
        // Ended elsewhere (a stop, another replica's report): forget what this process showed of it.
        this.shown.delete(task.id);
        return DONE;
    }
  }

  /** The step failed again and again (GitHub or the service down for many minutes): end the task with one word in the thread. */
  async onTaskFailed(taskId: number, error: unknown): Promise<void> {
    const task = await this.store.getTask(taskId);
    if (!task || task.state === "done" || task.state === "abandoned") return;
    this.log.error({ taskId, err: error }, "task step failed too often; giving up on it");
    if (task.state === "watching" || task.state === "reporting") {
      // The run exists: say it is still going (or finished) with its link rather than lose it.
      const run = (task.finalRun ?? { id: task.runId }) as AgentRun;
      const updated = await this.store.updateTask(task.id, { state: "reporting", finalRun: run as Record<string, unknown>, watchTimedOut: task.finalRun === null });
      await this.report(updated).catch((reportError: unknown) => this.log.error({ taskId, err: reportError }, "could not report the run either"));
      return;
    }
    const why = `The bridge could not handle this request (${error instanceof Error ? error.message : String(error)}).`;
    // Never sent: there is no run to look for, only a request to make again.
    await this.abandon(task, why, task.state === "queued" || task.state === "held" ? "never_sent" : "may_have_started");
  }

  // ---- acknowledging ----------------------------------------------------------------------

  /**
   * 👀 on the trigger and the tracking comment, exactly once even when a crash cut the last try short.
   * The 👀 is a courtesy: it goes first when the installation's writes are idle, but in a burst it
   * waits behind every thread's tracking comment and is dropped once stale, so that each thread
   * costs its installation one write before it is acknowledged, not two.
   */
  private async acknowledge(task: Task): Promise<Task> {
    if (task.trackingCommentId !== null) return task;
    let commentId: number | null = null;
    let noted = false;
    const noteOnce = (acknowledged: Task) => {
      if (noted) return;
      noted = true;
      this.noteAcknowledged(acknowledged);
    };
    let eyes: Promise<unknown> = Promise.resolve();
    if (task.acknowledgedAt !== null) {
      // A previous try may have posted the comment before it could store its id: find it by its marker.
      commentId = await this.writer.findOwnComment(task.thread, trackingRequestId(task));
    } else {
      task = await this.store.updateTask(task.id, { acknowledgedAt: this.now() });
      const seen = task;
      eyes = this.react(task, reactionForPhase("triggered"), "courtesy").then((shown) => shown && noteOnce(seen));
    }
    if (commentId === null) {
      const counts = await this.store.countByState();
      const waitsForBudget = task.kind === "create" && this.client.budget.busy("create");
      const phase = task.kind === "resume" ? "resuming" : waitsForBudget ? "queued" : "starting";
      const held = await this.heldCount(task);
      const body = renderTaskTracking(task, {
        phase,
        heldFollowUps: held,
        now: this.now(),
        ...(phase === "queued" ? { queuePosition: Math.max(1, (counts.queued ?? 1) + (counts.sending ?? 0)) } : {}),
      });
      try {
        commentId = await this.writer.createComment(task.thread, body, { priority: "acknowledge" });
        noteOnce(task);
      } catch (error) {
        if (!isPermanentGitHubError(error)) throw error;
        // The run still goes ahead; its result is posted as a new comment if GitHub takes it then.
        this.log.error({ err: error, taskId: task.id }, "could not post the tracking comment");
        await eyes;
        return task;
      }
    }
    await eyes;
    const request =
      task.kind === "create"
        ? { ...task.request, metadata: { ...((task.request.metadata as object | undefined) ?? {}), status_comment_id: commentId } }
        : task.request;
    return this.store.updateTask(task.id, { trackingCommentId: commentId, request });
  }

  /** A follow-up held behind a run: 👀 now, and the run's tracking comment says one more is queued. */
  private async acknowledgeHeld(task: Task): Promise<JobOutcome> {
    if (task.acknowledgedAt === null) {
      await this.store.updateTask(task.id, { acknowledgedAt: this.now() });
      await this.react(task, reactionForPhase("triggered"), "acknowledge");
      this.noteAcknowledged(task);
    }
    const active = task.runId !== null ? await this.store.activeTaskForRun(task.runId) : await this.store.activeTaskForThread(task.thread.owner, task.thread.repo, task.thread.issueNumber);
    if (active) await this.nudge(active.id);
    return DONE;
  }

  private noteAcknowledged(task: Task): void {
    if (task.receivedAt !== null) this.observer.acknowledged(task, Math.max(0, this.now() - task.receivedAt));
  }

  // ---- sending ---------------------------------------------------------------------------

  private async send(task: Task): Promise<JobOutcome> {
    if (task.state !== "queued") return DONE;
    if (task.kind === "create" && this.createsWaiting >= CREATES_WAITING_IN_STEPS) {
      // One create frees a place about every 6 s (10 per minute): look again then.
      return { kind: "later", delayMs: Math.max(20, 6_000 * this.scale) };
    }
    // Counted from here until the call goes out (or fails): the steps that wait for the create budget.
    let waiting = task.kind === "create";
    if (waiting) this.createsWaiting += 1;
    const stopWaiting = () => {
      if (waiting) this.createsWaiting -= 1;
      waiting = false;
    };
    if (task.kind === "create" && (task.request.metadata as Record<string, unknown> | undefined)?.bridge_task_id === undefined) {
      // The task's own id travels with the create, so a crash mid-call can be reconciled by listing runs.
      const metadata = withBridgeTaskId((task.request.metadata as Record<string, unknown> | undefined) ?? {}, bridgeTaskId(task));
      task = await this.store.updateTask(task.id, { request: { ...task.request, metadata } }).catch((error: unknown) => {
        stopWaiting();
        throw error;
      });
    }
    const beforeSend = async () => {
      stopWaiting();
      task = await this.store.updateTask(task.id, { state: "sending", sentAt: this.now() });
    };
    let run: AgentRun;
    try {
      if (task.kind === "create") {
        run = await this.client.createRun(task.request as CreateRunRequest, { signal: this.abort.signal, beforeSend });
      } else {
        if (task.runId === null) throw new Error(`resume task ${task.id} has no run id`);
        run = await this.client.resumeRun(task.runId, task.request.prompt, { signal: this.abort.signal, beforeSend });
      }
    } catch (error) {
      // Shutting down while waiting for budget (still queued) or mid-call (sending: the next step tells the thread).
      if (this.abort.signal.aborted) return TAKE_AGAIN;
      await this.failToStart(task, error);
      return DONE;
    } finally {
      stopWaiting();
    }
    const now = this.now();
    const watched = await this.transition(task, ["sending"], {
      state: "watching",
      runId: run.id,
      startedAt: now,
      lastStatus: run.status ?? null,
      webUrl: run.web_url ?? null,
      nextPollAt: now + this.poll.initial,
      pollIntervalMs: this.poll.initial,
      deadlineAt: now + this.watchTimeoutMs,
    });
    if (watched === null) {
      // Stopped (`/agent stop`) while the call was in flight: keep the run's id for the record, watch nothing.
      await this.store.updateTask(task.id, { runId: run.id, webUrl: run.web_url ?? null });
      this.observer.runStarted({ ...task, runId: run.id });
      return DONE;
    }
    task = watched;
    this.log.info({ taskId: task.id, runId: run.id, kind: task.kind }, "agent run started");
    this.observer.runStarted(task);
    // The run's link is what the person waits for next: as urgent as a result.
    await this.editTracking(task, "result");
    // A finished answer straight away (unlikely, but allowed by the spec) is reported like any other.
    if (isFinalPhase(classifyRunStatus(run.status))) return this.finish(task, run);
    return { kind: "later", delayMs: this.poll.initial };
  }

  /**
   * The process stopped between handing the call to the client and storing its answer, so the call
   * may or may not have reached the service; it is never repeated blindly (a duplicate run costs
   * money). A create is looked for in the organization's recent runs by the task id it carried: found,
   * the run is adopted (watched, its result posted once); certainly absent, it is sent again. A resume
   * took if its run is working again. Anything else, or a service without the runs list, is reported
   * honestly in the thread.
   */
  private async recoverInterruptedSend(task: Task): Promise<JobOutcome> {
    const sentAfter = task.sentAt ?? task.updatedAt;
    if (task.kind === "create") {
      // The task id alone could repeat across deployments sharing an organization; the delivery id cannot.
      const deliveryId = (task.request.metadata as Record<string, unknown> | undefined)?.delivery_id;
      const match = { bridge_task_id: bridgeTaskId(task), ...(typeof deliveryId === "string" ? { delivery_id: deliveryId } : {}) };
      const search = await findInterruptedRun(this.client, { sentAfter, match, signal: this.abort.signal });
      if (search.kind === "found") return this.adopt(task, search.run, "found among the organization's runs");
      if (search.kind === "not_found") {
        this.log.warn({ taskId: task.id }, "an interrupted create never reached the service; sending it again");
        const queued = await this.transition(task, ["sending"], { state: "queued", sentAt: null });
        return queued ? this.send(queued) : DONE;
      }
      await this.abandon(task, `The bridge restarted while this run was being started, so whether it started is unknown (${search.kind === "unsupported" ? "the service does not list runs" : search.reason}).`);
      return DONE;
    }
    if (task.runId !== null) {
      const run = await this.client.getRun(task.runId, { signal: this.abort.signal }).catch(() => null);
      const phase = classifyRunStatus(run?.status);
      // A resume is only sent to a run that had finished: working again means the resume took.
      if (run && (phase === "in_progress" || phase === "unknown")) return this.adopt(task, run, "its run is working again");
    }
    await this.abandon(task, "The bridge restarted while this follow-up was being sent, so whether the run received it is unknown.");
    return DONE;
  }

  private async adopt(task: Task, run: AgentRun, why: string): Promise<JobOutcome> {
    const now = this.now();
    const watched = await this.transition(task, ["sending"], {
      state: "watching",
      runId: run.id,
      startedAt: task.sentAt ?? now,
      lastStatus: run.status ?? null,
      webUrl: run.web_url ?? null,
      nextPollAt: now,
      pollIntervalMs: this.poll.initial,
      deadlineAt: now + this.watchTimeoutMs,
    });
    if (!watched) return DONE;
    this.log.info({ taskId: task.id, runId: run.id, why }, "an interrupted call's run was adopted");
    this.observer.runStarted(watched);
    await this.editTracking(watched, "result");
    return { kind: "later", delayMs: 0 };
  }

  private async failToStart(task: Task, error: unknown): Promise<void> {
    const message = error instanceof AgentRunError ? error.message : String(error);
    this.log.warn({ taskId: task.id, err: error }, "could not start the agent run");
    task = await this.store.updateTask(task.id, { state: "done", error: message });
    this.observer.runFinished(task, "failed_to_start", null);
    await this.writeOrPost(task, renderTaskFailedToStart(task, error), "result");
    await this.react(task, reactionForPhase("failed"), "result");
    await this.closeThreadWork(task, null);
  }

  private async abandon(task: Task, why: string, started: "may_have_started" | "never_sent" = "may_have_started"): Promise<void> {
    task = await this.store.updateTask(task.id, { state: "abandoned", error: why });
    await this.writeOrPost(task, started === "never_sent" ? renderTaskNeverSent(why) : renderTaskAbandoned(task, why), "result");
    await this.closeThreadWork(task, null);
  }

  // ---- watching --------------------------------------------------------------------------

  private async pollOnce(task: Task): Promise<JobOutcome> {
    const runId = task.runId;
    if (runId === null) return DONE;
    const now = this.now();
    if (now >= task.deadlineAt) {
      const run = await this.client.getRun(runId, { signal: this.abort.signal }).catch(() => null);
      const reporting = await this.transition(task, ["watching"], { state: "reporting", watchTimedOut: true, finalRun: (run ?? { id: runId }) as Record<string, unknown> });
      return reporting ? this.report(reporting) : DONE;
    }

    let status: string | null | undefined;
    let entries: LogEntry[] = [];
    let totalLogs: number | null | undefined;
    try {
      if (this.logsUnavailable) {
        const run = await this.client.getRun(runId, { signal: this.abort.signal });
        status = run.status;
        if (isFinalPhase(classifyRunStatus(status))) return this.finish(task, run);
      } else {
        // One request gives both the status and the new steps (ALPHA endpoint; falls back to getRun).
        const page = await this.client.listLogs(runId, { skip: task.progress.logsSeen, limit: 100 }, { signal: this.abort.signal });
        status = page.status;
        entries = page.logs;
        totalLogs = page.total_logs;
      }
    } catch (error) {
      if (this.abort.signal.aborted) return TAKE_AGAIN;
      if (!this.logsUnavailable && (error instanceof NotFoundError || error instanceof PermissionError)) {
        // The logs endpoint is ALPHA: a deployment without it still gets watched through getRun.
        const run = await this.client.getRun(runId, { signal: this.abort.signal }).catch(() => null);
        if (run) {
          this.logsUnavailable = true;
          this.log.warn({ runId }, "the logs endpoint is unavailable; watching through getRun only");
          return this.reschedule(task, false);
        }
      }
      this.log.warn({ taskId: task.id, runId, err: error }, "poll failed; will retry");
      return this.reschedule(task, false);
    }

    const progress = foldProgress(task.progress, entries, task.thread.triggerPhrase);
    const changed = status !== task.lastStatus || progress.currentStep !== task.progress.currentStep;
    task = await this.store.updateTask(task.id, { progress, lastStatus: status ?? null });
    if (isFinalPhase(classifyRunStatus(status))) {
      const run = await this.client.getRun(runId, { signal: this.abort.signal });
      // Read the rest of the trace (errors may be in its tail) before reporting.
      const rest: LogEntry[] = [];
      const more = typeof totalLogs === "number" ? totalLogs > progress.logsSeen : entries.length === 100;
      if (more) {
        for await (const entry of this.client.iterateLogs(runId, { skip: progress.logsSeen, signal: this.abort.signal })) {
          rest.push(entry);
          if (rest.length >= 1000) break;
        }
      }
      if (rest.length > 0) task = await this.store.updateTask(task.id, { progress: foldProgress(progress, rest, task.thread.triggerPhrase) });
      return this.finish(task, run);
    }
    const outcome = await this.reschedule(task, changed);
    await this.maybeEditProgress(task, changed);
    return outcome;
  }

  /** Next poll: the run's own backoff, stretched so that all watches fit in the polling share of the budget. */
  private async reschedule(task: Task, changed: boolean): Promise<JobOutcome> {
    const own = changed ? this.poll.initial : Math.min(this.poll.max, Math.max(this.poll.initial, task.pollIntervalMs * this.poll.factor));
    const counts = await this.store.countByState();
    const watching = counts.watching ?? 0;
    const startsWaiting = (counts.queued ?? 0) > 0 || this.client.budget.busy("create");
    const points = RATE_LIMITS.sharedStrict.points;
    const durationMs = RATE_LIMITS.sharedStrict.durationSeconds * 1000 * this.scale;
    const fairShare = (watching * durationMs) / (points * (startsWaiting ? this.pollShare.busy : this.pollShare.idle));
    const delayMs = Math.max(own, fairShare) * (0.9 + Math.random() * 0.2);
    await this.store.updateTask(task.id, { nextPollAt: this.now() + delayMs, pollIntervalMs: own });
    return { kind: "later", delayMs };
  }

  /** Progress is optional (results are not): at most one edit per interval per comment, and a new follow-up shows at once. */
  private async maybeEditProgress(task: Task, changed: boolean): Promise<void> {
    const held = await this.heldCount(task);
    const heldChanged = held !== (this.shown.get(task.id)?.held ?? 0);
    if (!changed && !heldChanged) return;
    const now = this.now();
    if (!heldChanged && now - task.lastEditAt < this.editIntervalMs) return;
    if (!heldChanged && this.editWindow.delayUntilFree(now) > 0) return;
    this.editWindow.record(now);
    await this.store.updateTask(task.id, { lastEditAt: now });
    await this.editTracking(task, heldChanged ? "acknowledge" : "progress", held);
  }

  private async heldCount(task: Task): Promise<number> {
    if (task.runId === null) return (await this.store.heldFor(-1, task.thread)).length;
    return (await this.store.heldFor(task.runId, task.thread)).length;
  }

  private async editTracking(task: Task, priority: WritePriority, held?: number): Promise<void> {
    if (task.trackingCommentId === null) return;
    // Read again: a stop (or another replica's report) may have given the comment its final words meanwhile.
    const fresh = await this.store.getTask(task.id);
    if (!fresh || !["queued", "sending", "watching"].includes(fresh.state)) return;
    const heldFollowUps = held ?? (await this.heldCount(task));
    const body = renderTaskTracking(task, { phase: "running", heldFollowUps, now: this.now() });
    // An edit that changes nothing a reader sees still costs a write against GitHub's limits.
    if (this.shown.get(task.id)?.body === visibleText(body)) return;
    this.shown.set(task.id, { body: visibleText(body), held: heldFollowUps });
    const options = { priority, supersedeKey: commentSupersedeKey(task.thread, task.trackingCommentId), ...(priority === "progress" ? { maxWaitMs: this.editIntervalMs } : {}) };
    await this.writer.updateComment(task.thread, task.trackingCommentId, body, options).catch((error: unknown) => {
      this.log.warn({ taskId: task.id, err: error }, "could not update the tracking comment");
    });
  }

  // ---- reporting -------------------------------------------------------------------------

  private async finish(task: Task, run: AgentRun): Promise<JobOutcome> {
    const reporting = await this.transition(task, ["watching", "sending"], { state: "reporting", finalRun: run as Record<string, unknown>, lastStatus: run.status ?? null });
    // Null: stopped meanwhile; the thread already has its final word.
    return reporting ? this.report(reporting) : DONE;
  }

  /**
   * Moves a task on only if it is still in one of `from`, under the thread's lock: `/agent stop`
   * ends tasks under the same lock, so a run finishing at that moment never overwrites "stopped".
   */
  private async transition(task: Task, from: Task["state"][], patch: TaskPatch): Promise<Task | null> {
    const section = await this.locks.withLock(threadLockKey(task.thread), async () => {
      const current = await this.store.getTask(task.id);
      if (!current || !from.includes(current.state)) return null;
      return this.store.updateTask(task.id, patch);
    });
    if (section === null) throw new Error(`the lock of ${threadLockKey(task.thread)} stayed busy; the step is retried`);
    return section.value;
  }

  /** Idempotent: the result replaces the tracking comment, so a repeat after a crash rewrites, never duplicates. */
  private async report(task: Task): Promise<JobOutcome> {
    const run = (task.finalRun ?? { id: task.runId }) as AgentRun;
    const phase: RunPhase | "timed_out" = task.watchTimedOut ? "timed_out" : classifyRunStatus(run.status);
    await this.writeOrPost(task, renderTaskResult(task, run, phase, this.now()), "result");
    await this.react(task, phase === "timed_out" ? null : reactionForPhase(phase), "result");
    for (const pr of run.git_host_pull_requests ?? []) {
      if (pr.head_branch_name && task.runId !== null) {
        await this.store.recordRunBranch(task.thread.owner, task.thread.repo, pr.head_branch_name, task.runId, task.orgId);
      }
    }
    await this.closeThreadWork(task, phase === "timed_out" ? null : task.runId, "done");
    this.shown.delete(task.id);
    this.observer.runFinished(task, phase, task.startedAt !== null ? this.now() - task.startedAt : null);
    this.log.info({ taskId: task.id, runId: task.runId, status: run.status }, "result posted");
    return DONE;
  }

  /**
   * Ends the task and releases the follow-ups held behind it, under the thread's lock so that a
   * follow-up arriving now is either held before this (and released) or sees the run finished.
   * Held follow-ups go out as one resume with a tracking comment of their own; when the run cannot
   * be resumed (it never started, or is still going) they are told so.
   */
  private async closeThreadWork(task: Task, resumableRunId: number | null, finalState?: "done"): Promise<void> {
    const section = await this.locks.withLock(threadLockKey(task.thread), async () => {
      if (finalState) await this.store.updateTask(task.id, { state: finalState });
      const held = await this.store.heldFor(task.runId ?? -1, task.thread);
      if (held.length === 0) return [];
      if (resumableRunId === null) {
        const dropped: Task[] = [];
        for (const h of held) dropped.push(await this.store.updateTask(h.id, { state: "done", error: "its run did not finish normally" }));
        return dropped;
      }
      const [first, ...rest] = held;
      const prompt = held.map((h) => h.request.prompt).join("\n\n---\n\n");
      for (const h of rest) await this.store.updateTask(h.id, { state: "done", error: `merged into task ${first!.id}` });
      await this.store.updateTask(first!.id, {
        state: "queued",
        kind: "resume",
        runId: resumableRunId,
        request: { prompt },
        webUrl: await this.store.lastWebUrlForRun(resumableRunId),
      });
      await this.queue.add({ id: taskJobId(first!.id), name: "task", data: { taskId: first!.id } });
      return [];
    });
    if (section === null) throw new Error(`the lock of ${threadLockKey(task.thread)} stayed busy; the step is retried`);
    for (const dropped of section.value) {
      await this.writeOrPost(dropped, renderTaskAbandoned(dropped, "The run this follow-up was waiting for did not finish normally, so the follow-up was not sent."), "result");
    }
  }

  /** Edits the tracking comment; if it is gone (deleted), posts the body as a new comment once. */
  private async writeOrPost(task: Task, body: string, priority: WritePriority): Promise<void> {
    if (task.trackingCommentId !== null) {
      const outcome = await this.writer.updateComment(task.thread, task.trackingCommentId, body, { priority, supersedeKey: commentSupersedeKey(task.thread, task.trackingCommentId) });
      if (outcome !== "missing") return;
    }
    const id = await this.writer.createComment(task.thread, body, { priority });
    await this.store.updateTask(task.id, { trackingCommentId: id });
  }

  /** True when the reaction is on the trigger now. A courtesy waits at most one progress-edit interval. */
  private async react(task: Task, content: ReactionContent | null, priority: WritePriority): Promise<boolean> {
    if (!content || !task.reaction) return false;
    const options = { priority, ...(priority === "courtesy" ? { maxWaitMs: this.courtesyWaitMs } : {}) };
    return this.writer.react(task.thread, task.reaction, content, options).catch((error: unknown) => {
      this.log.warn({ taskId: task.id, err: error }, "could not add the reaction");
      return false;
    });
  }
}

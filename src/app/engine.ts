import { setMaxListeners } from "node:events";
import type { AgentRunClient } from "../service/client.js";
import { AgentRunError, NotFoundError, PermissionError } from "../service/errors.js";
import { classifyRunStatus, isFinalPhase, type RunPhase } from "../service/status.js";
import { RATE_LIMITS, type AgentRun, type CreateRunRequest, type LogEntry } from "../service/wire.js";
import { foldProgress } from "./progress.js";
import type { BridgeStore, NewTask, Task } from "./store/types.js";
import type { ThreadWriter } from "./thread-writer.js";
import { renderTaskAbandoned, renderTaskFailedToStart, renderTaskResult, renderTaskTracking } from "./views.js";
import { SlidingWindowLog } from "../service/sliding-window.js";

export interface EngineLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunEngineOptions {
  store: BridgeStore;
  client: AgentRunClient;
  writer: ThreadWriter;
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
  /** Progress edits across all threads per minute (GitHub's secondary limit is ~80 writes/min). */
  progressEditsPerMinute?: number;
  /** A run still going after this long is reported as such and no longer watched (ms, real time). */
  watchTimeoutMs?: number;
  now?: () => number;
}

/** A body without its elapsed-time counter: "working · 3s so far" and "· 4s so far" read the same. */
function visibleText(body: string): string {
  return body.replace(/·\s*[\dhdms ]+ so far/g, "");
}

/**
 * Steps in flight at once; the rest wait for a later pass (a step that ends wakes it). Bounds memory
 * after a restart with thousands of watches: they queue in the store, not as pending promises.
 */
const MAX_STEPS_IN_FLIGHT = 100;

const noopLogger: EngineLogger = { info() {}, warn() {}, error() {} };

/**
 * Drives every task from queued to done: sends creates and resumes within the rate budget, polls
 * runs to a final state, keeps tracking comments current, posts each result once, then sends the
 * follow-ups held for the run. All state lives in the store, so `start()` after a crash picks up
 * exactly where the previous process stopped.
 */
export class RunEngine {
  private readonly store: BridgeStore;
  private readonly client: AgentRunClient;
  private readonly writer: ThreadWriter;
  private readonly log: EngineLogger;
  private readonly scale: number;
  private readonly poll: { initial: number; max: number; factor: number };
  private readonly pollShare: { busy: number; idle: number };
  private readonly editIntervalMs: number;
  private readonly editWindow: SlidingWindowLog;
  private readonly watchTimeoutMs: number;
  private readonly now: () => number;

  private readonly inFlight = new Map<number, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly abort = new AbortController();
  private logsUnavailable = false;
  private idleWaiters: Array<() => void> = [];
  /** Last progress text written per task, so identical edits are skipped (in memory: a restart just edits once more). */
  private readonly lastProgressBody = new Map<number, string>();

  constructor(options: RunEngineOptions) {
    // Every call in flight listens to the shutdown signal: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.abort.signal);
    this.store = options.store;
    this.client = options.client;
    this.writer = options.writer;
    this.log = options.logger ?? noopLogger;
    this.scale = options.timeScale ?? 1;
    this.poll = {
      initial: (options.pollIntervalMs?.initial ?? 2_000) * this.scale,
      max: (options.pollIntervalMs?.max ?? 30_000) * this.scale,
      factor: options.pollIntervalMs?.factor ?? 1.5,
    };
    this.pollShare = { busy: options.pollBudgetShare?.busy ?? 0.75, idle: options.pollBudgetShare?.idle ?? 0.95 };
    this.editIntervalMs = (options.progressEditIntervalMs ?? 15_000) * this.scale;
    this.editWindow = new SlidingWindowLog(options.progressEditsPerMinute ?? 30, 60_000 * this.scale);
    this.watchTimeoutMs = options.watchTimeoutMs ?? 4 * 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Recovers every unfinished task, then keeps working until `stop()`. */
  async start(): Promise<void> {
    this.running = true;
    for (const task of this.store.listTasks(["sending"])) {
      // The call may or may not have reached the service: never repeat it blindly.
      await this.abandon(task, "The bridge restarted while this run was being started, so whether it started is unknown.");
    }
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort("the bridge is shutting down");
    if (this.timer) clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Adds a task (queued, or held behind a run in progress) and starts working on it. */
  submit(task: NewTask): Task {
    let inserted = this.store.insertTask(task);
    const knownPage = inserted.runId !== null ? this.store.lastWebUrlForRun(inserted.runId) : null;
    if (knownPage) inserted = this.store.updateTask(inserted.id, { webUrl: knownPage });
    this.wake();
    return inserted;
  }

  /**
   * Looks at the tasks now, e.g. after the App attached a tracking comment to a task it had held
   * back (`nextPollAt` in the future) while posting that comment.
   */
  nudge(): void {
    this.wake();
  }

  /** How many tasks wait for creation budget ahead of a new one. */
  queuedAhead(): number {
    const counts = this.store.countByState();
    return (counts.queued ?? 0) + (counts.sending ?? 0);
  }

  /** Resolves once nothing is queued, sending, watched or being reported (tests, demo, shutdown). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    if (this.inFlight.size > 0) return false;
    const counts = this.store.countByState();
    return !counts.queued && !counts.sending && !counts.watching && !counts.reporting;
  }

  /** Schedules the next pass: at once, or when the earliest watched run is due. */
  private wake(delayMs = 0): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pass(), Math.max(0, delayMs));
  }

  /** Starts every due step not already in flight; only due rows are read, so 1,000 idle watches cost nothing. */
  private pass(): void {
    this.timer = undefined;
    if (!this.running) return;
    const now = this.now();
    const states: Task["state"][] = ["queued", "watching", "reporting"];
    for (const task of this.store.dueTasks(states, now, MAX_STEPS_IN_FLIGHT + this.inFlight.size)) {
      if (this.inFlight.size >= MAX_STEPS_IN_FLIGHT) break;
      if (this.inFlight.has(task.id)) continue;
      this.track(task.id, this.step(task));
    }
    const next = this.store.nextDueAt(states);
    if (next !== null && next > now) this.wake(next - now);
    this.notifyIdle();
  }

  private track(id: number, work: Promise<void>): void {
    const done = work
      .catch((error: unknown) => {
        // GitHub or the service failed mid-step: the task keeps its state and is retried later, not in a hot loop.
        this.log.error({ err: error, taskId: id }, "task step failed; retrying later");
        if (this.store.getTask(id)) this.store.updateTask(id, { nextPollAt: this.now() + this.poll.max });
      })
      .finally(() => {
        this.inFlight.delete(id);
        this.wake();
      });
    this.inFlight.set(id, done);
  }

  private notifyIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async step(task: Task): Promise<void> {
    switch (task.state) {
      case "queued":
        return this.send(task);
      case "watching":
        return this.pollOnce(task);
      case "reporting":
        return this.report(task);
      default:
        return;
    }
  }

  // ---- sending ---------------------------------------------------------------------------

  private async send(task: Task): Promise<void> {
    const beforeSend = () => {
      if (task.state !== "sending") task = this.store.updateTask(task.id, { state: "sending" });
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
      if (!this.running) {
        // Shutting down while waiting for budget: the task stays queued (or sending → abandoned on restart).
        return;
      }
      await this.failToStart(task, error);
      return;
    }
    const now = this.now();
    task = this.store.updateTask(task.id, {
      state: "watching",
      runId: run.id,
      startedAt: now,
      lastStatus: run.status ?? null,
      webUrl: run.web_url ?? null,
      nextPollAt: now + this.poll.initial,
      pollIntervalMs: this.poll.initial,
      deadlineAt: now + this.watchTimeoutMs,
    });
    this.log.info({ taskId: task.id, runId: run.id, kind: task.kind }, "agent run started");
    await this.editTracking(task, "running");
    // A finished answer straight away (unlikely, but allowed by the spec) is reported like any other.
    if (isFinalPhase(classifyRunStatus(run.status))) await this.finish(task, run);
  }

  private async failToStart(task: Task, error: unknown): Promise<void> {
    const message = error instanceof AgentRunError ? error.message : String(error);
    this.log.warn({ taskId: task.id, err: error }, "could not start the agent run");
    task = this.store.updateTask(task.id, { state: "done", error: message });
    await this.writeOrPost(task, renderTaskFailedToStart(task, error));
    await this.react(task, "confused");
    await this.releaseHeld(task, null);
  }

  private async abandon(task: Task, why: string): Promise<void> {
    task = this.store.updateTask(task.id, { state: "abandoned", error: why });
    await this.writeOrPost(task, renderTaskAbandoned(task, why));
    await this.releaseHeld(task, null);
  }

  // ---- watching --------------------------------------------------------------------------

  private async pollOnce(task: Task): Promise<void> {
    const runId = task.runId;
    if (runId === null) return;
    const now = this.now();
    if (now >= task.deadlineAt) {
      const run = await this.client.getRun(runId, { signal: this.abort.signal }).catch(() => null);
      task = this.store.updateTask(task.id, { state: "reporting", finalRun: { ...(run ?? { id: runId }), __watchTimedOut: true } });
      return this.report(task);
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
      if (!this.running) return;
      if (!this.logsUnavailable && (error instanceof NotFoundError || error instanceof PermissionError)) {
        // The logs endpoint is ALPHA: a deployment without it still gets watched through getRun.
        const run = await this.client.getRun(runId, { signal: this.abort.signal }).catch(() => null);
        if (run) {
          this.logsUnavailable = true;
          this.log.warn({ runId: task.runId }, "the logs endpoint is unavailable; watching through getRun only");
          this.reschedule(task, false);
          return;
        }
      }
      this.log.warn({ taskId: task.id, runId: task.runId, err: error }, "poll failed; will retry");
      this.reschedule(task, false);
      return;
    }

    const progress = foldProgress(task.progress, entries, task.thread.triggerPhrase);
    const changed = status !== task.lastStatus || progress.currentStep !== task.progress.currentStep;
    task = this.store.updateTask(task.id, { progress, lastStatus: status ?? null });
    const phase = classifyRunStatus(status);
    if (isFinalPhase(phase)) {
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
      if (rest.length > 0) task = this.store.updateTask(task.id, { progress: foldProgress(progress, rest, task.thread.triggerPhrase) });
      return this.finish(task, run);
    }
    this.reschedule(task, changed);
    if (changed) await this.maybeEditProgress(task);
  }

  /** Next poll: the run's own backoff, stretched so that all watches fit in the polling share of the budget. */
  private reschedule(task: Task, changed: boolean): void {
    const own = changed ? this.poll.initial : Math.min(this.poll.max, Math.max(this.poll.initial, task.pollIntervalMs * this.poll.factor));
    const counts = this.store.countByState();
    const watching = counts.watching ?? 0;
    const startsWaiting = (counts.queued ?? 0) > 0 || this.client.budget.busy("create");
    const { points, durationMs } = this.sharedWindow();
    const fairShare = (watching * durationMs) / (points * (startsWaiting ? this.pollShare.busy : this.pollShare.idle));
    const interval = Math.max(own, fairShare);
    const jittered = interval * (0.9 + Math.random() * 0.2);
    this.store.updateTask(task.id, { nextPollAt: this.now() + jittered, pollIntervalMs: own });
  }

  private sharedWindow(): { points: number; durationMs: number } {
    return { points: RATE_LIMITS.sharedStrict.points, durationMs: RATE_LIMITS.sharedStrict.durationSeconds * 1000 * this.scale };
  }

  private async maybeEditProgress(task: Task): Promise<void> {
    const now = this.now();
    if (now - task.lastEditAt < this.editIntervalMs) return;
    if (this.editWindow.delayUntilFree(now) > 0) return; // progress is optional; results are not
    this.editWindow.record(now);
    this.store.updateTask(task.id, { lastEditAt: now });
    await this.editTracking(task, "running");
  }

  private async editTracking(task: Task, phase: "running"): Promise<void> {
    if (task.trackingCommentId === null) return;
    const held = task.runId !== null ? this.store.heldFor(task.runId, task.thread).length : 0;
    const body = renderTaskTracking(task, { phase, heldFollowUps: held, now: this.now() });
    // An edit that changes nothing a reader sees still costs a write against GitHub's limits.
    if (this.lastProgressBody.get(task.id) === visibleText(body)) return;
    this.lastProgressBody.set(task.id, visibleText(body));
    await this.writer.updateComment(task.thread, task.trackingCommentId, body).catch((error: unknown) => {
      this.log.warn({ taskId: task.id, err: error }, "could not update the tracking comment");
    });
  }

  // ---- reporting -------------------------------------------------------------------------

  private async finish(task: Task, run: AgentRun): Promise<void> {
    task = this.store.updateTask(task.id, { state: "reporting", finalRun: run as Record<string, unknown>, lastStatus: run.status ?? null });
    await this.report(task);
  }

  /** Idempotent: the result replaces the tracking comment, so a repeat after a crash rewrites, never duplicates. */
  private async report(task: Task): Promise<void> {
    const run = (task.finalRun ?? { id: task.runId }) as AgentRun & { __watchTimedOut?: boolean };
    const phase: RunPhase | "timed_out" = run.__watchTimedOut ? "timed_out" : classifyRunStatus(run.status);
    const body = renderTaskResult(task, run, phase, this.now());
    await this.writeOrPost(task, body);
    await this.react(task, phase === "succeeded" ? "rocket" : phase === "failed" ? "confused" : null);
    for (const pr of run.git_host_pull_requests ?? []) {
      if (pr.head_branch_name && task.runId !== null) {
        this.store.recordRunBranch(task.thread.owner, task.thread.repo, pr.head_branch_name, task.runId, task.orgId);
      }
    }
    this.store.updateTask(task.id, { state: "done" });
    this.lastProgressBody.delete(task.id);
    this.log.info({ taskId: task.id, runId: task.runId, status: run.status }, "result posted");
    await this.releaseHeld(task, phase === "timed_out" ? null : task.runId);
  }

  /**
   * Sends the follow-ups held behind a finished run as one resume, in a new tracking comment.
   * When the run could not be resumed (it never started, or is still going), they are told so.
   */
  private async releaseHeld(task: Task, runId: number | null): Promise<void> {
    const held = this.store.heldFor(task.runId ?? -1, task.thread);
    if (held.length === 0) return;
    if (runId === null) {
      for (const h of held) {
        const t = this.store.updateTask(h.id, { state: "done", error: "its run did not finish normally" });
        await this.writeOrPost(t, renderTaskAbandoned(t, "The run this follow-up was waiting for did not finish normally, so the follow-up was not sent."));
      }
      return;
    }
    const [first, ...rest] = held;
    const prompt = held.map((h) => h.request.prompt).join("\n\n---\n\n");
    for (const h of rest) this.store.updateTask(h.id, { state: "done", error: `merged into task ${first!.id}` });
    let merged = this.store.updateTask(first!.id, { state: "queued", kind: "resume", runId, request: { prompt }, webUrl: this.store.lastWebUrlForRun(runId) });
    if (merged.trackingCommentId === null) {
      const id = await this.writer
        .createComment(merged.thread, renderTaskTracking(merged, { phase: "resuming", heldFollowUps: 0, now: this.now() }))
        .catch(() => null);
      if (id !== null) merged = this.store.updateTask(merged.id, { trackingCommentId: id });
    }
    this.wake();
  }

  /** Edits the tracking comment; if it is gone (deleted), posts the body as a new comment once. */
  private async writeOrPost(task: Task, body: string): Promise<void> {
    if (task.trackingCommentId !== null) {
      const outcome = await this.writer.updateComment(task.thread, task.trackingCommentId, body);
      if (outcome === "ok") return;
    }
    const id = await this.writer.createComment(task.thread, body);
    this.store.updateTask(task.id, { trackingCommentId: id });
  }

  private async react(task: Task, content: "rocket" | "confused" | null): Promise<void> {
    if (!content || !task.reaction) return;
    await this.writer.react(task.thread, task.reaction, content).catch((error: unknown) => {
      this.log.warn({ taskId: task.id, err: error }, "could not add the reaction");
    });
  }
}

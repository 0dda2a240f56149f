/**
 * RunEngine: one step of one App task, dispatched by the task's state, and every other word the App
 * writes in a thread. The steps themselves live in engine/: acknowledging (👀 and the tracking
 * comment), sending (create or resume, and recovering a send cut off by a crash), watching (polls
 * and progress), reporting (the result and the follow-ups), stopping (`/agent stop`), and
 * thread-output (the writes to the thread they share).
 */
import { setMaxListeners } from "node:events";
import type { StopRequest } from "../core/detect/triggers.js";
import type { PreparedStop } from "../flows/stop.js";
import type { AgentRun } from "../service/wire.js";
import { Acknowledger } from "./engine/acknowledging.js";
import { Interrupter } from "./engine/interrupting.js";
import { DONE, TAKE_AGAIN, type EngineContext } from "./engine/context.js";
import { engineSettings, type EngineLogger, type RunEngineOptions } from "./engine/options.js";
import { Reporter } from "./engine/reporting.js";
import { Sender, lostAnswerOf } from "./engine/sending.js";
import { Stopper, type StopOutcome } from "./engine/stopping.js";
import { ThreadOutput } from "./engine/thread-output.js";
import { Sweeper, type SweepReport } from "./engine/sweeping.js";
import { Recoverer, type OrphanedRun, type RecoveryResult } from "./engine/recovering.js";
import { Watcher } from "./engine/watching.js";
import type { EngineObserver } from "./ops/metrics.js";
import { heldAcknowledgementJobId, taskJobId, type JobOutcome, type TaskJobData } from "./queue/types.js";
import type { NewTask, Task, TaskThread } from "./store/types.js";
import type { WritePriority } from "./thread-writer.js";
import { soleProcessLeases } from "./lease.js";
import { annotateSpan, currentTraceparent, taskAttributes, withSpan, withTraceparent } from "./ops/tracing.js";

export { threadLockKey } from "./engine/context.js";
export { DEFAULT_WATCH_TIMEOUT_MS, type RunEngineOptions } from "./engine/options.js";
export type { SweepReport } from "./engine/sweeping.js";
export type { OrphanedRun, RecoveryResult } from "./engine/recovering.js";

const noopLogger: EngineLogger = { info() {}, warn() {}, error() {} };
const noopObserver: EngineObserver = { acknowledged() {}, runStarted() {}, runFinished() {} };

/**
 * Drives every task from queued to done, one queue job per task: acknowledges it in the thread (👀
 * and the tracking comment), sends the create or resume within the rate budget, polls the run to a
 * final state, keeps the tracking comment current, posts the result once, then releases the
 * follow-ups held for the run. All state lives in the store and the queue, so any replica can take
 * any step, and a step cut off by a crash is taken again where it stopped.
 */
export class RunEngine {
  private readonly context: EngineContext;
  private readonly abort = new AbortController();
  private readonly output: ThreadOutput;
  private readonly acknowledger: Acknowledger;
  private readonly sender: Sender;
  private readonly watcher: Watcher;
  private readonly sweeper: Sweeper;
  private readonly reporter: Reporter;
  private readonly stopper: Stopper;
  private readonly recoverer: Recoverer;

  constructor(options: RunEngineOptions) {
    // Every call in flight listens to the shutdown signal: hundreds at once are expected, not a leak.
    setMaxListeners(0, this.abort.signal);
    this.context = {
      store: options.store,
      client: options.client,
      writer: options.writer,
      queue: options.queue,
      locks: options.locks,
      log: options.logger ?? noopLogger,
      observer: options.observer ?? noopObserver,
      settings: engineSettings(options),
      now: options.now ?? Date.now,
      signal: this.abort.signal,
    };
    const context = this.context;
    this.output = new ThreadOutput(context);
    this.reporter = new Reporter(context, this.output);
    this.acknowledger = new Acknowledger(context, this.output);
    this.sender = new Sender(context, this.output, this.reporter);
    this.sweeper = new Sweeper(context, options.leases ?? soleProcessLeases());
    this.watcher = new Watcher(context, this.output, this.reporter, this.sweeper, new Interrupter(context));
    this.stopper = new Stopper(context);
    this.recoverer = new Recoverer(context);
  }

  /** Starts sweeping the runs list (when on, and while this process holds the sweep lease). */
  start(): void {
    this.sweeper.start();
  }

  /** Told what each sweep of this process did. */
  onSweep(listener: (report: SweepReport) => void): () => void {
    return this.sweeper.onSweep(listener);
  }

  /** Stops waiting for rate budget and lets steps in flight end early; the queue keeps their jobs. Gives the sweep lease up. */
  stop(): Promise<void> {
    this.abort.abort("the bridge is shutting down");
    return this.sweeper.stop();
  }

  /**
   * Stores a new task (queued, or held behind a run in progress) and queues its first step. Callers
   * hold the thread's lock, so the decision that led here and the insert are one step for the thread.
   */
  async submit(task: Omit<NewTask, "deadlineAt">): Promise<Task> {
    let inserted = await this.context.store.insertTask({
      ...task,
      deadlineAt: this.context.now() + this.context.settings.watchTimeoutMs,
      // Stored with the task: whenever its job is queued again (a held follow-up released, a restart), the delivery's trace goes on.
      traceparent: currentTraceparent() ?? null,
    });
    const knownPage = inserted.runId !== null ? await this.context.store.lastWebUrlForRun(inserted.runId) : null;
    if (knownPage) inserted = await this.context.store.updateTask(inserted.id, { webUrl: knownPage });
    const data = { taskId: inserted.id, ...withTraceparent(inserted.traceparent ?? undefined) };
    // A held follow-up gets only its acknowledgement now; its own job comes when its run releases it.
    if (inserted.state === "held")
      await this.context.queue.add({
        id: heldAcknowledgementJobId(inserted.id),
        name: "task",
        data: { ...data, step: "acknowledge_held" },
      });
    else await this.context.queue.add({ id: taskJobId(inserted.id), name: "task", data });
    annotateSpan({ "bridge.task.id": inserted.id, "bridge.task.kind": inserted.kind });
    return inserted;
  }

  /**
   * `/agent stop` as flows/stop.ts prepared it: the refusal, or the thread's task and held
   * follow-ups ended under the thread's lock, then the stopped comments, the 👍 and the reply.
   */
  stopThread(thread: TaskThread, request: StopRequest, prepared: PreparedStop): Promise<StopOutcome> {
    return this.stopper.stop(thread, request, prepared);
  }

  /** The one comment a request that starts no run gets (a refusal, a hand-back, a spend limit, a broken config, a failed delivery). */
  async reply(thread: TaskThread, body: string, priority: WritePriority): Promise<void> {
    await this.context.writer.createComment(thread, body, { priority });
  }

  /** A run its thread shows as working that the store does not know (it lost its data): watched again, or the thread told what was lost. */
  recoverRun(orphan: OrphanedRun): Promise<RecoveryResult> {
    return this.recoverer.recover(orphan);
  }

  /** Runs a task's next step now (e.g. to show a new follow-up on its tracking comment). */
  async nudge(taskId: number): Promise<void> {
    await this.context.queue.promote(taskJobId(taskId));
  }

  /**
   * One step of one task; `later` when it has to be looked at again (the next poll). A held
   * follow-up's acknowledgement (`acknowledge_held`) does nothing once its run released it: the
   * task's own job acknowledges it then.
   */
  async processTask(taskId: number, step?: TaskJobData["step"]): Promise<JobOutcome> {
    const task = await this.context.store.getTask(taskId);
    if (!task) return DONE;
    if (this.abort.signal.aborted) return TAKE_AGAIN;
    const attributes = taskAttributes(task);
    if (step === "acknowledge_held" && task.state !== "held") return DONE;
    switch (task.state) {
      // A held task's job queued by an earlier version, or its acknowledgement.
      case "held":
        return withSpan("acknowledge held", attributes, () => this.acknowledger.acknowledgeHeld(task));
      case "queued": {
        const acknowledged = await withSpan("acknowledge", attributes, () => this.acknowledger.acknowledge(task));
        return withSpan(`run ${task.kind}`, attributes, () => this.sender.send(acknowledged));
      }
      case "sending":
        return withSpan(`run ${task.kind} recover`, attributes, () => this.sender.recoverInterruptedSend(task));
      case "watching":
        return withSpan("run watch", attributes, () => this.watcher.pollOnce(task));
      case "reporting":
        return this.reporter.report(task);
      default:
        // Ended elsewhere (a stop, another replica's report): forget what this process showed of it.
        this.output.forget(task.id);
        return DONE;
    }
  }

  /** The step failed again and again (GitHub or the service down for many minutes): end the task with one word in the thread. */
  async onTaskFailed(taskId: number, error: unknown, step?: TaskJobData["step"]): Promise<void> {
    if (step === "acknowledge_held") {
      // Only its 👀 is missing: the follow-up stays held, and its own job runs when its run releases it.
      this.context.log.warn({ taskId, err: error }, "could not acknowledge a held follow-up; it stays held");
      return;
    }
    const task = await this.context.store.getTask(taskId);
    if (!task || task.state === "done" || task.state === "abandoned") return;
    this.context.log.error({ taskId, err: error }, "task step failed too often; giving up on it");
    if (task.state === "watching" || task.state === "reporting") {
      // The run exists: say it is still going (or finished) with its link rather than lose it.
      const run = (task.finalRun ?? { id: task.runId }) as AgentRun;
      const updated = await this.context.store.updateTask(task.id, {
        state: "reporting",
        finalRun: run as Record<string, unknown>,
        watchTimedOut: task.finalRun === null,
      });
      await this.reporter
        .report(updated)
        .catch((reportError: unknown) => this.context.log.error({ taskId, err: reportError }, "could not report the run either"));
      return;
    }
    if (task.state === "sending" && task.kind === "create") {
      // Reconciling a sent create failed again and again (the runs list down too): the run may exist.
      await this.reporter.outcomeUnknown(
        task,
        lostAnswerOf(task)?.what ?? "the bridge could not finish sending it",
        "the service's list of runs could not be read either",
      );
      return;
    }
    const why = `The bridge could not handle this request (${error instanceof Error ? error.message : String(error)}).`;
    // Never sent: there is no run to look for, only a request to make again.
    await this.reporter.abandon(task, why, task.state === "queued" || task.state === "held" ? "never_sent" : "may_have_started");
  }
}

/**
 * Watching a run: one poll a step (its status and the new steps of its log), the next poll spaced so
 * that every watch fits in the service's read budget, progress shown on the tracking comment at a
 * bounded pace, and the run handed to the reporter once final or past its deadline.
 *
 * Two kinds of poll. A run that sweeps of the runs list show (sweeping.ts) needs no status read of
 * its own: its polls are progress reads, which take what the budget leaves (active threads more
 * often) and give their turn up rather than wait. Any other run's poll is a status read, as before.
 * Either way the reads that finish a run (the rest of its trace, the run itself) go first.
 */
import type { ReadPriority } from "../../service/budget.js";
import { DeadlineError, NotFoundError, PermissionError } from "../../service/errors.js";
import { SlidingWindowLog } from "../../service/sliding-window.js";
import { classifyRunStatus, isFinalPhase } from "../../service/status.js";
import { RATE_LIMITS, type AgentRun, type LogEntry } from "../../service/wire.js";
import { foldProgress } from "../progress.js";
import type { JobOutcome } from "../queue/types.js";
import type { Task, TraceProgress } from "../store/types.js";
import { DONE, TAKE_AGAIN, transition, underThreadLock, type EngineContext } from "./context.js";
import type { Interrupter } from "./interrupting.js";
import type { Reporter } from "./reporting.js";
import type { Sweeper } from "./sweeping.js";
import type { ThreadOutput } from "./thread-output.js";

/** Log entries read per poll; a full page means there may be more. */
const LOG_PAGE = 100;
/** At most this many entries of a finished run's remaining trace are read before reporting. */
const TRACE_TAIL_MAX = 1000;

/** What one poll saw: the run's status and the log entries new since the last poll. */
interface PollResult {
  status: string | null | undefined;
  entries: LogEntry[];
  /** How many entries the log has in all, when the service said. */
  totalLogs: number | null | undefined;
  /** Read through getRun (no logs endpoint) and already final: reported as it is. */
  finalRun?: AgentRun;
}

export class Watcher {
  /** The logs endpoint (ALPHA) answered 404 or 403 once: this process watches through getRun only. */
  private logsUnavailable = false;
  /** Progress edits of this process in the last minute, across all threads. */
  private readonly editWindow: SlidingWindowLog;
  /** The count of tasks by state being read for the polls rescheduling right now (see `taskCounts`). */
  private counting: Promise<Partial<Record<Task["state"], number>>> | null = null;

  constructor(
    private readonly context: EngineContext,
    private readonly output: ThreadOutput,
    private readonly reporter: Reporter,
    private readonly sweeper: Sweeper,
    private readonly interrupter: Interrupter,
  ) {
    this.editWindow = new SlidingWindowLog(context.settings.progressEditsPerMinute, 60_000 * context.settings.scale);
  }

  async pollOnce(task: Task): Promise<JobOutcome> {
    const runId = task.runId;
    if (runId === null) return DONE;
    if (this.context.now() >= task.deadlineAt) return this.reportStillGoing(task, runId);
    // Before the poll, and before a run a sweep handed over is reported: a follow-up that reached
    // the agent is seen working in this very poll, and one a cut-off step claimed is recorded, not sent again.
    task = await this.interrupter.deliverPending(task);
    // A sweep saw the run final and handed it over: report it now.
    const handedOver = await this.handedOver(task);
    if (handedOver) return this.finishSwept(task, runId, handedOver);
    const swept = this.isSwept(task);
    // A run this process's sweeps have not shown yet (just started, or after a restart) is read on
    // its own only if budget is free soon: the next sweep shows it anyway, or brings this read forward.
    const givesWay = swept || (task.sweptAt === null && this.sweeper.expectsSweeps);
    let poll: PollResult;
    try {
      poll = await this.poll(runId, task.progress.logsSeen, swept, givesWay, task.nextPollAt);
    } catch (error) {
      if (givesWay && error instanceof DeadlineError && !this.context.signal.aborted) {
        // No budget left for this read right now: the turn is given up until the next poll.
        return this.reschedule(task, false);
      }
      return this.pollFailed(task, runId, error);
    }
    if (poll.finalRun) return this.reporter.finish(task, poll.finalRun);

    const progress = foldProgress(task.progress, poll.entries, task.thread.triggerPhrase);
    const changed = poll.status !== task.lastStatus || progress.currentStep !== task.progress.currentStep;
    task = await this.context.store.updateTask(task.id, { progress, lastStatus: poll.status ?? null });
    // A sweep may have handed the run over while this read waited (its nudge found this job running).
    const handedOverMeanwhile = await this.handedOver(task);
    if (handedOverMeanwhile) return this.finishSwept(task, runId, handedOverMeanwhile);
    if (isFinalPhase(classifyRunStatus(poll.status))) return this.finishWithTrace(task, runId, poll, progress);
    const outcome = await this.reschedule(task, changed);
    const dueAt = this.context.now() + outcome.delayMs;
    await this.maybeEditProgress(task, changed);
    // The next read is due a share after this one, not after the edit: an edit waiting its turn at GitHub must not push this run back in the round.
    return { kind: "later", delayMs: Math.max(0, dueAt - this.context.now()) };
  }

  /**
   * The final run a sweep handed over, unless a follow-up reached the agent since that sweep began
   * (`sweptAt`): then the run works again, the hand-over is dropped and the run's own read says how it is.
   */
  private async handedOver(task: Task): Promise<AgentRun | null> {
    if (!task.finalRun) return null;
    if (!handOverIsStale(task)) return task.finalRun as AgentRun;
    await underThreadLock(this.context, task.thread, async () => {
      const current = await this.context.store.getTask(task.id);
      if (current?.state === "watching" && current.finalRun && handOverIsStale(current)) {
        await this.context.store.updateTask(task.id, { finalRun: null });
      }
    });
    return null;
  }

  /** Whether sweeps of the runs list show this run: then its own reads are for progress only. */
  private isSwept(task: Task): boolean {
    return task.sweptAt !== null && this.context.now() - task.sweptAt < this.context.settings.sweep.staleMs;
  }

  /** A sweep saw the run final: the rest of its trace is read first in the budget, then the swept run is reported. */
  private async finishSwept(task: Task, runId: number, run: AgentRun): Promise<JobOutcome> {
    const { client, store, signal } = this.context;
    const rest: LogEntry[] = [];
    if (!this.logsUnavailable) {
      try {
        for await (const entry of client.iterateLogs(runId, { skip: task.progress.logsSeen, signal, priority: "report" })) {
          rest.push(entry);
          if (rest.length >= TRACE_TAIL_MAX) break;
        }
      } catch (error) {
        if (signal.aborted) return TAKE_AGAIN;
        // The result does not wait for the trace: it is written from the run the sweep showed.
        this.context.log.warn({ taskId: task.id, runId, err: error }, "could not read the end of a finished run's trace");
      }
    }
    if (rest.length > 0) task = await store.updateTask(task.id, { progress: foldProgress(task.progress, rest, task.thread.triggerPhrase) });
    return this.reporter.finish(task, run);
  }

  /** The watch deadline passed: the run is reported as still going, with its link. */
  private async reportStillGoing(task: Task, runId: number): Promise<JobOutcome> {
    const run = await this.context.client.getRun(runId, { signal: this.context.signal }).catch(() => null);
    const reporting = await transition(this.context, task, ["watching"], {
      state: "reporting",
      watchTimedOut: true,
      finalRun: (run ?? { id: runId }) as Record<string, unknown>,
    });
    return reporting ? this.reporter.report(reporting) : DONE;
  }

  /** `dueAt`: when this poll was due; among reads waiting for budget the one due first goes first (the run read longest ago). */
  private async poll(runId: number, logsSeen: number, swept: boolean, givesWay: boolean, dueAt: number): Promise<PollResult> {
    const { client, signal, now, settings } = this.context;
    const priority: ReadPriority = swept ? "progress" : "status";
    const deadline = givesWay ? now() + settings.progress.budgetWaitMs : undefined;
    const order = Math.min(dueAt, now());
    if (this.logsUnavailable) {
      // Without logs a swept run has no progress to read: its status comes from the sweeps.
      if (swept) return { status: undefined, entries: [], totalLogs: undefined };
      const run = await client.getRun(runId, { signal, order });
      if (isFinalPhase(classifyRunStatus(run.status))) return { status: run.status, entries: [], totalLogs: undefined, finalRun: run };
      return { status: run.status, entries: [], totalLogs: undefined };
    }
    // One request gives both the status and the new steps (ALPHA endpoint; falls back to getRun).
    const page = await client.listLogs(runId, { skip: logsSeen, limit: LOG_PAGE }, { signal, priority, deadline, order });
    return { status: page.status, entries: page.logs, totalLogs: page.total_logs };
  }

  private async pollFailed(task: Task, runId: number, error: unknown): Promise<JobOutcome> {
    if (this.context.signal.aborted) return TAKE_AGAIN;
    if (!this.logsUnavailable && (error instanceof NotFoundError || error instanceof PermissionError)) {
      // The logs endpoint is ALPHA: a deployment without it still gets watched through getRun.
      const run = await this.context.client.getRun(runId, { signal: this.context.signal }).catch(() => null);
      if (run) {
        this.logsUnavailable = true;
        this.context.log.warn({ runId }, "the logs endpoint is unavailable; watching through getRun only");
        return this.reschedule(task, false);
      }
    }
    this.context.log.warn({ taskId: task.id, runId, err: error }, "poll failed; will retry");
    return this.reschedule(task, false);
  }

  /** The run is final: read the rest of its trace past `progress` (errors may be in its tail), then report it. */
  private async finishWithTrace(task: Task, runId: number, poll: PollResult, progress: TraceProgress): Promise<JobOutcome> {
    const { client, store, signal } = this.context;
    // A person is waiting for this result: these reads go before every routine poll.
    const run = await client.getRun(runId, { signal, priority: "report" });
    const rest: LogEntry[] = [];
    const more = typeof poll.totalLogs === "number" ? poll.totalLogs > progress.logsSeen : poll.entries.length === LOG_PAGE;
    if (more) {
      for await (const entry of client.iterateLogs(runId, { skip: progress.logsSeen, signal, priority: "report" })) {
        rest.push(entry);
        if (rest.length >= TRACE_TAIL_MAX) break;
      }
    }
    if (rest.length > 0) task = await store.updateTask(task.id, { progress: foldProgress(progress, rest, task.thread.triggerPhrase) });
    return this.reporter.finish(task, run);
  }

  /** Next poll: the run's own backoff, stretched so that all watches fit in their share of the budget. */
  private async reschedule(task: Task, changed: boolean): Promise<JobOutcome & { kind: "later" }> {
    const { poll, pollShare, progress, scale } = this.context.settings;
    const counts = await this.taskCounts();
    const watching = counts.watching ?? 0;
    const points = RATE_LIMITS.sharedStrict.points;
    const durationMs = RATE_LIMITS.sharedStrict.durationSeconds * 1000 * scale;
    const jitter = 0.9 + Math.random() * 0.2;
    let own: number;
    let delayMs: number;
    if (this.isSwept(task)) {
      // Progress only: a thread with news is read again twice as soon as a quiet one, and a quiet one at least every few minutes when the budget allows.
      own = changed ? poll.initial : Math.min(progress.maxIntervalMs, Math.max(poll.initial, task.pollIntervalMs * poll.factor));
      const fairShare = ((watching * durationMs) / (points * progress.share)) * (changed ? 0.5 : 1);
      delayMs = Math.max(own, fairShare) * jitter;
    } else {
      own = changed ? poll.initial : Math.min(poll.max, Math.max(poll.initial, task.pollIntervalMs * poll.factor));
      // Creates waiting, not a full window: a read rescheduled while the window is full would otherwise wait a longer share than its round's.
      const startsWaiting = (counts.queued ?? 0) > 0 || this.context.client.budget.waiting("create") > 0;
      const fairShare = (watching * durationMs) / (points * (startsWaiting ? pollShare.busy : pollShare.idle));
      // Status reads that fill the budget go round robin: every run waits the same share, so the run read longest ago is
      // read next and none waits a cycle and a tenth. The jitter only spreads runs' own backoff, where the budget has room.
      delayMs = Math.max(own * jitter, fairShare);
    }
    await this.context.store.updateTask(task.id, { nextPollAt: this.context.now() + delayMs, pollIntervalMs: own });
    return { kind: "later", delayMs };
  }

  /**
   * The tasks by state, for pacing: polls that reschedule while a count is being read share it. On
   * Redis a count is a transaction of one command a state; 200 jobs rescheduling at once (a replica's
   * start with 1,000 watches) each read their own, a burst of short-lived replies that V8 promotes
   * and keeps as heap until its next full collection (BENCHMARKS.md, memory).
   */
  private taskCounts(): Promise<Partial<Record<Task["state"], number>>> {
    this.counting ??= this.context.store.countByState().finally(() => (this.counting = null));
    return this.counting;
  }

  /** Progress is optional (results are not): at most one edit per interval per comment, and a new follow-up shows at once. */
  private async maybeEditProgress(task: Task, changed: boolean): Promise<void> {
    const held = await this.output.heldCount(task);
    const heldChanged = this.output.followUpsView(task, held) !== this.output.followUpsShown(task.id);
    if (!changed && !heldChanged) return;
    const now = this.context.now();
    if (!heldChanged && now - task.lastEditAt < this.context.settings.editIntervalMs) return;
    if (!heldChanged && this.editWindow.delayUntilFree(now) > 0) return;
    this.editWindow.record(now);
    await this.context.store.updateTask(task.id, { lastEditAt: now });
    await this.output.editTracking(task, heldChanged ? "acknowledge" : "progress", held);
  }
}

/** A follow-up reached the agent after the sweep that saw the run final began reading. */
function handOverIsStale(task: Task): boolean {
  const sweptAt = task.sweptAt ?? Number.NEGATIVE_INFINITY;
  return task.delivered.some((message) => message.at >= sweptAt);
}

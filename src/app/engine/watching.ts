/**
 * Watching a run: one poll a step (its status and the new steps of its log), the next poll spaced so
 * that every watch fits in the service's read budget, progress shown on the tracking comment at a
 * bounded pace, and the run handed to the reporter once final or past its deadline.
 */
import { NotFoundError, PermissionError } from "../../service/errors.js";
import { SlidingWindowLog } from "../../service/sliding-window.js";
import { classifyRunStatus, isFinalPhase } from "../../service/status.js";
import { RATE_LIMITS, type AgentRun, type LogEntry } from "../../service/wire.js";
import { foldProgress } from "../progress.js";
import type { JobOutcome } from "../queue/types.js";
import type { Task, TraceProgress } from "../store/types.js";
import { DONE, TAKE_AGAIN, transition, type EngineContext } from "./context.js";
import type { Interrupter } from "./interrupting.js";
import type { Reporter } from "./reporting.js";
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

  constructor(
    private readonly context: EngineContext,
    private readonly output: ThreadOutput,
    private readonly reporter: Reporter,
    private readonly interrupter: Interrupter,
  ) {
    this.editWindow = new SlidingWindowLog(context.settings.progressEditsPerMinute, 60_000 * context.settings.scale);
  }

  async pollOnce(task: Task): Promise<JobOutcome> {
    const runId = task.runId;
    if (runId === null) return DONE;
    if (this.context.now() >= task.deadlineAt) return this.reportStillGoing(task, runId);
    // Before the poll: a follow-up that reached the agent is seen working in this very poll.
    task = await this.interrupter.deliverPending(task);
    let poll: PollResult;
    try {
      poll = await this.poll(runId, task.progress.logsSeen);
    } catch (error) {
      return this.pollFailed(task, runId, error);
    }
    if (poll.finalRun) return this.reporter.finish(task, poll.finalRun);

    const progress = foldProgress(task.progress, poll.entries, task.thread.triggerPhrase);
    const changed = poll.status !== task.lastStatus || progress.currentStep !== task.progress.currentStep;
    task = await this.context.store.updateTask(task.id, { progress, lastStatus: poll.status ?? null });
    if (isFinalPhase(classifyRunStatus(poll.status))) return this.finishWithTrace(task, runId, poll, progress);
    const outcome = await this.reschedule(task, changed);
    await this.maybeEditProgress(task, changed);
    return outcome;
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

  private async poll(runId: number, logsSeen: number): Promise<PollResult> {
    const { client, signal } = this.context;
    if (this.logsUnavailable) {
      const run = await client.getRun(runId, { signal });
      if (isFinalPhase(classifyRunStatus(run.status))) return { status: run.status, entries: [], totalLogs: undefined, finalRun: run };
      return { status: run.status, entries: [], totalLogs: undefined };
    }
    // One request gives both the status and the new steps (ALPHA endpoint; falls back to getRun).
    const page = await client.listLogs(runId, { skip: logsSeen, limit: LOG_PAGE }, { signal });
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
    const run = await client.getRun(runId, { signal });
    const rest: LogEntry[] = [];
    const more = typeof poll.totalLogs === "number" ? poll.totalLogs > progress.logsSeen : poll.entries.length === LOG_PAGE;
    if (more) {
      for await (const entry of client.iterateLogs(runId, { skip: progress.logsSeen, signal })) {
        rest.push(entry);
        if (rest.length >= TRACE_TAIL_MAX) break;
      }
    }
    if (rest.length > 0) task = await store.updateTask(task.id, { progress: foldProgress(progress, rest, task.thread.triggerPhrase) });
    return this.reporter.finish(task, run);
  }

  /** Next poll: the run's own backoff, stretched so that all watches fit in the polling share of the budget. */
  private async reschedule(task: Task, changed: boolean): Promise<JobOutcome> {
    const { poll, pollShare, scale } = this.context.settings;
    const own = changed ? poll.initial : Math.min(poll.max, Math.max(poll.initial, task.pollIntervalMs * poll.factor));
    const counts = await this.context.store.countByState();
    const watching = counts.watching ?? 0;
    const startsWaiting = (counts.queued ?? 0) > 0 || this.context.client.budget.busy("create");
    const points = RATE_LIMITS.sharedStrict.points;
    const durationMs = RATE_LIMITS.sharedStrict.durationSeconds * 1000 * scale;
    const fairShare = (watching * durationMs) / (points * (startsWaiting ? pollShare.busy : pollShare.idle));
    const delayMs = Math.max(own, fairShare) * (0.9 + Math.random() * 0.2);
    await this.context.store.updateTask(task.id, { nextPollAt: this.context.now() + delayMs, pollIntervalMs: own });
    return { kind: "later", delayMs };
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

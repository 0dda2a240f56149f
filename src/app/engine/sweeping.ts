/**
 * Sweeping the organization's runs list: where the service lists runs (detected on the first
 * sweep), one replica at a time (the sweep lease) reads the list newest first, as many pages as it
 * takes to cover the oldest watched run, and
 * - marks each watched run it saw still going (`sweptAt`): its own reads are then progress only;
 * - hands each run it saw final to its task's job (the final run stored, the job brought forward),
 *   which any replica may run: the report's reads go first in the budget;
 * - brings forward the own read of a watched run it did not see.
 * The pace: at most `sweep.share` of the shared budget, so progress reads keep the rest.
 */
import { DeadlineError } from "../../service/errors.js";
import { sweepRuns } from "../../service/run-sweep.js";
import { classifyRunStatus, isFinalPhase } from "../../service/status.js";
import { LIST_PAGE_MAX, RATE_LIMITS, type AgentRun } from "../../service/wire.js";
import { taskJobId } from "../queue/types.js";
import type { LeaseHold, Leases } from "../lease.js";
import { transition, type EngineContext } from "./context.js";

/** The lease's name among the backend's leases (one sweeper per deployment). */
const SWEEP_LEASE = "runs-sweep";
/**
 * How long the lease outlives its holder's last renewal (real ms): a replica killed outright hands
 * the sweeps over after at most this. Its holder renews it every third of it.
 */
export const SWEEP_LEASE_TTL_MS = 10_000;

/** What the last sweep did, for operators and tests. */
export interface SweepReport {
  watched: number;
  pagesRead: number;
  seen: number;
  /** Runs seen final and handed to their tasks' jobs by this sweep. */
  handedOver: number[];
  ownReadsBroughtForward: number;
}

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private hold: LeaseHold | null = null;
  private claiming: Promise<boolean> | null = null;
  private sourceType;
  /** The list endpoint answered 404/405: watches read each run on their own from now on. */
  private unsupported = false;
  private lastPages = 1;
  private listWorks = false;
  private readonly listeners = new Set<(report: SweepReport) => void>();

  constructor(
    private readonly context: EngineContext,
    private readonly leases: Leases,
  ) {
    this.sourceType = context.settings.sweep.sourceType;
  }

  /**
   * Sweeps will show this process's runs soon: it holds the lease (its first sweep is due at once),
   * or it has seen the list work; never once the list is known missing.
   */
  get expectsSweeps(): boolean {
    return this.context.settings.sweep.enabled && !this.unsupported && !this.stopped && (this.hold !== null || this.listWorks);
  }

  start(): void {
    if (!this.context.settings.sweep.enabled || !this.stopped) return;
    this.stopped = false;
    const renew = () => {
      if (this.stopped) return;
      void this.claim()
        .catch(() => undefined)
        .finally(() => {
          if (this.stopped) return;
          this.renewTimer = setTimeout(renew, SWEEP_LEASE_TTL_MS / 3);
          this.renewTimer.unref?.();
        });
    };
    renew();
    this.schedule(0);
  }

  private markUnsupported(): void {
    if (this.unsupported) return;
    this.unsupported = true;
    clearTimeout(this.timer);
    this.context.log.warn({}, "the service has no runs list: every watched run is read on its own");
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.renewTimer);
    const hold = this.hold;
    this.hold = null;
    await hold?.release().catch(() => undefined);
  }

  /**
   * Renews the lease when this process holds it, or takes it when it is free; true while held.
   * A renewal that finds it lost (this process stalled past its time to live) lets it go.
   */
  private claim(): Promise<boolean> {
    // One claim at a time: the renewal timer and a sweep's tick may ask together.
    this.claiming ??= this.claimOnce().finally(() => (this.claiming = null));
    return this.claiming;
  }

  private async claimOnce(): Promise<boolean> {
    if (this.hold && !(await this.hold.renew())) this.hold = null;
    if (!this.hold) {
      const hold = await this.leases.tryAcquire(SWEEP_LEASE, SWEEP_LEASE_TTL_MS);
      // Stopped while it was being taken: give it straight back.
      if (hold && this.stopped) await hold.release();
      else this.hold = hold;
    }
    return this.hold !== null;
  }

  /** Called after each sweep (tests and benchmarks watch the sweeper through it). */
  onSweep(listener: (report: SweepReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.unsupported) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), Math.max(0, delayMs));
    this.timer.unref?.();
  }

  /** At most `share` of the shared budget: a sweep of N pages every N ÷ (share × 60/min), never closer than the minimum. */
  private interval(): number {
    const { sweep, scale } = this.context.settings;
    const windowMs = RATE_LIMITS.sharedStrict.durationSeconds * 1000 * scale;
    const perPage = windowMs / (RATE_LIMITS.sharedStrict.points * sweep.share);
    return Math.max(sweep.minIntervalMs, this.lastPages * perPage);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    // The interval runs from this sweep's start: its pages spread over it, so the share holds and a long sweep does not add its own length.
    const startedAt = Date.now();
    try {
      // Taken, renewed or found held by another replica, on the server right before sweeping.
      if (await this.claim()) await this.sweepOnce();
    } catch (error) {
      if (!(error instanceof DeadlineError) || !this.context.signal.aborted) {
        this.context.log.warn({ err: error }, "a sweep of the runs list failed; the next one tries again");
      }
    } finally {
      this.running = false;
      this.schedule(this.interval() - (Date.now() - startedAt));
    }
  }

  private async sweepOnce(): Promise<void> {
    const { store, client, signal, now } = this.context;
    const watched = await store.listWatchedRuns();
    if (watched.length === 0) {
      this.lastPages = 1;
      return;
    }
    const byRun = new Map(watched.map((w) => [w.runId, w]));
    // Before the first page: a follow-up that reaches a run after this is known to be newer than what the pages show.
    const startedAt = now();
    const stillGoing: number[] = [];
    const handedOver: number[] = [];
    // Page by page: a run seen final is handed over before the sweep reads on (with 1,000 runs in flight a sweep takes half a minute).
    const onPage = async (runs: readonly AgentRun[]) => {
      for (const run of runs) {
        const { taskId } = byRun.get(run.id)!;
        if (!isFinalPhase(classifyRunStatus(run.status))) stillGoing.push(taskId);
        else if (await this.handOver(taskId, run, startedAt)) handedOver.push(run.id);
      }
    };
    const sweep = await sweepRuns(client, {
      runIds: new Set(byRun.keys()),
      oldestSentAt: Math.min(...watched.map((w) => w.sentAt)),
      signal,
      priority: "sweep",
      onPage,
      ...(this.sourceType ? { sourceType: this.sourceType } : {}),
    });
    if (sweep.kind === "unsupported") {
      this.markUnsupported();
      return;
    }
    this.listWorks = true;
    this.lastPages = Math.max(1, sweep.pagesRead, Math.ceil(watched.length / LIST_PAGE_MAX));
    await store.markSwept(stillGoing, now());
    const missing = watched.filter((w) => !sweep.seen.has(w.runId));
    if (missing.length > 0 && sweep.complete && this.sourceType) {
      // The filter did not select every run of ours (a deployment that lists them under another source): sweep everything.
      this.context.log.warn(
        { sourceType: this.sourceType, missing: missing.length },
        "the runs list's source_type filter hid watched runs; sweeping without it",
      );
      this.sourceType = null;
    }
    // Not shown (older than the pages read, or not listed at all): the run's own read comes forward.
    const fallback = missing.sort((a, b) => a.nextPollAt - b.nextPollAt).slice(0, this.context.settings.sweep.fallbackReadsPerSweep);
    for (const w of fallback) await this.context.queue.promote(taskJobId(w.taskId));
    const report = {
      watched: watched.length,
      pagesRead: sweep.pagesRead,
      seen: sweep.seen.size,
      handedOver,
      ownReadsBroughtForward: fallback.length,
    };
    for (const listener of this.listeners) listener(report);
  }

  /**
   * The run is final: its final state goes into the store and its task's job comes forward, on
   * whichever replica takes it. A job running right now finds the final run when it writes its
   * poll; one that missed the nudge is nudged again by the next sweep (the task is still watched).
   * `sweptAt` dates what the sweep saw: a follow-up that reached the agent after it makes it stale.
   */
  private async handOver(taskId: number, run: AgentRun, sweptAt: number): Promise<boolean> {
    const task = await this.context.store.getTask(taskId);
    if (!task) return false;
    // Under the thread's lock and only while watched: a task reported or stopped meanwhile is left alone.
    const marked = await transition(this.context, task, ["watching"], { finalRun: run as Record<string, unknown>, sweptAt });
    if (marked) await this.context.queue.promote(taskJobId(task.id));
    return marked !== null;
  }
}

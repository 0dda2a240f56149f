/**
 * The write pacer itself: one lane per installation, each running one write at a time in priority
 * order once the installation's windows allow it (this process's, and Redis's when shared), dropping
 * the writes that may be dropped, and pausing the lane when GitHub answers with a rate limit.
 */
import { Lane, type Pending } from "./lanes.js";
import { rateLimitPause, scaledLimits, type ScaledLimits } from "./limits.js";
import { LocalWindows } from "./local-windows.js";
import { SharedWindows } from "./shared-windows.js";
import {
  DROPPABLE_PRIORITIES,
  WRITE_PRIORITIES,
  WritePacerStoppedError,
  type DropReason,
  type ScheduleOptions,
  type WriteEvent,
  type WriteOutcome,
  type WritePacer,
  type WritePacerOptions,
  type WritePriority,
} from "./types.js";

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

export class Pacer implements WritePacer {
  private readonly limits: ScaledLimits;
  private readonly local: LocalWindows;
  private readonly shared: SharedWindows | undefined;
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly options: WritePacerOptions) {
    this.limits = scaledLimits(options);
    this.local = new LocalWindows(this.limits);
    const reportSharedError = (error: unknown) => this.hook(() => this.options.onSharedPacingError?.(asError(error)));
    this.shared = options.redis
      ? new SharedWindows(options.redis, this.limits, options.keyPrefix ?? "agent-run-bridge:github-writes", reportSharedError)
      : undefined;
  }

  schedule<T>(
    installationId: number | null,
    priority: WritePriority,
    write: () => Promise<T>,
    options: ScheduleOptions = {},
  ): Promise<WriteOutcome<T>> {
    if (installationId !== null && !Number.isInteger(installationId)) {
      return Promise.reject(new TypeError(`installationId must be an integer or null, got ${String(installationId)}.`));
    }
    if (!WRITE_PRIORITIES.includes(priority)) {
      return Promise.reject(new TypeError(`priority must be one of ${WRITE_PRIORITIES.join(", ")}, got ${JSON.stringify(priority)}.`));
    }
    const { supersedeKey, maxWaitMs } = options;
    if (maxWaitMs !== undefined && !(maxWaitMs >= 0 && Number.isFinite(maxWaitMs))) {
      return Promise.reject(new RangeError(`maxWaitMs must be a finite number of ms, 0 or more, got ${maxWaitMs}.`));
    }
    if (this.stopped) return Promise.reject(new WritePacerStoppedError());

    const key = Lane.keyOf(installationId);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = new Lane(key);
      this.lanes.set(key, lane);
    }
    if (supersedeKey !== undefined) this.supersede(lane, supersedeKey);

    const scheduledAt = Date.now();
    const ownLane = lane;
    return new Promise<WriteOutcome<T>>((resolve, reject) => {
      const pending: Pending = {
        installationId,
        priority,
        write,
        supersedeKey,
        // Acknowledgements and results are never dropped, however long they wait.
        staleAt: DROPPABLE_PRIORITIES.has(priority) && maxWaitMs !== undefined ? scheduledAt + maxWaitMs : undefined,
        scheduledAt,
        attempts: 0,
        resolve: resolve as (outcome: WriteOutcome<unknown>) => void,
        reject,
      };
      ownLane.queues[priority].push(pending);
      this.armStaleTimer(ownLane, pending);
      // A lane waiting on its timer re-picks its head when it fires; no need to ask again now.
      if (!ownLane.busy && !ownLane.timer) this.pump(ownLane);
    });
  }

  waiting(installationId?: number | null): number {
    if (installationId === undefined) return [...this.lanes.values()].reduce((sum, lane) => sum + lane.queued, 0);
    return this.lanes.get(Lane.keyOf(installationId))?.queued ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = undefined;
      for (const pending of lane.drain()) {
        if (pending.staleTimer) clearTimeout(pending.staleTimer);
        this.emit(pending, "stopped", Date.now());
        pending.reject(new WritePacerStoppedError());
      }
    }
    await Promise.allSettled([...this.running]);
  }

  private supersede(lane: Lane, key: string): void {
    const progress = lane.queues.progress;
    for (let i = progress.length - 1; i >= 0; i--) {
      const pending = progress[i]!;
      if (pending.supersedeKey !== key) continue;
      progress.splice(i, 1);
      this.drop(pending, "superseded");
    }
  }

  private drop(pending: Pending, reason: DropReason): void {
    if (pending.staleTimer) clearTimeout(pending.staleTimer);
    this.emit(pending, reason, Date.now());
    pending.resolve({ kind: "dropped", reason });
  }

  private armStaleTimer(lane: Lane, pending: Pending): void {
    if (pending.staleAt === undefined) return;
    const staleAt = pending.staleAt;
    pending.staleTimer = setTimeout(
      () => {
        // Node's timers run on a monotonic clock and may fire a millisecond before Date.now() reaches staleAt:
        // wait out the rest rather than drop a write before its maxWaitMs.
        if (Date.now() < staleAt) return this.armStaleTimer(lane, pending);
        if (!lane.remove(pending)) return;
        this.drop(pending, "stale");
        this.forgetIfIdle(lane);
      },
      Math.max(0, staleAt - Date.now()),
    );
    pending.staleTimer.unref?.();
  }

  /** The next write to start: by priority, first come first served; progress writes past their wait are dropped on the way. */
  private head(lane: Lane): Pending | undefined {
    const now = Date.now();
    for (const priority of WRITE_PRIORITIES) {
      const queue = lane.queues[priority];
      while (queue.length > 0) {
        const first = queue[0]!;
        if (first.staleAt !== undefined && now > first.staleAt) {
          queue.shift();
          this.drop(first, "stale");
          continue;
        }
        return first;
      }
    }
    return undefined;
  }

  private pump(lane: Lane): void {
    if (this.stopped || lane.busy) return;
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = undefined;
    if (!this.head(lane)) {
      this.forgetIfIdle(lane);
      return;
    }
    lane.busy = true;
    const turn = this.advance(lane).finally(() => {
      this.running.delete(turn);
      lane.busy = false;
      if (!lane.timer) this.pump(lane);
    });
    this.running.add(turn);
  }

  /** Takes a turn for the lane (or learns how long to wait), then runs the write at the head of its queue. */
  private async advance(lane: Lane): Promise<void> {
    const wait = await this.take(lane);
    // The head may have changed while we asked (superseded, stale, or a higher priority arrived).
    const head = this.stopped ? undefined : this.head(lane);
    if (wait > 0) {
      if (head) {
        lane.timer = setTimeout(
          () => {
            lane.timer = undefined;
            this.pump(lane);
          },
          Math.max(1, Math.ceil(wait)),
        );
      }
      return;
    }
    try {
      if (!head) return; // the turn goes unused, and still counts
      lane.remove(head);
      if (head.staleTimer) clearTimeout(head.staleTimer);
      await this.run(lane, head);
    } finally {
      await this.finish(lane);
    }
  }

  private async run(lane: Lane, pending: Pending): Promise<void> {
    pending.attempts += 1;
    const startedAt = Date.now();
    try {
      const value = await pending.write();
      this.emit(pending, "written", startedAt);
      pending.resolve({ kind: "written", value });
      return;
    } catch (error) {
      const limited = rateLimitPause(error, this.limits);
      if (!limited) {
        this.emit(pending, "failed", startedAt);
        pending.reject(error);
        return;
      }
      const { status, pauseMs } = limited;
      const willRetry = pending.attempts <= this.limits.maxRetries && !this.stopped;
      this.hook(() =>
        this.options.onRateLimited?.({
          installationId: pending.installationId,
          priority: pending.priority,
          status,
          pauseMs,
          attempt: pending.attempts,
          willRetry,
        }),
      );
      // The whole installation waits, not just this write: GitHub limits the token, not the request.
      await this.pause(lane.key, pauseMs);
      if (!willRetry || this.stopped) {
        this.emit(pending, "failed", startedAt);
        pending.reject(error);
        return;
      }
      lane.queues[pending.priority].unshift(pending);
      this.armStaleTimer(lane, pending);
    }
  }

  /** 0 when a write of the lane may start now (it is counted, and held across replicas), else ms to wait. */
  private async take(lane: Lane): Promise<number> {
    const localWait = this.local.wait(lane.key, Date.now());
    if (localWait > 0) return localWait;
    if (this.shared) {
      const shared = await this.shared.take(lane.key);
      if (shared.kind === "wait") return shared.ms;
      if (shared.kind === "go") lane.heldAs = shared.heldAs;
    }
    this.local.record(lane.key, Date.now());
    return 0;
  }

  /** After a write (or a turn left unused): the next one waits minInterval from now, in this process and across replicas. */
  private async finish(lane: Lane): Promise<void> {
    this.local.finish(lane.key, Date.now());
    const member = lane.heldAs;
    if (member === undefined || !this.shared) return;
    lane.heldAs = undefined;
    await this.shared.release(lane.key, member);
  }

  private async pause(lane: string, ms: number): Promise<void> {
    this.local.pause(lane, Date.now() + ms);
    if (!this.shared || ms <= 0) return;
    await this.shared.pause(lane, ms);
  }

  private forgetIfIdle(lane: Lane): void {
    if (lane.busy || lane.timer || lane.queued > 0) return;
    if (this.lanes.get(lane.key) === lane) this.lanes.delete(lane.key);
  }

  private emit(pending: Pending, outcome: WriteEvent["outcome"], at: number): void {
    this.hook(() =>
      this.options.onWrite?.({
        installationId: pending.installationId,
        priority: pending.priority,
        queuedMs: Math.max(0, at - pending.scheduledAt),
        outcome,
        attempts: pending.attempts,
      }),
    );
  }

  /** A metrics or logging hook that throws must not break pacing. */
  private hook(call: () => void): void {
    try {
      call();
    } catch {
      // The hook's own failure is its owner's to report.
    }
  }
}

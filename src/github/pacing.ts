/**
 * GitHub writes paced per installation. GitHub's secondary limits belong to each installation's
 * token: about 80 content-creating requests a minute, 500 an hour, and a second between writes of
 * one identity, made one at a time. Each installation gets its own lane, so installations never
 * wait behind each other; within a lane, acknowledgements go before results, results before
 * progress edits, and a progress edit that a later write makes pointless, or that waited too long,
 * is dropped instead of sent. With Redis, the windows and pauses are shared by every replica.
 */
import {
  SlidingWindowLog,
  extendRedisPause,
  releaseRedisHold,
  takeFromRedisWindows,
  type RedisEval,
  type RedisHold,
  type RedisWindow,
} from "../service/sliding-window.js";
import { GitHubRateLimitError, rateLimitWaitMs, toGitHubError } from "./errors.js";

/**
 * Served in this order within one installation. `courtesy` (the 👀 on a trigger, worth a write only
 * until its tracking comment says more) and `progress` writes may be dropped; the others never are.
 */
export const WRITE_PRIORITIES = ["acknowledge", "result", "courtesy", "progress"] as const;
export type WritePriority = (typeof WRITE_PRIORITIES)[number];

/** The priorities whose writes may be dropped (stale past `maxWaitMs`, or superseded). */
export const DROPPABLE_PRIORITIES: ReadonlySet<WritePriority> = new Set(["courtesy", "progress"]);

export type DropReason = "superseded" | "stale";
export type WriteOutcome<T> = { kind: "written"; value: T } | { kind: "dropped"; reason: DropReason };

export interface ScheduleOptions {
  /**
   * Writes of one installation with the same key replace each other: scheduling one drops every
   * queued `progress` write with that key that has not started ("superseded").
   */
  supersedeKey?: string;
  /**
   * `courtesy` and `progress` writes only: dropped ("stale") when they cannot start within this
   * many ms of `schedule()`. Taken as given (not multiplied by `timeScale`).
   */
  maxWaitMs?: number;
}

/** One per scheduled write, when it settles (for metrics). */
export interface WriteEvent {
  installationId: number | null;
  priority: WritePriority;
  /** From `schedule()` to the start of the attempt that settled it (or to the drop). */
  queuedMs: number;
  outcome: "written" | "failed" | "superseded" | "stale" | "stopped";
  /** How many times the write was sent (0 when dropped before sending). */
  attempts: number;
}

/** GitHub answered a write with a rate limit: the installation's lane pauses for `pauseMs`. */
export interface RateLimitedEvent {
  installationId: number | null;
  priority: WritePriority;
  status: number | undefined;
  pauseMs: number;
  attempt: number;
  willRetry: boolean;
}

/** GitHub's figures for one installation (facts.md), before `timeScale`. */
export const GITHUB_WRITE_LIMITS = {
  minIntervalMs: 1_000,
  perMinute: 80,
  perHour: 500,
  /** GitHub's advice when a rate-limit answer says nothing about waiting: at least a minute. */
  defaultPauseMs: 60_000,
  maxRetries: 3,
  /**
   * How long one replica may hold an installation's turn across replicas: GitHub ends requests
   * that take over 10 s, so a longer hold only means its holder died (then the hold expires).
   */
  holdMs: 15_000,
} as const;

export interface WritePacerOptions {
  /**
   * Least time between two writes of one installation (default 1,000 ms), counted from the end of
   * one to the start of the next: they are made one at a time, so GitHub sees them at least this far apart.
   */
  minIntervalMs?: number;
  /** At most this many writes of one installation start in any minute (default 80). */
  perMinute?: number;
  /** At most this many writes of one installation start in any hour (default 500). */
  perHour?: number;
  /**
   * Multiplies every duration the pacer waits (1 = real time), GitHub's `retry-after` and
   * `x-ratelimit-reset` included, like the service budget's `timeScale`: for tests and benchmarks.
   */
  timeScale?: number;
  /** Times a write is sent again after a rate-limit answer before its error is passed on (default 3). */
  maxRetries?: number;
  /** Shares the windows and pauses with every process using the same Redis and `keyPrefix`. */
  redis?: RedisEval;
  /** Namespace of the Redis keys (default `agent-run-bridge:github-writes`); one per GitHub App. */
  keyPrefix?: string;
  onWrite?: (event: WriteEvent) => void;
  onRateLimited?: (event: RateLimitedEvent) => void;
  /** Redis failed: this take was paced by this process alone (writes keep flowing). */
  onSharedPacingError?: (error: Error) => void;
}

export interface WritePacer {
  /**
   * Runs `write` when the installation's lane allows it. Resolves with its value, or with why a
   * `courtesy` or `progress` write was dropped; rejects with the write's own error (after retrying rate limits).
   */
  schedule<T>(
    installationId: number | null,
    priority: WritePriority,
    write: () => Promise<T>,
    options?: ScheduleOptions,
  ): Promise<WriteOutcome<T>>;
  /** Writes queued and not yet started: of one installation, or of all when no argument is given. */
  waiting(installationId?: number | null): number;
  /** Rejects every queued write with WritePacerStoppedError and resolves once the writes under way have settled. */
  stop(): Promise<void>;
}

export class WritePacerStoppedError extends Error {
  override name = "WritePacerStoppedError";
  constructor() {
    super("The GitHub write pacer was stopped before this write started; nothing was sent.");
  }
}

interface ScaledLimits {
  minIntervalMs: number;
  minuteMs: number;
  perMinute: number;
  hourMs: number;
  perHour: number;
  defaultPauseMs: number;
  holdMs: number;
  timeScale: number;
}

/** The in-process windows of every installation (all of them, also when Redis is shared: they never let more through than Redis would). */
class LocalWindows {
  private readonly lanes = new Map<string, { interval: SlidingWindowLog; minute: SlidingWindowLog; hour: SlidingWindowLog; pausedUntil: number }>();
  private recordsSinceSweep = 0;

  constructor(private readonly limits: ScaledLimits) {}

  wait(lane: string, now: number): number {
    const windows = this.lanes.get(lane);
    if (!windows) return 0;
    return Math.max(windows.pausedUntil - now, windows.interval.delayUntilFree(now), windows.minute.delayUntilFree(now), windows.hour.delayUntilFree(now));
  }

  record(lane: string, now: number): void {
    const windows = this.windowsOf(lane);
    windows.interval.record(now);
    windows.minute.record(now);
    windows.hour.record(now);
    // Forget installations idle for an hour, so a long-lived App does not keep every one it ever saw.
    if (++this.recordsSinceSweep >= 256) {
      this.recordsSinceSweep = 0;
      for (const [key, w] of this.lanes) if (w.hour.count(now) === 0 && w.pausedUntil <= now) this.lanes.delete(key);
    }
  }

  /** A write ended: the next one waits minInterval from now (GitHub sees writes spaced, whatever their latency). */
  finish(lane: string, now: number): void {
    this.windowsOf(lane).interval.record(now);
  }

  pause(lane: string, until: number): void {
    const windows = this.windowsOf(lane);
    windows.pausedUntil = Math.max(windows.pausedUntil, until);
  }

  private windowsOf(lane: string) {
    let windows = this.lanes.get(lane);
    if (!windows) {
      windows = {
        interval: new SlidingWindowLog(1, this.limits.minIntervalMs),
        minute: new SlidingWindowLog(this.limits.perMinute, this.limits.minuteMs),
        hour: new SlidingWindowLog(this.limits.perHour, this.limits.hourMs),
        pausedUntil: 0,
      };
      this.lanes.set(lane, windows);
    }
    return windows;
  }
}

interface Pending {
  readonly installationId: number | null;
  readonly priority: WritePriority;
  readonly write: () => Promise<unknown>;
  readonly supersedeKey: string | undefined;
  readonly staleAt: number | undefined;
  readonly scheduledAt: number;
  attempts: number;
  staleTimer?: NodeJS.Timeout;
  resolve(outcome: WriteOutcome<unknown>): void;
  reject(error: unknown): void;
}

interface Lane {
  readonly key: string;
  readonly queues: Record<WritePriority, Pending[]>;
  /** A take or a write is under way: one write at a time per installation and process (GitHub's advice). */
  busy: boolean;
  timer?: NodeJS.Timeout;
  /** The member of the Redis hold this process took for the write under way. */
  heldAs?: string;
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}.`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive whole number, got ${value}.`);
  return value;
}

function laneKeyOf(installationId: number | null): string {
  return installationId === null ? "none" : String(installationId);
}

function queuedIn(lane: Lane): number {
  return WRITE_PRIORITIES.reduce((sum, priority) => sum + lane.queues[priority].length, 0);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

class Pacer implements WritePacer {
  private readonly limits: ScaledLimits;
  private readonly maxRetries: number;
  private readonly local: LocalWindows;
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Promise<void>>();
  private readonly instance = Math.random().toString(36).slice(2);
  private takes = 0;
  private stopped = false;

  constructor(private readonly options: WritePacerOptions) {
    const scale = positive("timeScale", options.timeScale ?? 1);
    this.limits = {
      minIntervalMs: positive("minIntervalMs", options.minIntervalMs ?? GITHUB_WRITE_LIMITS.minIntervalMs) * scale,
      minuteMs: 60_000 * scale,
      perMinute: positiveInteger("perMinute", options.perMinute ?? GITHUB_WRITE_LIMITS.perMinute),
      hourMs: 3_600_000 * scale,
      perHour: positiveInteger("perHour", options.perHour ?? GITHUB_WRITE_LIMITS.perHour),
      defaultPauseMs: GITHUB_WRITE_LIMITS.defaultPauseMs * scale,
      holdMs: GITHUB_WRITE_LIMITS.holdMs * scale,
      timeScale: scale,
    };
    const retries = options.maxRetries ?? GITHUB_WRITE_LIMITS.maxRetries;
    if (!(Number.isInteger(retries) && retries >= 0)) throw new RangeError(`maxRetries must be a whole number, 0 or more, got ${retries}.`);
    this.maxRetries = retries;
    this.local = new LocalWindows(this.limits);
  }

  schedule<T>(installationId: number | null, priority: WritePriority, write: () => Promise<T>, options: ScheduleOptions = {}): Promise<WriteOutcome<T>> {
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

    const key = laneKeyOf(installationId);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, queues: { acknowledge: [], result: [], courtesy: [], progress: [] }, busy: false };
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
    if (installationId === undefined) return [...this.lanes.values()].reduce((sum, lane) => sum + queuedIn(lane), 0);
    const lane = this.lanes.get(laneKeyOf(installationId));
    return lane ? queuedIn(lane) : 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = undefined;
      for (const priority of WRITE_PRIORITIES) {
        for (const pending of lane.queues[priority].splice(0)) {
          if (pending.staleTimer) clearTimeout(pending.staleTimer);
          this.emit(pending, "stopped", Date.now());
          pending.reject(new WritePacerStoppedError());
        }
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
    pending.staleTimer = setTimeout(() => {
      const queue = lane.queues[pending.priority];
      const index = queue.indexOf(pending);
      if (index < 0) return;
      queue.splice(index, 1);
      this.drop(pending, "stale");
      this.forgetIfIdle(lane);
    }, Math.max(0, pending.staleAt - Date.now()));
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
        lane.timer = setTimeout(() => {
          lane.timer = undefined;
          this.pump(lane);
        }, Math.max(1, Math.ceil(wait)));
      }
      return;
    }
    try {
      if (!head) return; // the turn goes unused, and still counts
      const queue = lane.queues[head.priority];
      queue.splice(queue.indexOf(head), 1);
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
      const limited = toGitHubError(error, "a paced GitHub write");
      if (!(limited instanceof GitHubRateLimitError)) {
        this.emit(pending, "failed", startedAt);
        pending.reject(error);
        return;
      }
      const pauseMs = (rateLimitWaitMs(limited.signals) ?? GITHUB_WRITE_LIMITS.defaultPauseMs) * this.limits.timeScale;
      const willRetry = pending.attempts <= this.maxRetries && !this.stopped;
      this.hook(() =>
        this.options.onRateLimited?.({ installationId: pending.installationId, priority: pending.priority, status: limited.status, pauseMs, attempt: pending.attempts, willRetry }),
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
    const redis = this.options.redis;
    if (redis) {
      const member = `${this.instance}:${++this.takes}`;
      try {
        const sharedWait = await takeFromRedisWindows(redis, this.redisWindows(lane.key), [this.redisKey(lane.key, "pause")], member, this.redisHold(lane.key));
        if (sharedWait > 0) return sharedWait;
        lane.heldAs = member;
      } catch (error) {
        // A broken Redis must not stop the bot from answering: this process still paces itself.
        this.hook(() => this.options.onSharedPacingError?.(asError(error)));
      }
    }
    this.local.record(lane.key, Date.now());
    return 0;
  }

  /** After a write (or a turn left unused): the next one waits minInterval from now, in this process and across replicas. */
  private async finish(lane: Lane): Promise<void> {
    this.local.finish(lane.key, Date.now());
    const member = lane.heldAs;
    const redis = this.options.redis;
    if (member === undefined || !redis) return;
    lane.heldAs = undefined;
    try {
      await releaseRedisHold(redis, this.redisHold(lane.key), member, this.limits.minIntervalMs);
    } catch (error) {
      // The hold then expires on its own (holdMs).
      this.hook(() => this.options.onSharedPacingError?.(asError(error)));
    }
  }

  private async pause(lane: string, ms: number): Promise<void> {
    this.local.pause(lane, Date.now() + ms);
    const redis = this.options.redis;
    if (!redis || ms <= 0) return;
    try {
      await extendRedisPause(redis, this.redisKey(lane, "pause"), ms);
    } catch (error) {
      this.hook(() => this.options.onSharedPacingError?.(asError(error)));
    }
  }

  // The hash tag keeps one installation's keys in one Redis Cluster slot (the script touches them together).
  private redisKey(lane: string, name: string): string {
    return `${this.options.keyPrefix ?? "agent-run-bridge:github-writes"}:{${lane}}:${name}`;
  }

  private redisHold(lane: string): RedisHold {
    // Another replica's write usually ends within a write's latency: look again after one interval.
    return { key: this.redisKey(lane, "hold"), ms: this.limits.holdMs, pollMs: this.limits.minIntervalMs };
  }

  private redisWindows(lane: string): RedisWindow[] {
    return [
      { key: this.redisKey(lane, "interval"), points: 1, durationMs: this.limits.minIntervalMs },
      { key: this.redisKey(lane, "minute"), points: this.limits.perMinute, durationMs: this.limits.minuteMs },
      { key: this.redisKey(lane, "hour"), points: this.limits.perHour, durationMs: this.limits.hourMs },
    ];
  }

  private forgetIfIdle(lane: Lane): void {
    if (lane.busy || lane.timer || queuedIn(lane) > 0) return;
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

/**
 * The one pacer every GitHub write of a process goes through (Probot's own throttling is then
 * turned off). One lane per installation; with `redis`, shared by every replica.
 */
export function createWritePacer(options: WritePacerOptions = {}): WritePacer {
  return new Pacer(options);
}

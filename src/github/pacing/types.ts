/**
 * What a caller of the write pacer sees: the priorities and which of them may be dropped, what a
 * scheduled write resolves with, the options and hooks, and the pacer's interface.
 */
import type { RedisEval } from "../../service/sliding-window.js";

/**
 * Served in this order within one installation. `courtesy` (the 👀 on a trigger, worth a write only
 * until its tracking comment says more) and `progress` writes may be dropped; the others never are.
 * `outsider` (a refusal to someone who may not trigger) goes last: a stranger never delays the
 * writes of people who may.
 */
export const WRITE_PRIORITIES = ["acknowledge", "result", "courtesy", "progress", "outsider"] as const;
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

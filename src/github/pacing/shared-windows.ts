/**
 * The pacing every replica shares through Redis: each installation's windows, its pause after a
 * rate-limit answer, and the hold that lets one replica write for it at a time. A Redis failure is
 * reported and never stops a write: the process then paces itself alone.
 */
import {
  extendRedisPause,
  releaseRedisHold,
  takeFromRedisWindows,
  type RedisEval,
  type RedisHold,
  type RedisWindow,
} from "../../service/sliding-window.js";
import type { ScaledLimits } from "./limits.js";

/** What Redis said to a take: wait, go (holding the installation's turn), or nothing (it failed). */
export type SharedTake = { kind: "wait"; ms: number } | { kind: "go"; heldAs: string } | { kind: "unshared" };

export class SharedWindows {
  /** Tells this process's holds from other replicas'. */
  private readonly instance = Math.random().toString(36).slice(2);
  private takes = 0;

  constructor(
    private readonly redis: RedisEval,
    private readonly limits: ScaledLimits,
    private readonly keyPrefix: string,
    private readonly reportError: (error: unknown) => void,
  ) {}

  async take(lane: string): Promise<SharedTake> {
    const member = `${this.instance}:${++this.takes}`;
    try {
      const waitMs = await takeFromRedisWindows(this.redis, this.windows(lane), [this.key(lane, "pause")], member, this.hold(lane));
      return waitMs > 0 ? { kind: "wait", ms: waitMs } : { kind: "go", heldAs: member };
    } catch (error) {
      // A broken Redis must not stop the bot from answering: this process still paces itself.
      this.reportError(error);
      return { kind: "unshared" };
    }
  }

  /** The write under way ended: the installation's next write, in any replica, waits minInterval from now. */
  async release(lane: string, heldAs: string): Promise<void> {
    try {
      await releaseRedisHold(this.redis, this.hold(lane), heldAs, this.limits.minIntervalMs);
    } catch (error) {
      // The hold then expires on its own (holdMs).
      this.reportError(error);
    }
  }

  async pause(lane: string, ms: number): Promise<void> {
    try {
      await extendRedisPause(this.redis, this.key(lane, "pause"), ms);
    } catch (error) {
      this.reportError(error);
    }
  }

  // The hash tag keeps one installation's keys in one Redis Cluster slot (the script touches them together).
  private key(lane: string, name: string): string {
    return `${this.keyPrefix}:{${lane}}:${name}`;
  }

  private hold(lane: string): RedisHold {
    // Another replica's write usually ends within a write's latency: look again after one interval.
    return { key: this.key(lane, "hold"), ms: this.limits.holdMs, pollMs: this.limits.minIntervalMs };
  }

  private windows(lane: string): RedisWindow[] {
    return [
      { key: this.key(lane, "interval"), points: 1, durationMs: this.limits.minIntervalMs },
      { key: this.key(lane, "minute"), points: this.limits.perMinute, durationMs: this.limits.minuteMs },
      { key: this.key(lane, "hour"), points: this.limits.perHour, durationMs: this.limits.hourMs },
    ];
  }
}

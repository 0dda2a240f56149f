/**
 * The pacing one process does on its own: per installation, the least interval between writes, the
 * minute's and the hour's windows, and a pause after a rate-limit answer.
 */
import { SlidingWindowLog } from "../../service/sliding-window.js";
import type { ScaledLimits } from "./limits.js";

/** The in-process windows of every installation (all of them, also when Redis is shared: they never let more through than Redis would). */
export class LocalWindows {
  private readonly lanes = new Map<
    string,
    { interval: SlidingWindowLog; minute: SlidingWindowLog; hour: SlidingWindowLog; pausedUntil: number }
  >();
  private recordsSinceSweep = 0;

  constructor(private readonly limits: ScaledLimits) {}

  wait(lane: string, now: number): number {
    const windows = this.lanes.get(lane);
    if (!windows) return 0;
    return Math.max(
      windows.pausedUntil - now,
      windows.interval.delayUntilFree(now),
      windows.minute.delayUntilFree(now),
      windows.hour.delayUntilFree(now),
    );
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

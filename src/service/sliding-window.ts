/**
 * A sliding-window log: at most `limit` events in any window of `windowMs`. Stricter than a fixed
 * window (which allows 2× the limit across a boundary), so the client stays under the service's
 * limit whichever way the service counts.
 */
export class SlidingWindowLog {
  private readonly stamps: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${windowMs}`);
  }

  /** Milliseconds until one more event fits (0 when it fits now). */
  delayUntilFree(now: number): number {
    this.prune(now);
    if (this.stamps.length < this.limit) return 0;
    const oldest = this.stamps[this.stamps.length - this.limit]!;
    return Math.max(0, oldest + this.windowMs - now);
  }

  record(now: number): void {
    this.stamps.push(now);
  }

  /** Events counted in the window ending at `now`. */
  count(now: number): number {
    this.prune(now);
    return this.stamps.length;
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.stamps.length && this.stamps[drop]! <= cutoff) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
  }
}

/**
 * Emulated time. Every duration of the emulator (run lengths, rate-limit windows) is measured on
 * this clock, which runs `1 / timeScale` times faster than the wall clock. Changing the scale
 * re-anchors the clock, so runs in progress keep their emulated progress instead of jumping.
 */

interface Anchor {
  /** Wall-clock epoch ms at which this scale started. */
  wall: number;
  /** Emulated ms at that moment. */
  emulated: number;
  scale: number;
}

export class EmulatedClock {
  // Kept in full so that a past emulated instant maps back to the wall time it happened at.
  private readonly anchors: Anchor[];

  constructor(
    scale: number,
    private readonly wallNow: () => number = Date.now,
  ) {
    assertTimeScale(scale);
    this.anchors = [{ wall: wallNow(), emulated: 0, scale }];
  }

  get scale(): number {
    return this.current.scale;
  }

  /** Emulated milliseconds since the clock was made. */
  now(): number {
    const a = this.current;
    return a.emulated + (this.wallNow() - a.wall) / a.scale;
  }

  setScale(scale: number): void {
    assertTimeScale(scale);
    const emulated = this.now();
    this.anchors.push({ wall: this.wallNow(), emulated, scale });
  }

  /** Jumps emulated time forward: everything due within `emulatedMs` happens at once. */
  advance(emulatedMs: number): void {
    if (!Number.isFinite(emulatedMs) || emulatedMs < 0) {
      throw new RangeError(`time can only be advanced by 0 or more emulated milliseconds, got ${String(emulatedMs)}`);
    }
    const emulated = this.now() + emulatedMs;
    this.anchors.push({ wall: this.wallNow(), emulated, scale: this.scale });
  }

  /**
   * Wall-clock epoch ms at which the clock showed (or will show, at the current scale) `emulated`.
   * An instant skipped by `advance` maps to the wall time of the jump.
   */
  wallTimeAt(emulated: number): number {
    let index = 0;
    for (let i = 0; i < this.anchors.length; i++) {
      if (this.anchors[i]!.emulated <= emulated) index = i;
      else break;
    }
    const anchor = this.anchors[index]!;
    const wall = anchor.wall + (emulated - anchor.emulated) * anchor.scale;
    const next = this.anchors[index + 1];
    return next ? Math.min(wall, next.wall) : wall;
  }

  /** Real milliseconds that `emulatedMs` of emulated time take at the current scale. */
  toRealMs(emulatedMs: number): number {
    return emulatedMs * this.current.scale;
  }

  private get current(): Anchor {
    return this.anchors[this.anchors.length - 1]!;
  }
}

function assertTimeScale(scale: number): void {
  if (typeof scale !== "number" || !Number.isFinite(scale) || scale <= 0) {
    throw new RangeError(`timeScale must be a positive number (1 = real time, 0.01 = 100× faster), got ${String(scale)}`);
  }
}

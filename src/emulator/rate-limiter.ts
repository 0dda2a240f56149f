/**
 * Spec §8 rate limits per API token, as sliding windows (the strictest reading: no burst across a
 * window boundary). Times are emulated milliseconds, so `timeScale` shrinks the windows too.
 * A refused request is not recorded: it does not eat into the budget.
 */
import { RATE_LIMITS } from "../service/wire.js";

export type LimitedEndpoint = "create" | "standard";

export interface RateWindow {
  name: string;
  /** Which endpoints count in this window. */
  appliesTo: readonly LimitedEndpoint[];
  points: number;
  windowMs: number;
  /** Human wording for the 429 detail. */
  describe: string;
}

const EMULATOR_RATE_WINDOWS: readonly RateWindow[] = [
  {
    name: "shared",
    appliesTo: ["create", "standard"],
    points: RATE_LIMITS.sharedStrict.points,
    windowMs: RATE_LIMITS.sharedStrict.durationSeconds * 1000,
    describe: `${RATE_LIMITS.sharedStrict.points} requests per ${RATE_LIMITS.sharedStrict.durationSeconds} s across all endpoints`,
  },
  {
    name: "standard",
    appliesTo: ["standard"],
    points: RATE_LIMITS.standard.points,
    windowMs: RATE_LIMITS.standard.durationSeconds * 1000,
    describe: `${RATE_LIMITS.standard.points} requests per ${RATE_LIMITS.standard.durationSeconds} s on standard endpoints`,
  },
  {
    name: "create",
    appliesTo: ["create"],
    points: RATE_LIMITS.create.points,
    windowMs: RATE_LIMITS.create.durationSeconds * 1000,
    describe: `${RATE_LIMITS.create.points} agent creations per ${RATE_LIMITS.create.durationSeconds} s`,
  },
];

export type RateDecision =
  { allowed: true } | { allowed: false; window: RateWindow; /** emulated ms until one more request fits */ waitMs: number };

/** Pure decision over one window's request times (ascending, emulated ms). */
function decideWindow(stamps: readonly number[], now: number, window: RateWindow): number {
  const inWindow = stamps.filter((t) => t > now - window.windowMs);
  if (inWindow.length < window.points) return 0;
  // The request that must leave the window before one more fits.
  const blocker = inWindow[inWindow.length - window.points]!;
  return Math.max(0, blocker + window.windowMs - now);
}

export class SlidingRateLimiter {
  // token → window name → request times
  private readonly stamps = new Map<string, Map<string, number[]>>();

  constructor(private readonly windows: readonly RateWindow[] = EMULATOR_RATE_WINDOWS) {}

  /** Records the request when it fits every window that applies; otherwise refuses it without recording. */
  tryAcquire(token: string, endpoint: LimitedEndpoint, now: number): RateDecision {
    const applicable = this.windows.filter((w) => w.appliesTo.includes(endpoint));
    const perWindow = this.stampsOf(token);
    let worst: { window: RateWindow; waitMs: number } | undefined;
    for (const window of applicable) {
      const list = prune(perWindow, window, now);
      const waitMs = decideWindow(list, now, window);
      if (waitMs > 0 && (!worst || waitMs > worst.waitMs)) worst = { window, waitMs };
    }
    if (worst) return { allowed: false, ...worst };
    for (const window of applicable) perWindow.get(window.name)!.push(now);
    return { allowed: true };
  }

  private stampsOf(token: string): Map<string, number[]> {
    let perWindow = this.stamps.get(token);
    if (!perWindow) {
      perWindow = new Map(this.windows.map((w) => [w.name, []]));
      this.stamps.set(token, perWindow);
    }
    return perWindow;
  }
}

function prune(perWindow: Map<string, number[]>, window: RateWindow, now: number): number[] {
  const list = perWindow.get(window.name)!;
  const cutoff = now - window.windowMs;
  let drop = 0;
  while (drop < list.length && list[drop]! <= cutoff) drop++;
  if (drop > 0) list.splice(0, drop);
  return list;
}

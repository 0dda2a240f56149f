/** The windows a budget counts in: the spec's defaults, a caller's overrides, the safety margin, the progress reserve. */
import { RATE_LIMITS } from "../wire.js";
import { PROGRESS_RESERVE, type BudgetOptions, type BudgetWindows } from "./types.js";

export function defaultWindows(timeScale = 1): BudgetWindows {
  return {
    shared: { points: RATE_LIMITS.sharedStrict.points, durationMs: RATE_LIMITS.sharedStrict.durationSeconds * 1000 * timeScale },
    create: { points: RATE_LIMITS.create.points, durationMs: RATE_LIMITS.create.durationSeconds * 1000 * timeScale },
  };
}

export function resolveWindows(options: BudgetOptions): BudgetWindows {
  const scale = options.timeScale ?? 1;
  if (!(scale > 0)) throw new RangeError(`timeScale must be a positive number, got ${scale}`);
  const base = defaultWindows(scale);
  return { shared: options.windows?.shared ?? base.shared, create: options.windows?.create ?? base.create };
}

/**
 * 2% of the window (1.2 s at real scale), and never under 250 ms: latency jitter does not shrink
 * with a scaled clock. A call is counted when its budget is taken and the service counts it on
 * arrival; in between come the durable record of a create and the trip to the service. Three
 * replicas on two cores under a compressed burst (bench/replicas.ts at scale 0.05) drew one 429
 * in two runs with a 100 ms floor.
 */
const MIN_MARGIN_MS = 250;

export function defaultMargin(windows: BudgetWindows): number {
  return Math.max(MIN_MARGIN_MS, Math.round(windows.shared.durationMs * 0.02));
}

/** How many of a window's points progress reads may fill: all but the reserve, and at least one. */
export function progressPoints(points: number): number {
  return Math.max(1, points - Math.ceil(points * PROGRESS_RESERVE));
}

/**
 * How far back each spend limit counts. Apart from core/limits.ts so that what only needs the windows
 * (the Action's head start, which lists the repository's recent comments before the rest of the
 * Action is loaded) does not load the limits' markers and rendering with them.
 */
import type { RunLimitName } from "../config/schema.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Each limit's window. */
export const LIMIT_WINDOW_MS: Readonly<Record<RunLimitName, number>> = {
  runs_per_thread_per_day: DAY_MS,
  runs_per_repo_per_hour: HOUR_MS,
  ci_fixes_per_repo_per_day: DAY_MS,
};

/** The longest window: how far back the repository's comments are read for the limits. */
export const LONGEST_LIMIT_WINDOW_MS = Math.max(...Object.values(LIMIT_WINDOW_MS));

/**
 * Client-side rate budgets per API token (spec §8): what a budget promises its callers, and the options
 * and windows it is built from. Callers wait for budget instead of drawing a 429 from the service.
 * `create` calls count against the creation window AND the shared window.
 */
export type BudgetKind = "create" | "read";

/**
 * Which reads go first when several wait: `report` (the reads that turn a finished run into its
 * result: a person is waiting), then `sweep` (a page of the runs list: many runs' statuses at
 * once), then `status` (one run's own status read, the default), then `progress` (log reads that
 * move tracking comments), which never take the last `PROGRESS_RESERVE` of the shared window:
 * they use what the others leave.
 */
export type ReadPriority = "report" | "sweep" | "status" | "progress";
export const READ_PRIORITIES: readonly ReadPriority[] = ["report", "sweep", "status", "progress"];

/** Share of the shared window progress reads leave free, so a finished run or a sweep never waits a whole window behind them. */
export const PROGRESS_RESERVE = 0.2;

/** What one granted call took from the windows; given back when the service refused the call (a 429 is not counted there). */
export interface BudgetSlot {
  readonly kind: BudgetKind;
  /** When it was taken (epoch ms, the budget's clock). */
  readonly takenAt: number;
  /** The take's name in a shared store (Redis); empty in one process. */
  readonly member: string;
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** Epoch milliseconds after which waiting gives up with a DeadlineError. */
  deadline?: number;
  /** For reads: who goes first among waiting reads (default `status`); creates ignore it. */
  priority?: ReadPriority;
  /**
   * Among waiters of one priority, smaller goes first (epoch ms; default: when `acquire` is called,
   * first come first served). A poll passes the time it was due, so the run read longest ago goes next.
   */
  order?: number;
}

export interface RateBudget {
  /** Waits until one call of `kind` fits every window it counts against: reads by priority, then first come first served. */
  acquire(kind: BudgetKind, options?: AcquireOptions): Promise<BudgetSlot>;
  /** Frees a slot the service never counted (it answered 429): the windows hold only what the service saw. */
  giveBack(slot: BudgetSlot): void;
  /** How many callers are waiting for `kind` right now ("queued, position N"). */
  waiting(kind: BudgetKind): number;
  /** After a 429: nobody gets budget of `kind` for `ms` (a `read` pause stops creates too: the shared window is full). */
  pause(kind: BudgetKind, ms: number): void;
  /** Calls counted in each window right now, for operators (a status page); approximate with Redis (this process's clock). */
  usage(): Promise<BudgetUsage>;
  /**
   * Whether a new call of `kind` would have to wait right now, as far as this process can tell
   * without asking anyone (a shared budget only knows its own queue).
   */
  busy(kind: BudgetKind): boolean;
}

export interface WindowUsage {
  used: number;
  limit: number;
  windowMs: number;
}

export interface BudgetUsage {
  shared: WindowUsage;
  create: WindowUsage;
}

export interface WindowSpec {
  points: number;
  durationMs: number;
}

export interface BudgetWindows {
  /** Every call, creates included. Default: the stricter stated figure, 60 per 60 s. */
  shared: WindowSpec;
  /** Agent creation. Default 10 per minute. */
  create: WindowSpec;
}

export interface BudgetOptions {
  /** Multiplies every window (1 = real time); matches the emulator's `timeScale`. */
  timeScale?: number;
  windows?: Partial<BudgetWindows>;
  /**
   * Extra spacing per window, in ms: the service counts a request when it arrives, we count when we
   * send it, so latency jitter could otherwise push one request into a full window.
   */
  marginMs?: number;
  now?: () => number;
  /** Keeps the windows and pauses beyond this process (the embedded App's SQLite file), so a restart knows what was spent. */
  ledger?: BudgetLedger;
}

export type WindowName = keyof BudgetWindows;

/**
 * Where an in-process budget writes its takes and pauses so that the next process reads them back.
 * Synchronous on purpose: a take is on disk before its request leaves, so a kill -9 cannot lose it.
 */
export interface BudgetLedger {
  /** The takes recorded in `window` after `since` (epoch ms), oldest first. */
  takes(window: WindowName, since: number): number[];
  /** Records one take at `at` in each of `windows`, dropping takes at or before `forgetBefore` (out of every window). */
  recordTake(windows: readonly WindowName[], at: number, forgetBefore: number): void;
  /** Removes one take at `at` from each of `windows`. */
  forgetTake(windows: readonly WindowName[], at: number): void;
  /** The end of the pause of `kind` (epoch ms; 0 when none). */
  pausedUntil(kind: BudgetKind): number;
  setPause(kind: BudgetKind, until: number): void;
}

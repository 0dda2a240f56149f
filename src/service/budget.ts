import { DeadlineError } from "./errors.js";
import { SlidingWindowLog, extendRedisPause, takeFromRedisWindows, type RedisEval, type RedisWindow } from "./sliding-window.js";
import { RATE_LIMITS } from "./wire.js";

/**
 * Client-side rate budgets per API token (spec §8). Callers wait for budget instead of drawing a
 * 429 from the service. `create` calls count against the creation window AND the shared window.
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

export function defaultWindows(timeScale = 1): BudgetWindows {
  return {
    shared: { points: RATE_LIMITS.sharedStrict.points, durationMs: RATE_LIMITS.sharedStrict.durationSeconds * 1000 * timeScale },
    create: { points: RATE_LIMITS.create.points, durationMs: RATE_LIMITS.create.durationSeconds * 1000 * timeScale },
  };
}

function resolveWindows(options: BudgetOptions): BudgetWindows {
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

function defaultMargin(windows: BudgetWindows): number {
  return Math.max(MIN_MARGIN_MS, Math.round(windows.shared.durationMs * 0.02));
}

interface Waiter {
  kind: BudgetKind;
  rank: number;
  order: number;
  resolve: (slot: BudgetSlot) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/**
 * The shared FIFO machinery: one queue per kind, a single timer, and a `tryTake` that asks the
 * windows (local or Redis) for either "taken" (0) or how long to wait.
 */
abstract class QueuedBudget implements RateBudget {
  private readonly queues: Record<BudgetKind, Waiter[]> = { create: [], read: [] };
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;

  /** The slot taken, or how many ms to wait (nothing taken). `progress`: the take must leave PROGRESS_RESERVE of the shared window free. */
  protected abstract tryTake(kind: BudgetKind, progress: boolean): Promise<BudgetSlot | number> | BudgetSlot | number;
  abstract pause(kind: BudgetKind, ms: number): void;
  abstract giveBack(slot: BudgetSlot): void;
  abstract usage(): Promise<BudgetUsage>;

  waiting(kind: BudgetKind): number {
    return this.queues[kind].length;
  }

  busy(kind: BudgetKind): boolean {
    return this.queues[kind].length > 0 || this.peekWait(kind) > 0;
  }

  /** Milliseconds a call of `kind` would wait now, without taking anything (0 when unknown). */
  protected peekWait(_kind: BudgetKind, _progress?: boolean): number {
    return 0;
  }

  acquire(kind: BudgetKind, options: AcquireOptions = {}): Promise<BudgetSlot> {
    const { signal, deadline } = options;
    const rank = kind === "read" ? READ_PRIORITIES.indexOf(options.priority ?? "status") : 0;
    const order = options.order ?? Date.now();
    if (signal?.aborted) return Promise.reject(abortedError(kind, signal));
    if (deadline !== undefined && Date.now() >= deadline) return Promise.reject(deadlineError(kind));
    return new Promise<BudgetSlot>((resolve, reject) => {
      let deadlineTimer: NodeJS.Timeout | undefined;
      const onAbort = () => this.drop(waiter, abortedError(kind, signal));
      const waiter: Waiter = {
        kind,
        rank,
        order,
        resolve,
        reject,
        cleanup: () => {
          signal?.removeEventListener("abort", onAbort);
          if (deadlineTimer) clearTimeout(deadlineTimer);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (deadline !== undefined) {
        deadlineTimer = setTimeout(() => this.drop(waiter, deadlineError(kind)), Math.max(0, deadline - Date.now()));
        deadlineTimer.unref?.();
      }
      // Within a priority by `order` (first come first served by default): a waiter goes behind every one of a better rank, or of its rank and an order not after its own.
      const queue = this.queues[kind];
      const before = queue.findIndex((w) => w.rank > rank || (w.rank === rank && w.order > order));
      if (before < 0) queue.push(waiter);
      else queue.splice(before, 0, waiter);
      void this.pump();
    });
  }

  private drop(waiter: Waiter, error: Error): void {
    const queue = this.queues[waiter.kind];
    const index = queue.indexOf(waiter);
    if (index < 0) return;
    queue.splice(index, 1);
    waiter.cleanup();
    waiter.reject(error);
  }

  /** Serves queue heads while budget allows, then sleeps until the earliest one can fit. */
  protected async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    try {
      let nextWake = Infinity;
      for (;;) {
        let served = false;
        nextWake = Infinity;
        for (const kind of ["create", "read"] as const) {
          const head = this.queues[kind][0];
          if (!head) continue;
          let taken: BudgetSlot | number;
          try {
            taken = await this.tryTake(kind, head.rank === PROGRESS_RANK);
          } catch (error) {
            // A broken shared store must not strand callers: fail them with the store's error.
            this.queues[kind].shift();
            head.cleanup();
            head.reject(error instanceof Error ? error : new Error(String(error)));
            served = true;
            continue;
          }
          const at = this.queues[kind].indexOf(head);
          if (at < 0) {
            // The head was aborted while we asked: nobody will send with the slot we took.
            if (typeof taken !== "number") this.giveBack(taken);
            served = true;
            continue;
          }
          if (typeof taken !== "number") {
            // A waiter of higher priority may have come in front meanwhile: the slot is still this one's.
            this.queues[kind].splice(at, 1);
            head.cleanup();
            head.resolve(taken);
            served = true;
          } else {
            nextWake = Math.min(nextWake, taken);
            // A waiter of higher priority came in front while we asked: it gets its own try at once.
            if (this.queues[kind][0] !== head) served = true;
          }
        }
        if (!served) break;
      }
      if (nextWake !== Infinity) {
        this.timer = setTimeout(() => void this.pump(), Math.max(1, Math.ceil(nextWake)));
      }
    } finally {
      this.pumping = false;
    }
  }
}

const PROGRESS_RANK = READ_PRIORITIES.indexOf("progress");

/** How many of a window's points progress reads may fill: all but the reserve, and at least one. */
export function progressPoints(points: number): number {
  return Math.max(1, points - Math.ceil(points * PROGRESS_RESERVE));
}

function abortedError(kind: BudgetKind, signal?: AbortSignal): DeadlineError {
  return new DeadlineError(`Stopped waiting for ${kind} rate budget: ${String(signal?.reason ?? "aborted")}.`);
}

function deadlineError(kind: BudgetKind): DeadlineError {
  return new DeadlineError(
    `Gave up waiting for ${kind} rate budget before the deadline: too many calls share this API token; retry later or raise the deadline.`,
  );
}

/**
 * Budgets for one process, optionally kept in a ledger that outlives it (the embedded App's SQLite
 * file). Several replicas sharing a token need `createRedisBudget`.
 */
class InProcessBudget extends QueuedBudget {
  private readonly shared: SlidingWindowLog;
  private readonly create: SlidingWindowLog;
  private readonly margin: number;
  private readonly now: () => number;
  private readonly ledger: BudgetLedger | undefined;
  private readonly pausedUntil: Record<BudgetKind, number> = { create: 0, read: 0 };

  constructor(options: BudgetOptions) {
    super();
    const windows = resolveWindows(options);
    this.margin = options.marginMs ?? defaultMargin(windows);
    this.shared = new SlidingWindowLog(windows.shared.points, windows.shared.durationMs + this.margin);
    this.create = new SlidingWindowLog(windows.create.points, windows.create.durationMs + this.margin);
    this.now = options.now ?? Date.now;
    this.ledger = options.ledger;
    if (this.ledger) {
      // What a predecessor spent still counts at the service: start from its takes and pauses.
      const now = this.now();
      for (const at of this.ledger.takes("shared", now - this.shared.windowMs)) this.shared.record(at);
      for (const at of this.ledger.takes("create", now - this.create.windowMs)) this.create.record(at);
      for (const kind of ["create", "read"] as const) this.pausedUntil[kind] = this.ledger.pausedUntil(kind);
    }
  }

  private windowsOf(kind: BudgetKind): WindowName[] {
    return kind === "create" ? ["shared", "create"] : ["shared"];
  }

  protected override peekWait(kind: BudgetKind, progress = false): number {
    const now = this.now();
    const paused = Math.max(this.pausedUntil.read, kind === "create" ? this.pausedUntil.create : 0) - now;
    const shared = progress ? this.shared.delayUntilBelow(now, progressPoints(this.shared.limit)) : this.shared.delayUntilFree(now);
    return Math.max(paused, shared, kind === "create" ? this.create.delayUntilFree(now) : 0);
  }

  protected tryTake(kind: BudgetKind, progress: boolean): BudgetSlot | number {
    const now = this.now();
    const wait = this.peekWait(kind, progress);
    if (wait > 0) return wait;
    this.ledger?.recordTake(this.windowsOf(kind), now, now - Math.max(this.shared.windowMs, this.create.windowMs));
    this.shared.record(now);
    if (kind === "create") this.create.record(now);
    return { kind, takenAt: now, member: "" };
  }

  giveBack(slot: BudgetSlot): void {
    this.shared.forget(slot.takenAt);
    if (slot.kind === "create") this.create.forget(slot.takenAt);
    this.ledger?.forgetTake(this.windowsOf(slot.kind), slot.takenAt);
    void this.pump();
  }

  async usage(): Promise<BudgetUsage> {
    const now = this.now();
    return {
      shared: { used: this.shared.count(now), limit: this.shared.limit, windowMs: this.shared.windowMs },
      create: { used: this.create.count(now), limit: this.create.limit, windowMs: this.create.windowMs },
    };
  }

  pause(kind: BudgetKind, ms: number): void {
    const until = this.now() + ms;
    if (until <= this.pausedUntil[kind]) return;
    this.pausedUntil[kind] = until;
    this.ledger?.setPause(kind, until);
    void this.pump();
  }
}

export function createInProcessBudget(options: BudgetOptions = {}): RateBudget {
  return new InProcessBudget(options);
}

export interface RedisBudgetOptions extends Omit<BudgetOptions, "now"> {
  /** Namespace of the keys; use one per API token (never the token itself). */
  keyPrefix?: string;
}

class RedisBudget extends QueuedBudget {
  private readonly windows: BudgetWindows;
  private readonly margin: number;
  private readonly prefix: string;
  private counter = 0;
  private readonly instance = Math.random().toString(36).slice(2);

  constructor(
    private readonly redis: RedisBudgetClient,
    options: RedisBudgetOptions,
  ) {
    super();
    this.windows = resolveWindows(options);
    this.margin = options.marginMs ?? defaultMargin(this.windows);
    this.prefix = options.keyPrefix ?? "agent-run-bridge:budget";
  }

  /**
   * One atomic take on the server's clock (sliding-window logs in sorted sets): every call counts
   * against the shared window, a create also against the creation window; a read pause holds
   * back creates too (the shared window is full).
   */
  protected async tryTake(kind: BudgetKind, progress: boolean): Promise<BudgetSlot | number> {
    const p = this.prefix;
    const sharedPoints = progress ? progressPoints(this.windows.shared.points) : this.windows.shared.points;
    const windows: RedisWindow[] = [{ key: `${p}:shared`, points: sharedPoints, durationMs: this.windows.shared.durationMs + this.margin }];
    const pauses = [`${p}:pause:read`];
    if (kind === "create") {
      windows.push({ key: `${p}:create`, points: this.windows.create.points, durationMs: this.windows.create.durationMs + this.margin });
      pauses.push(`${p}:pause:create`);
    }
    const member = `${this.instance}:${++this.counter}`;
    const wait = await takeFromRedisWindows(this.redis, windows, pauses, member);
    return wait > 0 ? wait : { kind, takenAt: Date.now(), member };
  }

  giveBack(slot: BudgetSlot): void {
    const keys = slot.kind === "create" ? [`${this.prefix}:shared`, `${this.prefix}:create`] : [`${this.prefix}:shared`];
    void Promise.all(keys.map((key) => this.redis.zrem(key, slot.member)))
      .then(() => this.pump())
      .catch(() => undefined);
  }

  async usage(): Promise<BudgetUsage> {
    const now = Date.now();
    const read = async (kind: "shared" | "create"): Promise<WindowUsage> => {
      const windowMs = this.windows[kind].durationMs + this.margin;
      const used = await this.redis.zcount(`${this.prefix}:${kind}`, now - windowMs, "+inf");
      return { used, limit: this.windows[kind].points, windowMs };
    };
    return { shared: await read("shared"), create: await read("create") };
  }

  pause(kind: BudgetKind, ms: number): void {
    void extendRedisPause(this.redis, `${this.prefix}:pause:${kind}`, ms)
      .then(() => this.pump())
      .catch(() => undefined);
  }
}

/** What a Redis budget asks of its client (an ioredis `Redis` has it): the shared windows' script, ZCOUNT for `usage()`, ZREM to give a slot back. */
export interface RedisBudgetClient extends RedisEval {
  zcount(key: string, min: number | string, max: number | string): Promise<number>;
  zrem(key: string, ...members: string[]): Promise<number>;
}

/** Budgets shared by every replica that uses the same Redis and key prefix (one prefix per API token). */
export function createRedisBudget(redis: RedisBudgetClient, options: RedisBudgetOptions = {}): RateBudget {
  return new RedisBudget(redis, options);
}

/** The waiting line every budget shares: one queue per kind ordered by priority, a single timer, aborts and deadlines. */
import { DeadlineError } from "../errors.js";
import { READ_PRIORITIES, type AcquireOptions, type BudgetKind, type BudgetSlot, type BudgetUsage, type RateBudget } from "./types.js";

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
export abstract class QueuedBudget implements RateBudget {
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

function abortedError(kind: BudgetKind, signal?: AbortSignal): DeadlineError {
  return new DeadlineError(`Stopped waiting for ${kind} rate budget: ${String(signal?.reason ?? "aborted")}.`);
}

function deadlineError(kind: BudgetKind): DeadlineError {
  return new DeadlineError(
    `Gave up waiting for ${kind} rate budget before the deadline: too many calls share this API token; retry later or raise the deadline.`,
  );
}

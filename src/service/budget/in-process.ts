/** One process's budget: sliding-window logs in memory, optionally written to a ledger that outlives the process. */
import { SlidingWindowLog } from "../sliding-window.js";
import { QueuedBudget } from "./queue.js";
import type { BudgetKind, BudgetLedger, BudgetOptions, BudgetSlot, BudgetUsage, RateBudget, WindowName } from "./types.js";
import { defaultMargin, progressPoints, resolveWindows } from "./windows.js";

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

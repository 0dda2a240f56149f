/** The budget replicas share: sliding-window logs in Redis sorted sets, taken atomically on the server's clock. */
import { extendRedisPause, takeFromRedisWindows, type RedisEval, type RedisWindow } from "../sliding-window.js";
import { QueuedBudget } from "./queue.js";
import type { BudgetKind, BudgetOptions, BudgetSlot, BudgetUsage, BudgetWindows, RateBudget, WindowUsage } from "./types.js";
import { defaultMargin, progressPoints, resolveWindows } from "./windows.js";

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

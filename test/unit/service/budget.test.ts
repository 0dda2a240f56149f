import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createInProcessBudget, createRedisBudget, DeadlineError, type RateBudget, type ReadPriority } from "../../../src/service/index.js";
import { SlidingWindowLog } from "../../../src/service/sliding-window.js";
import { TEST_REDIS } from "../../helpers/redis.js";

describe("SlidingWindowLog", () => {
  it("allows `limit` events in any window, then says how long to wait", () => {
    const log = new SlidingWindowLog(3, 1000);
    for (const t of [0, 100, 200]) {
      expect(log.delayUntilFree(t)).toBe(0);
      log.record(t);
    }
    expect(log.delayUntilFree(300)).toBe(700);
    expect(log.delayUntilFree(1000)).toBe(0.0 + 0);
    log.record(1000);
    // Sliding, not fixed: 100 and 200 still count until 1100 and 1200.
    expect(log.delayUntilFree(1050)).toBe(50);
    expect(log.count(1250)).toBe(1);
  });
});

/**
 * Takes `n` acquisitions and returns their times relative to the first. Stamped as each promise
 * resolves, so a loaded event loop can make a stamp late (100 ms and more seen in CI): the windows
 * below are long enough that the checks leave a fifth of a window for it.
 */
async function timesOf(budget: RateBudget, kind: "create" | "read", n: number): Promise<number[]> {
  const start = Date.now();
  const stamps = await Promise.all(Array.from({ length: n }, () => budget.acquire(kind).then(() => Date.now() - start)));
  return stamps;
}

describe("in-process budget", () => {
  it("lets a window's worth through at once and paces the rest", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 5, durationMs: 1000 }, create: { points: 2, durationMs: 1000 } },
      marginMs: 0,
    });
    const stamps = await timesOf(budget, "read", 12);
    expect(stamps.filter((t) => t < 500)).toHaveLength(5);
    // Any 1,000 ms window holds at most 5 (checked over 800 ms of it; unpaced, all 12 would come at once).
    for (const t of stamps) expect(stamps.filter((u) => u >= t && u < t + 800).length).toBeLessThanOrEqual(5);
  });

  it("creates count against both the creation and the shared window", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 3, durationMs: 300 }, create: { points: 2, durationMs: 300 } },
      marginMs: 0,
    });
    await budget.acquire("create");
    await budget.acquire("create");
    expect(budget.busy("create")).toBe(true);
    expect(budget.busy("read")).toBe(false);
    // Create budget is spent, but one shared slot remains for a read.
    const read = budget.acquire("read").then(() => "read");
    const create = budget.acquire("create").then(() => "create");
    expect(await Promise.race([read, create])).toBe("read");
    expect(budget.waiting("create")).toBe(1);
    await create;
  });

  it("serves waiters first come, first served and reports positions", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 1, durationMs: 60 }, create: { points: 1, durationMs: 60 } },
      marginMs: 0,
    });
    const order: number[] = [];
    const all = [1, 2, 3, 4].map((i) => budget.acquire("create").then(() => order.push(i)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([1]);
    expect(budget.waiting("create")).toBe(3);
    await Promise.all(all);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(budget.waiting("create")).toBe(0);
  });

  it("abort and deadline leave the queue with a DeadlineError", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 1, durationMs: 10_000 }, create: { points: 1, durationMs: 10_000 } },
    });
    await budget.acquire("read");
    const controller = new AbortController();
    const aborted = budget.acquire("read", { signal: controller.signal });
    const timed = budget.acquire("read", { deadline: Date.now() + 30 });
    controller.abort();
    await expect(aborted).rejects.toThrow(DeadlineError);
    await expect(timed).rejects.toThrow(/deadline/);
    expect(budget.waiting("read")).toBe(0);
  });

  it("a pause after a 429 holds everyone back", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 100, durationMs: 1000 }, create: { points: 100, durationMs: 1000 } },
    });
    budget.pause("read", 80);
    const start = Date.now();
    await budget.acquire("create");
    expect(Date.now() - start).toBeGreaterThanOrEqual(75);
  });

  it("a slot given back (the service refused the call) frees its place in every window it took", async () => {
    const budget = createInProcessBudget({
      windows: { shared: { points: 3, durationMs: 60_000 }, create: { points: 1, durationMs: 60_000 } },
      marginMs: 0,
    });
    const refused = await budget.acquire("create");
    expect(budget.busy("create")).toBe(true);
    budget.giveBack(refused);
    expect(await budget.usage()).toMatchObject({ shared: { used: 0 }, create: { used: 0 } });
    // Without the give-back this create would wait a minute.
    await budget.acquire("create", { deadline: Date.now() + 1000 });
  });

  it("scales the spec's windows with timeScale", async () => {
    // 10 creates per 60 s at scale 0.01 → 10 per 600 ms (+ margin).
    const budget = createInProcessBudget({ timeScale: 0.01 });
    const stamps = await timesOf(budget, "create", 15);
    expect(stamps.filter((t) => t < 300)).toHaveLength(10);
    expect(Math.max(...stamps)).toBeGreaterThanOrEqual(600);
  });
});

describe("read priorities", () => {
  const windows = { shared: { points: 5, durationMs: 400 }, create: { points: 2, durationMs: 400 } };

  it("a waiting report read goes before waiting sweeps, status and progress reads, whatever came first", async () => {
    const budget = createInProcessBudget({ windows, marginMs: 0 });
    for (let i = 0; i < 5; i++) await budget.acquire("read");
    const order: string[] = [];
    const take = (priority: ReadPriority, name: string) => budget.acquire("read", { priority }).then(() => order.push(name));
    const waits = [
      take("progress", "progress 1"),
      take("status", "status 1"),
      take("sweep", "sweep 1"),
      take("status", "status 2"),
      take("report", "report 1"),
      take("sweep", "sweep 2"),
    ];
    await Promise.all(waits);
    expect(order).toEqual(["report 1", "sweep 1", "sweep 2", "status 1", "status 2", "progress 1"]);
  });

  it("within a priority, a waiting read with an earlier order goes first (the poll due first), else first come first served", async () => {
    const budget = createInProcessBudget({ windows, marginMs: 0 });
    for (let i = 0; i < 5; i++) await budget.acquire("read");
    const order: string[] = [];
    const now = Date.now();
    const take = (name: string, options: { order?: number; priority?: ReadPriority } = {}) =>
      budget.acquire("read", options).then(() => order.push(name));
    const waits = [
      take("due now"),
      take("due 3 s ago", { order: now - 3_000 }),
      take("arrived next"),
      take("due 5 s ago", { order: now - 5_000 }),
      take("sweep", { priority: "sweep", order: now + 60_000 }),
    ];
    await Promise.all(waits);
    expect(order).toEqual(["sweep", "due 5 s ago", "due 3 s ago", "due now", "arrived next"]);
  });

  it("progress reads leave a fifth of the window to the others", async () => {
    const budget = createInProcessBudget({ windows: { ...windows, shared: { points: 10, durationMs: 400 } }, marginMs: 0 });
    const start = Date.now();
    const progress = await Promise.all(
      Array.from({ length: 8 }, () => budget.acquire("read", { priority: "progress" }).then(() => Date.now() - start)),
    );
    // Eight of ten: all at once. A ninth progress read waits for the window; a report read does not.
    expect(Math.max(...progress)).toBeLessThan(200);
    expect(budget.busy("read")).toBe(false);
    const ninth = budget.acquire("read", { priority: "progress" }).then(() => Date.now() - start);
    const report = await budget.acquire("read", { priority: "report" }).then(() => Date.now() - start);
    expect(report).toBeLessThan(200);
    expect(await ninth).toBeGreaterThanOrEqual(350);
  });

  it("a progress read that cannot get budget before its deadline gives its turn up", async () => {
    const budget = createInProcessBudget({ windows, marginMs: 0 });
    for (let i = 0; i < 4; i++) await budget.acquire("read");
    await expect(budget.acquire("read", { priority: "progress", deadline: Date.now() + 50 })).rejects.toBeInstanceOf(DeadlineError);
    // The slot it could not take is still there for a read that may use the reserve.
    await budget.acquire("read", { priority: "status", deadline: Date.now() + 50 });
  });
});

describe("Redis budget: replicas sharing one token", () => {
  const redisA = new Redis({ ...TEST_REDIS, lazyConnect: false, maxRetriesPerRequest: 1 });
  const redisB = new Redis({ ...TEST_REDIS, lazyConnect: false, maxRetriesPerRequest: 1 });
  afterAll(async () => {
    await redisA.quit();
    await redisB.quit();
  });

  it("two processes together stay under one window", async () => {
    const keyPrefix = `arb-test:${process.pid}:${Date.now()}`;
    const windows = { shared: { points: 6, durationMs: 1000 }, create: { points: 3, durationMs: 1000 } };
    const a = createRedisBudget(redisA, { keyPrefix, windows, marginMs: 0 });
    const b = createRedisBudget(redisB, { keyPrefix, windows, marginMs: 0 });
    // The grants' times on Redis's clock (the scores the take script writes), read as each acquire
    // resolves and before the window prunes them: the test process's own clock would add its event
    // loop's delays, which on a loaded machine bunch stamps of different windows together.
    const granted = new Map<string, number>();
    const readGrants = async () => {
      const flat = await redisA.zrange(`${keyPrefix}:create`, 0, -1, "WITHSCORES");
      for (let i = 0; i < flat.length; i += 2) granted.set(flat[i]!, Number(flat[i + 1]));
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).acquire("create").then(readGrants)));
    const times = [...granted.values()].sort((x, y) => x - y);
    expect(times).toHaveLength(8);
    // Alone, each replica would let three through at once: six in the first window.
    expect(times.filter((t) => t < times[0]! + 500)).toHaveLength(3);
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(3);
  });

  it("a slot one replica gives back is free for the other", async () => {
    const keyPrefix = `arb-test-giveback:${process.pid}:${Date.now()}`;
    const windows = { shared: { points: 5, durationMs: 60_000 }, create: { points: 1, durationMs: 60_000 } };
    const a = createRedisBudget(redisA, { keyPrefix, windows, marginMs: 0 });
    const b = createRedisBudget(redisB, { keyPrefix, windows, marginMs: 0 });
    const refused = await a.acquire("create");
    a.giveBack(refused);
    await b.acquire("create", { deadline: Date.now() + 2000 });
    expect(await b.usage()).toMatchObject({ shared: { used: 1 }, create: { used: 1 } });
  });

  it("a pause set by one replica holds the other back", async () => {
    const keyPrefix = `arb-test-pause:${process.pid}:${Date.now()}`;
    const a = createRedisBudget(redisA, { keyPrefix });
    const b = createRedisBudget(redisB, { keyPrefix });
    const start = Date.now();
    a.pause("read", 150);
    // Once the pause is in Redis (a fixed sleep can be too short on a loaded machine), the other replica asks.
    while ((await redisB.pttl(`${keyPrefix}:pause:read`)) <= 0) await new Promise((r) => setTimeout(r, 2));
    await b.acquire("read");
    // The pause began after `start`, so it ends 150 ms after it at the earliest (less clock rounding).
    expect(Date.now() - start).toBeGreaterThanOrEqual(145);
  });

  it("progress reads of every replica together leave the reserve free", async () => {
    const keyPrefix = `arb-test-progress:${process.pid}:${Date.now()}`;
    const windows = { shared: { points: 10, durationMs: 2000 }, create: { points: 3, durationMs: 2000 } };
    const a = createRedisBudget(redisA, { keyPrefix, windows, marginMs: 0 });
    const b = createRedisBudget(redisB, { keyPrefix, windows, marginMs: 0 });
    for (let i = 0; i < 4; i++) await a.acquire("read", { priority: "progress" });
    for (let i = 0; i < 4; i++) await b.acquire("read", { priority: "progress" });
    await expect(a.acquire("read", { priority: "progress", deadline: Date.now() + 100 })).rejects.toBeInstanceOf(DeadlineError);
    await expect(b.acquire("read", { priority: "progress", deadline: Date.now() + 100 })).rejects.toBeInstanceOf(DeadlineError);
    await a.acquire("read", { priority: "report", deadline: Date.now() + 100 });
    await b.acquire("read", { priority: "sweep", deadline: Date.now() + 100 });
  });
});

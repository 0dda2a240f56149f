/**
 * The renewable lease behind "one replica sweeps at a time", on both backends: SQLite (a file the
 * embedded App and its restarted successor share) and a real Redis. Exclusive while held, free once
 * released, and, when its holder stops renewing (a SIGKILLed process), free again after its TTL.
 */
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisLeases, createSqliteLeases, withLease, type Leases } from "../../../src/app/lease.js";
import { TEST_REDIS_URL, dropRedisKeys } from "../../helpers/app-harness.js";

const prefix = `arb-test:lease:${randomUUID()}`;
const redis = new Redis(TEST_REDIS_URL);
const database = new Database(":memory:");

afterAll(async () => {
  await dropRedisKeys(prefix);
  redis.disconnect();
  database.close();
});

const backends: Array<[string, () => Leases]> = [
  ["SQLite", () => createSqliteLeases(database)],
  ["Redis", () => createRedisLeases(redis, { keyPrefix: prefix })],
];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)("a lease on %s", (_name, open) => {
  it("has one holder at a time, and is free again once released", async () => {
    // Two handles on one backend: two replicas (or an App and its restarted successor).
    const [one, two] = [open(), open()];
    const name = `sweep-${randomUUID()}`;
    const hold = await one.tryAcquire(name, 5_000);
    expect(hold).not.toBeNull();
    expect(await two.tryAcquire(name, 5_000)).toBeNull();
    expect(await hold!.renew()).toBe(true);
    await hold!.release();
    const next = await two.tryAcquire(name, 5_000);
    expect(next).not.toBeNull();
    // A release by someone who no longer holds it changes nothing.
    await hold!.release();
    expect(await one.tryAcquire(name, 5_000)).toBeNull();
    await next!.release();
  });

  it("expires when its holder stops renewing (killed), and the old holder learns it lost it", async () => {
    const [dead, alive] = [open(), open()];
    const name = `sweep-${randomUUID()}`;
    const stale = await dead.tryAcquire(name, 150);
    expect(await alive.tryAcquire(name, 150)).toBeNull();
    await pause(200);
    const taken = await alive.tryAcquire(name, 5_000);
    expect(taken).not.toBeNull();
    expect(await stale!.renew()).toBe(false);
    await taken!.release();
  });

  it("withLease renews while the work runs longer than the TTL, and says busy to a second taker", async () => {
    const [one, two] = [open(), open()];
    const name = `sweep-${randomUUID()}`;
    let busy: unknown = "not asked";
    const held = await withLease(one, name, 150, async (signal) => {
      await pause(400);
      busy = await withLease(two, name, 150, async () => "ran");
      return signal.aborted;
    });
    expect(held).toEqual({ value: false });
    expect(busy).toBeNull();
    expect(await withLease(two, name, 150, async () => "ran")).toEqual({ value: "ran" });
  });
});

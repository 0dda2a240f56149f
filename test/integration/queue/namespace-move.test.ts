/**
 * The App's Redis namespace no longer names the API token (app/store/namespace.ts), and a start
 * moves what an earlier version kept under the token-keyed default: on a private `redis-server`,
 * store, queue (waiting, delayed and in-flight jobs), leases and budgets all arrive, every key once
 * when replicas start together, nothing is overwritten, and a second start moves nothing.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBackend } from "../../../src/app/backend.js";
import { parseAppEnv, type AppSettings } from "../../../src/app/env.js";
import { BullWorkQueue } from "../../../src/app/queue/bullmq.js";
import type { JobProcessor, QueuedJob } from "../../../src/app/queue/types.js";
import { deploymentNamespace, moveNamespace, tokenKeyedPrefix } from "../../../src/app/store/namespace.js";
import { SOURCE } from "../../../src/service/wire.js";
import { appEnv, until } from "../../helpers/app-harness.js";
import { redisServerAvailable, startPrivateRedis, type PrivateRedis } from "../../helpers/app-process.js";

let server: PrivateRedis;
let redis: Redis;

beforeAll(async () => {
  server = await startPrivateRedis({ durable: false });
  redis = new Redis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

let orgId = 100;
/** Settings of an App on the private Redis; a fresh organization per test keeps their namespaces apart. */
function settingsFor(token: string, extra: Record<string, string> = {}): AppSettings {
  return parseAppEnv(appEnv({ url: "http://127.0.0.1:9", token, orgId }, "/nonexistent", { REDIS_URL: server.url, ...extra }));
}

async function keysUnder(prefix: string): Promise<string[]> {
  return (await redis.keys(`${prefix}:*`)).sort();
}

const task = (issueNumber: number) => ({
  kind: "create" as const,
  state: "watching" as const,
  sourceType: SOURCE.gitHost,
  thread: { installationId: 1, owner: "octo-org", repo: "widgets", issueNumber },
  runId: 7_000 + issueNumber,
  orgId,
  trackingCommentId: null,
  reaction: null,
  request: { prompt: "p" },
  requestedBy: "m",
  deadlineAt: Date.now() + 3_600_000,
});

describe.skipIf(!redisServerAvailable())("moving the token-keyed namespace of earlier versions", () => {
  it("the default namespace names the organization and the App, not the token; REDIS_KEY_PREFIX still decides", () => {
    const a = deploymentNamespace(settingsFor("token-a"));
    const b = deploymentNamespace(settingsFor("token-b"));
    expect(a.prefix).toBe(`agent-run-bridge:${orgId}:app1001`);
    expect(b.prefix).toBe(a.prefix);
    expect(a.legacyPrefix).toBe(tokenKeyedPrefix(orgId, "token-a"));
    expect(a.legacyPrefix).not.toContain("token-a");
    expect(deploymentNamespace(settingsFor("token-a", { REDIS_KEY_PREFIX: "mine" }))).toEqual({ prefix: "mine", legacyPrefix: null });
  });

  it("an upgraded App finds the watched runs, claims, budgets and queued jobs an earlier version left, then survives a token rotation", async () => {
    orgId += 1;
    const legacy = tokenKeyedPrefix(orgId, "old-token");
    // What 0.1 wrote: the same code with the token-keyed prefix (REDIS_KEY_PREFIX spells it out).
    const before = await openBackend(settingsFor("old-token", { REDIS_KEY_PREFIX: legacy }));
    const watched = await before.store.insertTask(task(1));
    const held = await before.store.insertTask({ ...task(2), state: "held", runId: null });
    expect(await before.store.claimTrigger("trigger-1")).toBe(true);
    expect(await before.store.recordCheckAttempt("octo-org", "widgets", 2, "a".repeat(40))).toBe(true);
    await before.store.recordEvent(["spend:octo-org"], Date.now());
    await before.queue.add({ id: "task-1", name: "task", data: { taskId: watched.id }, delayMs: 60_000 });
    await before.queue.add({ id: "task-2", name: "task", data: { taskId: held.id } });
    await before.queue.stop();
    await before.close();
    const legacyKeys = await keysUnder(legacy);
    expect(legacyKeys.length).toBeGreaterThan(5);

    const after = await openBackend(settingsFor("old-token"));
    try {
      const namespace = deploymentNamespace(settingsFor("old-token")).prefix;
      expect(after.keyPrefix).toBe(namespace);
      expect(after.namespaceMove).toMatchObject({ from: legacy, to: namespace, moved: legacyKeys.length, kept: [] });
      expect(await keysUnder(legacy)).toEqual([]);
      expect((await after.store.getTask(watched.id))?.runId).toBe(watched.runId);
      expect((await after.store.listTaskIds(["held"])).includes(held.id)).toBe(true);
      expect(await after.store.claimTrigger("trigger-1")).toBe(false);
      expect((await after.store.checkAttempts("octo-org", "widgets", 2)).count).toBe(1);
      expect(await after.store.eventTimes("spend:octo-org", 0)).toHaveLength(1);
      expect(await after.queue.counts()).toMatchObject({ task: { waiting: 1, delayed: 1 } });
      // The moved store is the earlier version's, which wrote no epoch: not a store that came back empty.
      expect(await after.store.epoch()).toEqual({ createdAt: 0, fresh: false });
      await after.queue.stop();
    } finally {
      await after.close();
    }

    // The token rotates: same namespace, nothing to move, everything still there.
    const rotated = await openBackend(settingsFor("new-token"));
    try {
      expect(rotated.keyPrefix).toBe(after.keyPrefix);
      expect(rotated.namespaceMove).toMatchObject({ moved: 0, kept: [] });
      expect((await rotated.store.getTask(watched.id))?.runId).toBe(watched.runId);
      expect(await rotated.queue.counts()).toMatchObject({ task: { waiting: 1, delayed: 1 } });
      await rotated.queue.stop();
    } finally {
      await rotated.close();
    }
  });

  it("three upgraded replicas starting at once: each key moved once, every replica opens on the moved store", async () => {
    orgId += 1;
    const legacy = tokenKeyedPrefix(orgId, "the-token");
    const before = await openBackend(settingsFor("the-token", { REDIS_KEY_PREFIX: legacy }));
    const tasks = await Promise.all([1, 2, 3, 4, 5].map((n) => before.store.insertTask(task(n))));
    for (const t of tasks) await before.queue.add({ id: `task-${t.id}`, name: "task", data: { taskId: t.id }, delayMs: 60_000 });
    await before.queue.stop();
    await before.close();
    const legacyKeys = await keysUnder(legacy);

    const replicas = await Promise.all([1, 2, 3].map(() => openBackend(settingsFor("the-token"))));
    try {
      expect(replicas.reduce((sum, r) => sum + (r.namespaceMove?.moved ?? 0), 0)).toBe(legacyKeys.length);
      expect(replicas.flatMap((r) => r.namespaceMove?.kept ?? [])).toEqual([]);
      expect(await keysUnder(legacy)).toEqual([]);
      for (const replica of replicas) {
        expect((await replica.store.listTaskIds(["watching"])).sort()).toEqual(tasks.map((t) => t.id).sort());
        expect((await replica.queue.counts()).task.delayed).toBe(tasks.length);
      }
    } finally {
      for (const replica of replicas) {
        await replica.queue.stop();
        await replica.close();
      }
    }
  });

  it("replicas starting at once move every key exactly once, with its value and expiry", async () => {
    const from = `arb-move:${orgId}:old`;
    const to = `arb-move:${orgId}:new`;
    const count = 3_000;
    const pipeline = redis.pipeline();
    for (let i = 0; i < count; i += 1) pipeline.set(`${from}:k:${i}`, `v${i}`);
    pipeline.set(`${from}:expiring`, "x", "PX", 600_000);
    await pipeline.exec();
    const clients = Array.from({ length: 4 }, () => new Redis(server.url));
    try {
      const moves = await Promise.all(clients.map((client) => moveNamespace(client, from, to, { batch: 100 })));
      expect(moves.reduce((sum, move) => sum + move.moved, 0)).toBe(count + 1);
      expect(moves.flatMap((move) => move.kept)).toEqual([]);
    } finally {
      for (const client of clients) client.disconnect();
    }
    expect(await keysUnder(from)).toEqual([]);
    expect(await redis.get(`${to}:k:0`)).toBe("v0");
    expect(await redis.get(`${to}:k:${count - 1}`)).toBe(`v${count - 1}`);
    expect(await redis.pttl(`${to}:expiring`)).toBeGreaterThan(500_000);
    expect(await redis.exists(`${to}:lease:namespace-move`)).toBe(0);
    expect((await moveNamespace(redis, from, to)).moved).toBe(0);
  });

  it("never overwrites: a key under both names stays as it is on both sides, and is reported", async () => {
    const from = `arb-move:${orgId}:both-old`;
    const to = `arb-move:${orgId}:both-new`;
    await redis.set(`${from}:store:delivery-sweep`, "old");
    await redis.set(`${to}:store:delivery-sweep`, "new");
    await redis.set(`${from}:store:other`, "moved");
    const move = await moveNamespace(redis, from, to);
    expect(move).toMatchObject({ moved: 1, kept: [`${from}:store:delivery-sweep`] });
    expect(await redis.get(`${from}:store:delivery-sweep`)).toBe("old");
    expect(await redis.get(`${to}:store:delivery-sweep`)).toBe("new");
    expect(await redis.get(`${to}:store:other`)).toBe("moved");
  });

  it("waits for a mover that holds the lease, and takes over when that mover died (its lease expired)", async () => {
    const from = `arb-move:${orgId}:dead-old`;
    const to = `arb-move:${orgId}:dead-new`;
    await redis.set(`${from}:a`, "1");
    // A replica killed mid-move: its lease stays until its TTL runs out.
    await redis.set(`${to}:lease:namespace-move`, "dead-replica", "PX", 300);
    const started = Date.now();
    const move = await moveNamespace(redis, from, to);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(move.moved).toBe(1);
    await redis.set(`${to}:lease:namespace-move`, "stuck", "PX", 60_000);
    await expect(moveNamespace(redis, from, to, { waitMs: 200 })).rejects.toThrow(
      /delete the key .*lease:namespace-move if no replica is running/,
    );
    await redis.del(`${to}:lease:namespace-move`);
  });

  it("a job an old replica held while the keys moved is run again by the new namespace's workers once its lock expires", async () => {
    const from = `arb-move:${orgId}:job-old`;
    const to = `arb-move:${orgId}:job-new`;
    const connection = { host: "127.0.0.1", port: server.port, maxRetriesPerRequest: null };
    const options = { connection, lockDurationMs: 400, stalledIntervalMs: 200, retry: { baseDelayMs: 20 } };
    const old = new BullWorkQueue({ ...options, prefix: `${from}:queue` });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const seenByOld: string[] = [];
    const processor = (seen: string[], wait: Promise<void> | null): JobProcessor => ({
      async process(job: QueuedJob) {
        seen.push(job.id);
        if (wait) await wait;
        return { kind: "done" };
      },
      onFailed: async () => undefined,
    });
    old.start(processor(seenByOld, blocked));
    await old.add({ id: "in-flight", name: "task", data: { taskId: 1 } });
    await until(() => seenByOld.length === 1, "the old replica to take the job");

    await moveNamespace(redis, from, to);
    // The old replica finishes its step: its keys are gone, so its hold on the job ends with it.
    release();
    await old.stop();

    const seenByNew: string[] = [];
    const fresh = new BullWorkQueue({ ...options, prefix: `${to}:queue` });
    fresh.start(processor(seenByNew, null));
    try {
      await until(() => seenByNew.includes("in-flight"), "the new namespace's worker to run the job again", 15_000);
      await until(async () => (await fresh.counts()).task.active === 0, "the job to finish");
      expect(await fresh.counts()).toMatchObject({ task: { waiting: 0, delayed: 0, active: 0 } });
    } finally {
      await fresh.stop();
    }
  });
});

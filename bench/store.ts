/**
 * The App's durable store in Redis with 1,000 watched tasks: the server memory they take (every key
 * under the store's prefix, as MEMORY USAGE counts it) against the JSON of the same tasks, what the
 * indexes keep once all of them finished, and one poll round (one progress patch per task, from two
 * clients as two replicas would) against the same round on the embedded SQLite store.
 *
 * `npx tsx bench/store.ts` (needs Redis on 127.0.0.1:6379, or REDIS_URL)
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { RedisBridgeStore } from "../src/app/store/redis.js";
import { SqliteBridgeStore } from "../src/app/store/sqlite.js";
import type { BridgeStore, NewTask, Task } from "../src/app/store/types.js";
import { SOURCE } from "../src/service/index.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, type BenchResult } from "./lib/report.js";

export interface StoreBenchOptions {
  tasks?: number;
  redisUrl?: string;
}

const NAME = "store";
const kb = (bytes: number) => `${formatNumber(bytes / 1024, 1)} KiB`;

function watchedTask(i: number): NewTask {
  return {
    kind: "create",
    state: "watching",
    sourceType: SOURCE.gitHost,
    thread: { installationId: 1, owner: "octo-org", repo: `repo-${i % 50}`, issueNumber: i + 1, triggerPhrase: "/agent" },
    runId: 500_000 + i,
    orgId: 7,
    trackingCommentId: 9_000_000 + i,
    reaction: { kind: "issue_comment", id: 8_000_000 + i },
    request: {
      prompt: `Fix the flaky test in module ${i}: it fails one run in ten on CI since the cache change.`,
      agent_type: "native",
      source_type: SOURCE.gitHost,
    },
    requestedBy: "maintainer",
    deadlineAt: Date.now() + 24 * 3_600_000,
  };
}

function progressPatch(i: number, round: number): Partial<Task> {
  return {
    lastStatus: "RUNNING",
    webUrl: `https://agents.example/runs/${500_000 + i}`,
    nextPollAt: Date.now() + 5_000,
    progress: {
      logsSeen: 40 * round,
      currentStep: `step ${round}: running the test suite`,
      errors: [],
      lastSteps: ["checkout", "install", "tests"],
      finalAnswer: null,
    },
  };
}

/** Every key under the prefix, split into task hashes and everything else (the indexes). */
async function memoryOf(redis: Redis, prefix: string): Promise<{ hashes: number; indexes: number; keys: number }> {
  let cursor = "0";
  let hashes = 0;
  let indexes = 0;
  let keys = 0;
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    cursor = next;
    for (const key of batch) {
      const bytes = Number(await redis.memory("USAGE", key, "SAMPLES", "0"));
      keys += 1;
      if (/:task:\d+$/.test(key)) hashes += bytes;
      else indexes += bytes;
    }
  } while (cursor !== "0");
  return { hashes, indexes, keys };
}

/** One poll round: each task patched once, half the tasks through each of two stores. */
async function pollRound(stores: readonly BridgeStore[], tasks: readonly Task[], round: number): Promise<number> {
  const started = performance.now();
  await Promise.all(tasks.map((task, i) => stores[i % stores.length]!.updateTask(task.id, progressPatch(i, round))));
  return performance.now() - started;
}

export async function runStoreBenchmark(options: StoreBenchOptions = {}): Promise<BenchResult> {
  const count = options.tasks ?? 1000;
  const url = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const clients = [0, 1].map(() => new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null }));
  for (const client of clients) client.on("error", () => undefined);
  try {
    await Promise.all(clients.map((c) => c.connect()));
  } catch (error) {
    clients.forEach((c) => c.disconnect());
    const why = `Redis at ${url} is not reachable (${(error as Error).message})`;
    return { benchmark: NAME, scale: null, notes: [why], rows: [unavailableRow(NAME, `Redis memory, ${count} watched tasks`, why, "—")] };
  }
  const prefix = `arb-bench-store:${randomUUID()}`;
  const dir = mkdtempSync(join(tmpdir(), "arb-bench-store-"));
  const redisStores = clients.map((c) => new RedisBridgeStore(c, { keyPrefix: prefix }));
  const sqliteFile = join(dir, "bridge.sqlite");
  const sqliteStores = [new SqliteBridgeStore(sqliteFile), new SqliteBridgeStore(sqliteFile)];
  try {
    const redisTasks: Task[] = [];
    const sqliteTasks: Task[] = [];
    for (let i = 0; i < count; i++) {
      redisTasks.push(await redisStores[0]!.insertTask(watchedTask(i)));
      sqliteTasks.push(await sqliteStores[0]!.insertTask(watchedTask(i)));
    }
    // Warm-up round (scripts loaded, statements prepared), then the measured ones.
    await pollRound(redisStores, redisTasks, 1);
    await pollRound(sqliteStores, sqliteTasks, 1);
    const rounds = 5;
    let redisMs = 0;
    let sqliteMs = 0;
    for (let round = 2; round < 2 + rounds; round++) {
      redisMs += await pollRound(redisStores, redisTasks, round);
      sqliteMs += await pollRound(sqliteStores, sqliteTasks, round);
    }
    const perUpdateRedis = (redisMs * 1000) / (rounds * count);
    const perUpdateSqlite = (sqliteMs * 1000) / (rounds * count);

    const stored = await redisStores[0]!.listTasks(["watching"]);
    const jsonBytes = stored.reduce((sum, task) => sum + Buffer.byteLength(JSON.stringify(task)), 0);
    const watching = await memoryOf(clients[0]!, prefix);
    const watchingTotal = watching.hashes + watching.indexes;

    for (const [i, task] of redisTasks.entries())
      await redisStores[i % 2]!.updateTask(task.id, { state: "done", finalRun: { id: task.runId, status: "SUCCEEDED" } });
    const finished = await memoryOf(clients[0]!, prefix);
    const sqliteBytes = statSync(sqliteFile).size + (statSync(`${sqliteFile}-wal`, { throwIfNoEntry: false })?.size ?? 0);

    return {
      benchmark: NAME,
      scale: null,
      notes: [
        `${count} tasks in the state "watching" (a 100-character prompt, a reaction, a tracking comment, progress with three steps, a web URL) in a fresh key prefix of the local Redis; memory is the sum of MEMORY USAGE … SAMPLES 0 over every key under the prefix (${watching.keys} keys). ` +
          `Baseline: the JSON of the same tasks as the store returns them (${kb(jsonBytes)}); the SQLite file with the same tasks takes ${kb(sqliteBytes)} on disk.`,
        `Indexes (every key but the task hashes): ${kb(watching.indexes)} while watching, ${kb(finished.indexes)} once every task is done (${finished.keys} keys): a finished task stays in its state set, the prune set by time, its thread's "done" set and its run's set.`,
        `Poll round: each task patched once (progress, status, web URL, next poll time), all at once, half through each of two clients on separate connections (two replicas); ${rounds} rounds after a warm-up. ` +
          `Baseline: the same rounds on the embedded SQLite store (two handles on one file, WAL, synchronous=NORMAL) in this process.`,
      ],
      rows: [
        {
          benchmark: NAME,
          figure: `Redis memory, ${formatNumber(count)} watched tasks`,
          value: kb(watchingTotal),
          baseline: `${kb(jsonBytes)} (the tasks as JSON)`,
          ratio: ratioOf(watchingTotal, jsonBytes),
          target: "—",
          met: "n/a",
        },
        {
          benchmark: NAME,
          figure: "Redis index memory per task, watching → done",
          value: `${formatNumber(finished.indexes / count, 0)} B done`,
          baseline: `${formatNumber(watching.indexes / count, 0)} B watching`,
          ratio: ratioOf(finished.indexes, watching.indexes),
          target: "—",
          met: "n/a",
        },
        {
          benchmark: NAME,
          figure: "progress patch, per task in a poll round",
          value: `${formatNumber(perUpdateRedis, 1)} µs (Redis, 2 clients)`,
          baseline: `${formatNumber(perUpdateSqlite, 1)} µs (SQLite)`,
          ratio: ratioOf(perUpdateRedis, perUpdateSqlite),
          target: "—",
          met: "n/a",
        },
      ],
    };
  } finally {
    let cursor = "0";
    do {
      const [next, batch] = await clients[0]!.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (batch.length > 0) await clients[0]!.del(...batch);
    } while (cursor !== "0");
    for (const store of sqliteStores) await store.close();
    await Promise.all(clients.map((c) => c.quit()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMainModule(import.meta.url)) runAsScript(() => runStoreBenchmark());

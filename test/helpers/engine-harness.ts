/**
 * A RunEngine driven by a real work queue, outside the App (engine tests, the polling benchmark):
 * the embedded backend (SQLite store and queue, in-process locks) or the Redis one (Redis store,
 * BullMQ queue, Redis locks) under a key prefix of its own.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { RunEngine, type RunEngineOptions } from "../../src/app/engine.js";
import { createRedisLeases, createSqliteLeases } from "../../src/app/lease.js";
import { createInProcessLocks, createRedisLocks } from "../../src/app/locks.js";
import { BullWorkQueue } from "../../src/app/queue/bullmq.js";
import { SqliteWorkQueue } from "../../src/app/queue/sqlite.js";
import { taskJobId, type RetryPolicy, type WorkQueue } from "../../src/app/queue/types.js";
import { RedisBridgeStore } from "../../src/app/store/redis.js";
import { SqliteBridgeStore } from "../../src/app/store/sqlite.js";
import type { BridgeStore, NewTask, Task } from "../../src/app/store/types.js";
import { dropRedisKeys, TEST_REDIS_URL, type AppBackendKind } from "./app-harness.js";
import { TEST_REDIS } from "./redis.js";

export interface EngineHarness {
  engine: RunEngine;
  store: BridgeStore;
  queue: WorkQueue;
  /** Inserts a task as the delivery worker would, and queues its first step. */
  add(task: Omit<NewTask, "deadlineAt">): Promise<Task>;
  /** Resolves once no task is queued, sending, watched or reported, and no task step waits or runs. */
  idle(): Promise<void>;
  /** Stops the engine and its queue, keeping the store (a crash or a restart). */
  stop(): Promise<void>;
  /** A new engine over the same store and queue (a restarted process). */
  restart(options?: Partial<RunEngineOptions>): Promise<EngineHarness>;
  close(): Promise<void>;
}

type EngineParts = Omit<RunEngineOptions, "store" | "queue" | "locks">;

export interface EngineHarnessOptions {
  /** The queue's retry policy (default: the App's, with its first retry scaled like the engine). */
  retry?: Partial<RetryPolicy>;
}

export async function startEngineHarness(
  backend: AppBackendKind,
  parts: EngineParts,
  harnessOptions: EngineHarnessOptions = {},
): Promise<EngineHarness> {
  const dir = mkdtempSync(join(tmpdir(), "arb-engine-"));
  const prefix = `arb-test:${randomUUID()}`;
  const redis = backend === "redis" ? new Redis(TEST_REDIS_URL) : null;
  const sqlite = backend === "embedded" ? new SqliteBridgeStore(join(dir, "bridge.sqlite")) : null;
  const store: BridgeStore = sqlite ?? new RedisBridgeStore(redis!, { keyPrefix: `${prefix}:store` });
  const scale = parts.timeScale ?? 1;
  const retry = { baseDelayMs: Math.max(20, 2_000 * scale), ...harnessOptions.retry };

  const open = (options: EngineParts): EngineHarness => {
    const queue: WorkQueue = sqlite
      ? new SqliteWorkQueue(sqlite.database, { retry })
      : new BullWorkQueue({ connection: { ...TEST_REDIS, maxRetriesPerRequest: null }, prefix: `${prefix}:queue`, retry });
    const locks = redis ? createRedisLocks(redis, { keyPrefix: prefix }) : createInProcessLocks();
    // As the App's backends keep them: every engine of one harness shares its leases.
    const leases = redis ? createRedisLeases(redis, { keyPrefix: prefix }) : createSqliteLeases(sqlite!.database);
    const engine = new RunEngine({ leases, ...options, store, queue, locks });
    queue.start({
      process: (job) => (job.name === "task" ? engine.processTask(job.data.taskId, job.data.step) : Promise.resolve({ kind: "done" })),
      onFailed: (job, error) => (job.name === "task" ? engine.onTaskFailed(job.data.taskId, error, job.data.step) : Promise.resolve()),
    });
    engine.start();
    const stop = async () => {
      await engine.stop();
      await queue.stop();
    };
    return {
      engine,
      store,
      queue,
      add: (task) => engine.submit(task),
      async idle() {
        for (;;) {
          const [counts, jobs] = await Promise.all([store.countByState(), queue.counts()]);
          // A step may still be writing after its task's state changed (an abandoned task's reply): wait for the jobs too.
          if (!counts.queued && !counts.sending && !counts.watching && !counts.reporting && jobs.task.active + jobs.task.waiting === 0)
            return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
      stop,
      async restart(more = {}) {
        return open({ ...options, ...more });
      },
      async close() {
        await stop();
        await store.close();
        if (redis) {
          await dropRedisKeys(prefix);
          redis.disconnect();
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
  return open(parts);
}

/** Queues a stored task's next step (a task inserted directly in the store, as a previous process left it). */
export async function queueTaskStep(queue: WorkQueue, taskId: number): Promise<void> {
  await queue.add({ id: taskJobId(taskId), name: "task", data: { taskId } });
}

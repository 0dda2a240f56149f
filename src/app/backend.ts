/**
 * Where the App keeps its state, its queue, its locks and its rate budgets: the embedded backend
 * (SQLite under DATA_DIR, one process) or, with REDIS_URL, Redis (BullMQ for the queue), shared by
 * every replica started with the same settings. Everything above this file sees one interface.
 */
import { join } from "node:path";
import type { Redis, RedisOptions } from "ioredis";
import { createInProcessBudget, createRedisBudget, type RateBudget } from "../service/budget.js";
import { AppConfigurationError, type AppSettings } from "./env.js";
import { assertNoEviction, redactUrl, redisConnectionOptions } from "./redis-guard.js";
import { createRedisLeases, createSqliteLeases, type Leases } from "./lease.js";
import { createInProcessLocks, createRedisLocks, type ThreadLocks } from "./locks.js";
import { loadOptional } from "./optional-deps.js";
import type { RetryPolicy, WorkQueue } from "./queue/types.js";
import { DATABASE_FILE_NAME, openOrExplain } from "./store/data-dir.js";
import { deploymentNamespace, moveNamespace, type NamespaceMove } from "./store/namespace.js";
import { RedisBridgeStore } from "./store/redis.js";
import type { BridgeStore } from "./store/types.js";

export interface Backend {
  kind: "embedded" | "redis";
  store: BridgeStore;
  queue: WorkQueue;
  locks: ThreadLocks;
  /** Renewable leases for background work one replica does at a time (the delivery recovery sweep, the runs list's sweeps). */
  leases: Leases;
  /** The service's rate budget for this API token (shared by every replica with Redis). */
  budget: RateBudget;
  /** The Redis client the GitHub write pacer shares (null when embedded). */
  redis: Redis | null;
  /** Key namespace for everything this deployment keeps in Redis (store/namespace.ts). */
  keyPrefix: string;
  /** What this start moved out of the token-keyed namespace of earlier versions (null: nothing to move). */
  namespaceMove: NamespaceMove | null;
  close(): Promise<void>;
}

export interface BackendOptions {
  retry?: Partial<RetryPolicy>;
  /** Redis: how long a dead replica's jobs stay locked before another takes them (ms). */
  lockDurationMs?: number;
}

export async function openBackend(settings: AppSettings, options: BackendOptions = {}): Promise<Backend> {
  const retry = { baseDelayMs: Math.max(20, 2_000 * settings.timeScale), ...options.retry };
  if (!settings.redisUrl) {
    // Loaded only here, like Redis below: replicas over Redis never need SQLite's native build.
    const [{ SqliteBridgeStore }, { SqliteWorkQueue }, { SqliteBudgetLedger }] = await loadOptional(
      "The App without REDIS_URL (its state in SQLite under DATA_DIR)",
      ["better-sqlite3"],
      () => Promise.all([import("./store/sqlite.js"), import("./queue/sqlite.js"), import("./store/sqlite-budget.js")]),
    );
    const file = join(settings.dataDir, DATABASE_FILE_NAME);
    const store = openOrExplain(() => new SqliteBridgeStore(file), settings.dataDir, file);
    return {
      kind: "embedded",
      store,
      queue: new SqliteWorkQueue(store.database, { retry }),
      locks: createInProcessLocks(),
      leases: createSqliteLeases(store.database),
      // In the same file as the state: a restarted process knows what its predecessor spent.
      budget: createInProcessBudget({ timeScale: settings.timeScale, ledger: new SqliteBudgetLedger(store.database) }),
      redis: null,
      keyPrefix: deploymentNamespace(settings).prefix,
      namespaceMove: null,
      close: () => store.close(),
    };
  }

  // Loaded only here: a single-repository App on SQLite never pays for the Redis client or BullMQ.
  const [{ Redis: RedisClient }, { BullWorkQueue }] = await loadOptional("The App with REDIS_URL", ["ioredis", "bullmq"], () =>
    Promise.all([import("ioredis"), import("./queue/bullmq.js")]),
  );
  // One set of options (password, user, TLS and its CA) for the App's client and BullMQ's connections alike.
  const redisOptions = redisConnectionOptions(settings.redisUrl, { password: settings.redisPassword, tlsCa: settings.redisTlsCa });
  const redis = await connectRedis(RedisClient, settings.redisUrl, redisOptions);
  const { prefix: keyPrefix, legacyPrefix } = deploymentNamespace(settings);
  let namespaceMove: NamespaceMove | null = null;
  try {
    await assertNoEviction(redis, settings.redisUrl);
    // Before anything opens in the namespace: a queue must not start on half its keys.
    if (legacyPrefix) namespaceMove = await moveNamespace(redis, legacyPrefix, keyPrefix);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const connection = { ...redisOptions, maxRetriesPerRequest: null };
  const store = new RedisBridgeStore(redis, { keyPrefix: `${keyPrefix}:store` });
  await store.migrate();
  // Keys moved from the namespace of an earlier version come without an epoch: they are not a store that came back empty.
  if (namespaceMove && namespaceMove.moved > 0) await store.carriedOver();
  return {
    kind: "redis",
    store,
    queue: new BullWorkQueue({
      connection,
      prefix: `${keyPrefix}:queue`,
      retry,
      ...(options.lockDurationMs ? { lockDurationMs: options.lockDurationMs } : {}),
    }),
    locks: createRedisLocks(redis, { keyPrefix }),
    leases: createRedisLeases(redis, { keyPrefix }),
    budget: createRedisBudget(redis, { timeScale: settings.timeScale, keyPrefix: `${keyPrefix}:budget` }),
    redis,
    keyPrefix,
    namespaceMove,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Connects once at start, so that a wrong REDIS_URL fails at once with a clear message (exit 2). */
async function connectRedis(RedisClient: typeof Redis, url: string, options: RedisOptions): Promise<Redis> {
  const redis = new RedisClient({ ...options, lazyConnect: true, connectTimeout: 3_000, maxRetriesPerRequest: 2 });
  // Later outages are reported by /healthz; ioredis reconnects by itself. The first one's cause (a refused password, a
  // certificate not trusted) is kept: connect() itself only says "Connection is closed".
  let cause: Error | undefined;
  redis.on("error", (error: Error) => void (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason =
      cause && cause.message !== (error as Error).message ? `${cause.message} (${(error as Error).message})` : (error as Error).message;
    throw new AppConfigurationError(
      [],
      [`REDIS_URL (cannot reach ${redactUrl(url)}: ${reason}; start Redis there, or unset REDIS_URL to run one replica on SQLite)`],
    );
  }
  return redis;
}

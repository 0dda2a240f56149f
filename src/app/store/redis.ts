import type { Redis } from "ioredis";
import { assertState, decodeTask, decodeTasks, encodeFields, headBranchField, repoKey, TASK_STATES } from "./redis-codec.js";
import { SCRIPTS } from "./redis-scripts.js";
import type { StoreCommands } from "./redis-scripts.js";
import { EMPTY_PROGRESS, threadKey } from "./task-keys.js";
import { EVENT_RETENTION_MS } from "./types.js";
import type {
  BridgeStore,
  DeliverySweep,
  HeadBranchKey,
  NewTask,
  Task,
  TaskOrder,
  TaskPatch,
  TaskState,
  StoreEpoch,
  ThreadId,
  WatchedRun,
} from "./types.js";

export interface RedisBridgeStoreOptions {
  /** Namespace of every key (`${keyPrefix}:…`): one per App deployment, shared by all its replicas. */
  keyPrefix: string;
  now?: () => number;
  /**
   * Whether `close()` quits the client. Default false: the client belongs to the caller (who may
   * share it with the rate budget or a queue) and the caller quits it.
   */
  ownsClient?: boolean;
  /** How long delivery ids and trigger keys are remembered even if nobody prunes (GitHub redelivers for days). */
  claimRetentionMs?: number;
}

const DEFAULT_CLAIM_RETENTION_MS = 8 * 24 * 60 * 60_000;
/** Finished tasks removed per script call by prune: each call is short, so other replicas are never held up long. */
const PRUNE_BATCH = 500;

/**
 * The App's state in Redis, for any number of replicas sharing one server: every method is one
 * command, one MULTI or one Lua script, so each is atomic across replicas. Tasks are hashes with one
 * field per Task field (a patch writes only its own fields); the indexes are sorted sets by task id
 * (see redis-scripts.ts for the layout). Needs Redis ≥ 5 (standalone or Sentinel).
 */
export class RedisBridgeStore implements BridgeStore {
  private readonly redis: Redis & StoreCommands;
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly ownsClient: boolean;
  private readonly claimRetentionMs: number;
  private closed = false;

  constructor(redis: Redis, options: RedisBridgeStoreOptions) {
    if (typeof options.keyPrefix !== "string" || options.keyPrefix.trim() === "") {
      throw new Error(
        'RedisBridgeStore needs a keyPrefix (e.g. "agent-run-bridge:my-org"): one per App deployment, shared by its replicas',
      );
    }
    if (redis.options.keyPrefix) {
      // ioredis would prefix the keys a script is given but not the ones it builds from them.
      throw new Error(
        "RedisBridgeStore needs a client without ioredis' own keyPrefix option: pass the prefix to the store as keyPrefix instead",
      );
    }
    for (const [name, definition] of Object.entries(SCRIPTS)) redis.defineCommand(name, definition);
    this.redis = redis as Redis & StoreCommands;
    this.prefix = options.keyPrefix;
    this.now = options.now ?? Date.now;
    this.ownsClient = options.ownsClient ?? false;
    this.claimRetentionMs = options.claimRetentionMs ?? DEFAULT_CLAIM_RETENTION_MS;
  }

  private get client(): Redis & StoreCommands {
    if (this.closed) throw new Error("the Redis store is closed: open a new RedisBridgeStore");
    return this.redis;
  }

  private key(...parts: Array<string | number>): string {
    return [this.prefix, ...parts].join(":");
  }

  private async claim(set: "deliveries" | "triggers" | "redeliveries", member: string): Promise<boolean> {
    const now = this.now();
    return (await this.client.arbStoreClaim(this.key(set), now, now - this.claimRetentionMs, member)) === 1;
  }

  markDelivery(deliveryId: string, _event: string): Promise<boolean> {
    return this.claim("deliveries", deliveryId);
  }

  async forgetDelivery(deliveryId: string): Promise<void> {
    await this.client.zrem(this.key("deliveries"), deliveryId);
  }

  async knownDeliveries(deliveryIds: readonly string[]): Promise<Set<string>> {
    if (deliveryIds.length === 0) return new Set();
    const scores = await this.client.zmscore(this.key("deliveries"), ...deliveryIds);
    return new Set(deliveryIds.filter((_, index) => scores[index] !== null));
  }

  /** A sorted set of claims like the deliveries' (pruned by the claim itself past the retention): one claim across replicas. */
  claimRedelivery(deliveryId: string): Promise<boolean> {
    return this.claim("redeliveries", deliveryId);
  }

  async lastDeliverySweep(): Promise<DeliverySweep | null> {
    const raw = await this.client.get(this.key("delivery-sweep"));
    return raw === null ? null : (JSON.parse(raw) as DeliverySweep);
  }

  async recordDeliverySweep(sweep: DeliverySweep): Promise<void> {
    await this.client.set(this.key("delivery-sweep"), JSON.stringify(sweep));
  }

  claimTrigger(key: string): Promise<boolean> {
    return this.claim("triggers", key);
  }

  async releaseTrigger(key: string): Promise<void> {
    await this.client.zrem(this.key("triggers"), key);
  }

  /** One hash field per claim (HSETNX is atomic across replicas); nothing expires it, as nothing prunes SQLite's. */
  async claimAutomation(key: string): Promise<boolean> {
    return (await this.client.hsetnx(this.key("automation-claims"), key, String(this.now()))) === 1;
  }

  async releaseAutomation(key: string): Promise<void> {
    await this.client.hdel(this.key("automation-claims"), key);
  }

  async prune(olderThanMs: number): Promise<void> {
    const cutoff = this.now() - olderThanMs;
    for (;;) {
      const removed = await this.client.arbStorePrune(
        this.key("finished"),
        this.key("deliveries"),
        this.key("triggers"),
        this.prefix,
        cutoff,
        PRUNE_BATCH,
      );
      if (Number(removed) < PRUNE_BATCH) return;
    }
  }

  async insertTask(task: NewTask): Promise<Task> {
    const fields: Partial<Task> = {
      ...task,
      startedAt: null,
      lastStatus: null,
      webUrl: null,
      progress: EMPTY_PROGRESS,
      finalRun: null,
      watchTimedOut: false,
      acknowledgedAt: null,
      sentAt: null,
      receivedAt: task.receivedAt ?? null,
      traceparent: task.traceparent ?? null,
      nextPollAt: 0,
      pollIntervalMs: 0,
      sweptAt: null,
      lastEditAt: 0,
      error: null,
      interrupt: task.interrupt ?? null,
      delivered: [],
      interruptsRefused: false,
    };
    const stored = await this.client.arbStoreInsertTask(this.key("task", "next-id"), this.prefix, this.now(), ...encodeFields(fields));
    return decodeTask(stored)!;
  }

  async getTask(id: number): Promise<Task | null> {
    const fields = await this.client.hgetall(this.key("task", id));
    return decodeTask(Object.entries(fields).flat());
  }

  async updateTask(id: number, patch: TaskPatch): Promise<Task> {
    const stored = await this.client.arbStoreUpdateTask(this.key("task", id), this.prefix, this.now(), id, ...encodeFields(patch));
    const task = decodeTask(stored);
    if (!task) throw new Error(`task ${id} does not exist`);
    return task;
  }

  async listTasks(states: TaskState[], limit = -1, order: TaskOrder = "oldest"): Promise<Task[]> {
    const unique = [...new Set(states)];
    unique.forEach(assertState);
    if (unique.length === 0 || limit === 0) return [];
    return decodeTasks(
      await this.client.arbStoreListTasks(this.key("task", "next-id"), this.prefix, limit < 0 ? -1 : limit, order, ...unique),
    );
  }

  async listWatchedRuns(): Promise<WatchedRun[]> {
    const ids = await this.listTaskIds(["watching"]);
    if (ids.length === 0) return [];
    const pipeline = this.client.pipeline();
    for (const id of ids) pipeline.hmget(this.key("task", id), "runId", "sentAt", "startedAt", "createdAt", "nextPollAt");
    const answers = (await pipeline.exec()) ?? [];
    const watched: WatchedRun[] = [];
    answers.forEach(([error, values], i) => {
      if (error || !Array.isArray(values)) return;
      const [runId, sentAt, startedAt, createdAt, nextPollAt] = (values as Array<string | null>).map((v) =>
        v === null ? null : (JSON.parse(v) as number | null),
      );
      if (typeof runId !== "number") return;
      watched.push({ taskId: ids[i]!, runId, sentAt: sentAt ?? startedAt ?? createdAt ?? 0, nextPollAt: nextPollAt ?? 0 });
    });
    return watched;
  }

  async markSwept(taskIds: readonly number[], at: number): Promise<void> {
    if (taskIds.length === 0) return;
    const pipeline = this.client.pipeline();
    // Only while the hash says watching with no final run: a task finished (or pruned) or handed over meanwhile is left as it is.
    // By its SHA (defineCommand): a sweep of 1,000 watched runs sends the script's text once, not 1,000 times.
    const marking = pipeline as typeof pipeline & { arbStoreMarkSwept(key: string, state: string, at: string): unknown };
    for (const id of taskIds) marking.arbStoreMarkSwept(this.key("task", id), JSON.stringify("watching"), JSON.stringify(at));
    await pipeline.exec();
  }

  async listTaskIds(states: TaskState[]): Promise<number[]> {
    const unique = [...new Set(states)];
    unique.forEach(assertState);
    if (unique.length === 0) return [];
    const transaction = this.client.multi();
    for (const state of unique) transaction.zrange(this.key("state", state), 0, -1);
    const ranges = (await transaction.exec()) ?? [];
    const ids = ranges.flatMap(([error, members]) => {
      if (error) throw error;
      return (members as string[]).map(Number);
    });
    return ids.sort((a, b) => a - b);
  }

  async recordEvent(keys: readonly string[], at: number): Promise<void> {
    const member = `${at}:${Math.random().toString(36).slice(2)}`;
    const multi = this.client.multi();
    for (const key of keys) {
      const events = this.key("events", key);
      multi
        .zadd(events, at, member)
        .zremrangebyscore(events, "-inf", `(${at - EVENT_RETENTION_MS}`)
        .pexpire(events, EVENT_RETENTION_MS);
    }
    await multi.exec();
  }

  async eventTimes(key: string, since: number): Promise<number[]> {
    const scores = await this.client.zrangebyscore(this.key("events", key), since, "+inf", "WITHSCORES");
    return scores.filter((_, i) => i % 2 === 1).map(Number);
  }

  async activeTaskForRun(runId: number): Promise<Task | null> {
    return decodeTask(await this.client.arbStoreActiveTaskForRun(this.key("run", runId), this.prefix));
  }

  async activeTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null> {
    const index = this.key("thread", threadKey({ owner, repo, issueNumber }), "active");
    return decodeTask(await this.client.arbStoreNewestInIndex(index, this.prefix));
  }

  async lastFinishedTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null> {
    const index = this.key("thread", threadKey({ owner, repo, issueNumber }), "done");
    return decodeTask(await this.client.arbStoreNewestInIndex(index, this.prefix));
  }

  async heldFor(runId: number, thread: ThreadId): Promise<Task[]> {
    return decodeTasks(
      await this.client.arbStoreHeldFor(this.key("run", runId), this.key("thread", threadKey(thread), "held"), this.prefix),
    );
  }

  async countByState(): Promise<Partial<Record<TaskState, number>>> {
    const transaction = this.client.multi();
    for (const state of TASK_STATES) transaction.zcard(this.key("state", state));
    const replies = (await transaction.exec()) ?? [];
    const counts: Partial<Record<TaskState, number>> = {};
    replies.forEach(([error, count], i) => {
      if (error) throw error;
      if (Number(count) > 0) counts[TASK_STATES[i]!] = Number(count);
    });
    return counts;
  }

  /**
   * The store's data came over from an earlier namespace (store/namespace.ts), written before stores
   * had an epoch: it goes back to the start (0), and nothing was lost. Kept if an epoch is there.
   */
  async carriedOver(): Promise<void> {
    await this.client.set(this.key("epoch"), "0", "NX");
  }

  async epoch(): Promise<StoreEpoch> {
    const now = this.now();
    // SET NX: the first replica to find the store empty writes it; every other reads the same value.
    const fresh = (await this.client.set(this.key("epoch"), String(now), "NX")) === "OK";
    if (fresh) return { createdAt: now, fresh };
    return { createdAt: Number(await this.client.get(this.key("epoch"))), fresh };
  }

  async knowsRun(runId: number): Promise<boolean> {
    return (await this.client.exists(this.key("run", runId))) === 1;
  }

  async lastWebUrlForRun(runId: number): Promise<string | null> {
    const url = await this.client.arbStoreLastWebUrlForRun(this.key("run", runId), this.prefix);
    return typeof url === "string" ? (JSON.parse(url) as string) : null;
  }

  /**
   * Brings data written by earlier versions to today's layout; `openBackend` calls it once at start
   * (each step is one script, so replicas starting together do not move anything twice).
   */
  async migrate(): Promise<void> {
    await this.client.arbStoreMigrateRunBranches(this.key("run-branches"), this.key("run-head-branches"));
  }

  async recordRunBranch(owner: string, repo: string, head: HeadBranchKey, runId: number, orgId: number): Promise<void> {
    await this.client.hset(this.key("run-head-branches"), headBranchField(owner, repo, head), JSON.stringify({ runId, orgId }));
  }

  async runForBranch(owner: string, repo: string, head: HeadBranchKey): Promise<{ runId: number; orgId: number } | null> {
    const value = await this.client.hget(this.key("run-head-branches"), headBranchField(owner, repo, head));
    return value === null ? null : (JSON.parse(value) as { runId: number; orgId: number });
  }

  async recordCheckAttempt(owner: string, repo: string, prNumber: number, headSha: string): Promise<boolean> {
    const repository = repoKey(owner, repo);
    const reply = await this.client.arbStoreRecordCheckAttempt(
      this.key("check-shas", repository),
      this.key("check-attempts", `${repository}#${prNumber}`),
      headSha,
      prNumber,
    );
    return reply === 1;
  }

  async checkAttempts(owner: string, repo: string, prNumber: number): Promise<{ count: number; shas: string[] }> {
    const shas = await this.client.lrange(this.key("check-attempts", `${repoKey(owner, repo)}#${prNumber}`), 0, -1);
    return { count: shas.length, shas };
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  /** Stops this store; quits the client only if it was given with `ownsClient: true`. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsClient && this.redis.status !== "end") await this.redis.quit();
  }
}

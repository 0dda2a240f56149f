import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { ACTIVE_STATES, COLUMNS, toTask } from "./sqlite-rows.js";
import type { TaskRow } from "./sqlite-rows.js";
import { prepareSchema } from "./sqlite-schema.js";
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

/**
 * SQLite in WAL mode with synchronous=NORMAL: every state change is one small transaction that
 * survives a process crash (kill -9); only a power loss could drop the last few.
 */
export class SqliteBridgeStore implements BridgeStore {
  private readonly db: Database.Database;
  private readonly now: () => number;

  constructor(file: string, options: { now?: () => number } = {}) {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      this.db.pragma("busy_timeout = 5000");
      prepareSchema(this.db);
    } catch (error) {
      // Not a database, or one it cannot write: let go of the file (it is not touched) before saying so.
      this.db.close();
      throw error;
    }
    this.now = options.now ?? Date.now;
  }

  /** The connection, for the embedded job queue that shares this file (one transaction log, one backup). */
  get database(): Database.Database {
    return this.db;
  }

  async listWatchedRuns(): Promise<WatchedRun[]> {
    return this.db
      .prepare(
        `SELECT id AS taskId, run_id AS runId, COALESCE(sent_at, started_at, created_at) AS sentAt, next_poll_at AS nextPollAt
         FROM tasks WHERE state = 'watching' AND run_id IS NOT NULL ORDER BY id`,
      )
      .all() as WatchedRun[];
  }

  async markSwept(taskIds: readonly number[], at: number): Promise<void> {
    // Not a task a sweep handed a final run over to: its swept_at dates that run (a follow-up after it makes it stale).
    const mark = this.db.prepare("UPDATE tasks SET swept_at = ? WHERE id = ? AND state = 'watching' AND final_run IS NULL");
    this.db.transaction(() => {
      for (const id of taskIds) mark.run(at, id);
    })();
  }

  async markDelivery(deliveryId: string, event: string): Promise<boolean> {
    const info = this.db
      .prepare("INSERT OR IGNORE INTO deliveries (id, event, received_at) VALUES (?, ?, ?)")
      .run(deliveryId, event, this.now());
    return info.changes === 1;
  }

  async forgetDelivery(deliveryId: string): Promise<void> {
    this.db.prepare("DELETE FROM deliveries WHERE id = ?").run(deliveryId);
  }

  async knownDeliveries(deliveryIds: readonly string[]): Promise<Set<string>> {
    const known = new Set<string>();
    const lookup = this.db.prepare("SELECT 1 FROM deliveries WHERE id = ?").pluck();
    for (const id of deliveryIds) if (lookup.get(id) !== undefined) known.add(id);
    return known;
  }

  async claimRedelivery(deliveryId: string): Promise<boolean> {
    const info = this.db.prepare("INSERT OR IGNORE INTO redelivery_claims (id, claimed_at) VALUES (?, ?)").run(deliveryId, this.now());
    return info.changes === 1;
  }

  async lastDeliverySweep(): Promise<DeliverySweep | null> {
    const row = this.db.prepare("SELECT sweep FROM delivery_sweeps WHERE id = 1").pluck().get() as string | undefined;
    return row === undefined ? null : (JSON.parse(row) as DeliverySweep);
  }

  async recordDeliverySweep(sweep: DeliverySweep): Promise<void> {
    this.db
      .prepare("INSERT INTO delivery_sweeps (id, sweep) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET sweep = excluded.sweep")
      .run(JSON.stringify(sweep));
  }

  async releaseTrigger(key: string): Promise<void> {
    this.db.prepare("DELETE FROM trigger_keys WHERE key = ?").run(key);
  }

  async claimTrigger(key: string): Promise<boolean> {
    const info = this.db.prepare("INSERT OR IGNORE INTO trigger_keys (key, claimed_at) VALUES (?, ?)").run(key, this.now());
    return info.changes === 1;
  }

  async claimAutomation(key: string): Promise<boolean> {
    const info = this.db.prepare("INSERT OR IGNORE INTO automation_claims (key, claimed_at) VALUES (?, ?)").run(key, this.now());
    return info.changes === 1;
  }

  async releaseAutomation(key: string): Promise<void> {
    this.db.prepare("DELETE FROM automation_claims WHERE key = ?").run(key);
  }

  async prune(olderThanMs: number): Promise<void> {
    const cutoff = this.now() - olderThanMs;
    this.db.prepare("DELETE FROM deliveries WHERE received_at < ?").run(cutoff);
    this.db.prepare("DELETE FROM trigger_keys WHERE claimed_at < ?").run(cutoff);
    this.db.prepare("DELETE FROM redelivery_claims WHERE claimed_at < ?").run(cutoff);
    this.db.prepare("DELETE FROM tasks WHERE state IN ('done', 'abandoned') AND updated_at < ?").run(cutoff);
    this.db.prepare("DELETE FROM events WHERE at < ?").run(Math.min(cutoff, this.now() - EVENT_RETENTION_MS));
  }

  async insertTask(task: NewTask): Promise<Task> {
    const now = this.now();
    const info = this.db
      .prepare(
        `INSERT INTO tasks (kind, state, source_type, thread, thread_key, run_id, org_id, tracking_comment_id, reaction, request, requested_by,
           created_at, progress, deadline_at, updated_at, received_at, interrupt, traceparent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        task.kind,
        task.state,
        task.sourceType,
        JSON.stringify(task.thread),
        threadKey(task.thread),
        task.runId,
        task.orgId,
        task.trackingCommentId,
        task.reaction ? JSON.stringify(task.reaction) : null,
        JSON.stringify(task.request),
        task.requestedBy,
        now,
        JSON.stringify(EMPTY_PROGRESS),
        task.deadlineAt,
        now,
        task.receivedAt ?? null,
        task.interrupt ? JSON.stringify(task.interrupt) : null,
        task.traceparent ?? null,
      );
    return this.readTask(Number(info.lastInsertRowid))!;
  }

  async getTask(id: number): Promise<Task | null> {
    return this.readTask(id);
  }

  private readTask(id: number): Task | null {
    const row = this.db.prepare("SELECT * FROM tasks WHERE id = ?").get(id) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  async updateTask(id: number, patch: TaskPatch): Promise<Task> {
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [key, value] of Object.entries(patch) as Array<[keyof Task, never]>) {
      const column = COLUMNS[key] as [string, (v: never) => unknown] | undefined;
      if (!column) continue;
      sets.push(`${column[0]} = ?`);
      values.push(column[1](value));
    }
    if (patch.thread) {
      sets.push("thread_key = ?");
      values.push(threadKey(patch.thread));
    }
    sets.push("updated_at = ?");
    values.push(this.now());
    this.db.prepare(`UPDATE tasks SET ${sets.join(", ")} WHERE id = ?`).run(...values, id);
    const task = this.readTask(id);
    if (!task) throw new Error(`task ${id} does not exist`);
    return task;
  }

  async listTasks(states: TaskState[], limit = -1, order: TaskOrder = "oldest"): Promise<Task[]> {
    if (states.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT * FROM tasks WHERE state IN (${states.map(() => "?").join(", ")}) ORDER BY id ${order === "newest" ? "DESC" : "ASC"} LIMIT ?`,
      )
      .all(...states, limit) as TaskRow[];
    return rows.map(toTask);
  }

  async listTaskIds(states: TaskState[]): Promise<number[]> {
    if (states.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT id FROM tasks WHERE state IN (${states.map(() => "?").join(", ")}) ORDER BY id ASC`)
      .all(...states) as Array<{ id: number }>;
    return rows.map((row) => row.id);
  }

  async activeTaskForRun(runId: number): Promise<Task | null> {
    const row = this.db
      .prepare(`SELECT * FROM tasks WHERE run_id = ? AND state IN (${ACTIVE_STATES.map(() => "?").join(", ")}) ORDER BY id DESC LIMIT 1`)
      .get(runId, ...ACTIVE_STATES) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  async activeTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null> {
    const row = this.db
      .prepare(
        `SELECT * FROM tasks WHERE thread_key = ? AND state IN (${ACTIVE_STATES.map(() => "?").join(", ")}) ORDER BY id DESC LIMIT 1`,
      )
      .get(threadKey({ owner, repo, issueNumber }), ...ACTIVE_STATES) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  async lastFinishedTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null> {
    const row = this.db
      .prepare("SELECT * FROM tasks WHERE thread_key = ? AND state = 'done' AND run_id IS NOT NULL ORDER BY id DESC LIMIT 1")
      .get(threadKey({ owner, repo, issueNumber })) as TaskRow | undefined;
    return row ? toTask(row) : null;
  }

  async heldFor(runId: number, thread: ThreadId): Promise<Task[]> {
    const rows = this.db
      .prepare("SELECT * FROM tasks WHERE state = 'held' AND (run_id = ? OR (run_id IS NULL AND thread_key = ?)) ORDER BY id")
      .all(runId, threadKey(thread)) as TaskRow[];
    return rows.map(toTask);
  }

  async countByState(): Promise<Partial<Record<TaskState, number>>> {
    const rows = this.db.prepare("SELECT state, COUNT(*) AS n FROM tasks GROUP BY state").all() as Array<{ state: TaskState; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  async epoch(): Promise<StoreEpoch> {
    const read = () => this.db.prepare("SELECT created_at FROM store_epoch WHERE id = 1").pluck().get() as number | undefined;
    const written = read();
    if (written !== undefined) return { createdAt: written, fresh: false };
    // No epoch yet. Tasks without one are a store from before epochs (an upgrade): its data goes back
    // to the start (0) and nothing was lost.
    const empty = this.db.prepare("SELECT 1 FROM tasks LIMIT 1").pluck().get() === undefined;
    this.db.prepare("INSERT OR IGNORE INTO store_epoch (id, created_at) VALUES (1, ?)").run(empty ? this.now() : 0);
    return { createdAt: read()!, fresh: empty };
  }

  async knowsRun(runId: number): Promise<boolean> {
    return this.db.prepare("SELECT 1 FROM tasks WHERE run_id = ? LIMIT 1").pluck().get(runId) !== undefined;
  }

  async lastWebUrlForRun(runId: number): Promise<string | null> {
    const row = this.db
      .prepare("SELECT web_url FROM tasks WHERE run_id = ? AND web_url IS NOT NULL ORDER BY id DESC LIMIT 1")
      .get(runId) as { web_url: string } | undefined;
    return row?.web_url ?? null;
  }

  async recordRunBranch(owner: string, repo: string, head: HeadBranchKey, runId: number, orgId: number): Promise<void> {
    this.db
      .prepare("INSERT OR REPLACE INTO run_head_branches (owner, repo, head_repo, branch, run_id, org_id) VALUES (?, ?, ?, ?, ?, ?)")
      .run(owner.toLowerCase(), repo.toLowerCase(), head.repoFullName.toLowerCase(), head.branch, runId, orgId);
  }

  async runForBranch(owner: string, repo: string, head: HeadBranchKey): Promise<{ runId: number; orgId: number } | null> {
    const row = this.db
      .prepare("SELECT run_id, org_id FROM run_head_branches WHERE owner = ? AND repo = ? AND head_repo = ? AND branch = ?")
      .get(owner.toLowerCase(), repo.toLowerCase(), head.repoFullName.toLowerCase(), head.branch) as
      { run_id: number; org_id: number } | undefined;
    return row ? { runId: row.run_id, orgId: row.org_id } : null;
  }

  async recordCheckAttempt(owner: string, repo: string, prNumber: number, headSha: string): Promise<boolean> {
    const info = this.db
      .prepare("INSERT OR IGNORE INTO check_attempts (owner, repo, pr_number, head_sha, attempted_at) VALUES (?, ?, ?, ?, ?)")
      .run(owner.toLowerCase(), repo.toLowerCase(), prNumber, headSha, this.now());
    return info.changes === 1;
  }

  async checkAttempts(owner: string, repo: string, prNumber: number): Promise<{ count: number; shas: string[] }> {
    const rows = this.db
      .prepare("SELECT head_sha FROM check_attempts WHERE owner = ? AND repo = ? AND pr_number = ? ORDER BY attempted_at")
      .all(owner.toLowerCase(), repo.toLowerCase(), prNumber) as Array<{ head_sha: string }>;
    return { count: rows.length, shas: rows.map((r) => r.head_sha) };
  }

  async recordEvent(keys: readonly string[], at: number): Promise<void> {
    const insert = this.db.prepare("INSERT INTO events (key, at) VALUES (?, ?)");
    this.db.transaction(() => {
      for (const key of keys) insert.run(key, at);
    })();
  }

  async eventTimes(key: string, since: number): Promise<number[]> {
    const rows = this.db.prepare("SELECT at FROM events WHERE key = ? AND at >= ? ORDER BY at").all(key, since) as Array<{ at: number }>;
    return rows.map((r) => r.at);
  }

  async ping(): Promise<void> {
    this.db.prepare("SELECT 1").get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

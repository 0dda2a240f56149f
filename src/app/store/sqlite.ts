import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
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
  ThreadId,
  TraceProgress,
  WatchedRun,
} from "./types.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS redelivery_claims (id TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS delivery_sweeps (id INTEGER PRIMARY KEY CHECK (id = 1), sweep TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS trigger_keys (key TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  source_type TEXT NOT NULL,
  thread TEXT NOT NULL,
  thread_key TEXT NOT NULL DEFAULT '',
  run_id INTEGER,
  org_id INTEGER NOT NULL,
  tracking_comment_id INTEGER,
  reaction TEXT,
  request TEXT NOT NULL,
  requested_by TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  last_status TEXT,
  web_url TEXT,
  progress TEXT NOT NULL,
  final_run TEXT,
  next_poll_at INTEGER NOT NULL DEFAULT 0,
  poll_interval_ms INTEGER NOT NULL DEFAULT 0,
  swept_at INTEGER,
  last_edit_at INTEGER NOT NULL DEFAULT 0,
  deadline_at INTEGER NOT NULL,
  error TEXT,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_by_state ON tasks(state, id);
CREATE INDEX IF NOT EXISTS tasks_by_due ON tasks(state, next_poll_at);
CREATE INDEX IF NOT EXISTS tasks_by_run ON tasks(run_id, state);
CREATE TABLE IF NOT EXISTS run_head_branches (
  owner TEXT NOT NULL, repo TEXT NOT NULL, head_repo TEXT NOT NULL, branch TEXT NOT NULL, run_id INTEGER NOT NULL, org_id INTEGER NOT NULL,
  PRIMARY KEY (owner, repo, head_repo, branch)
);
CREATE TABLE IF NOT EXISTS events (key TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_key ON events(key, at);
CREATE TABLE IF NOT EXISTS check_attempts (
  owner TEXT NOT NULL, repo TEXT NOT NULL, pr_number INTEGER NOT NULL, head_sha TEXT NOT NULL, attempted_at INTEGER NOT NULL,
  PRIMARY KEY (owner, repo, head_sha)
);
`;

interface TaskRow {
  id: number;
  kind: string;
  state: string;
  source_type: string;
  thread: string;
  run_id: number | null;
  org_id: number;
  tracking_comment_id: number | null;
  reaction: string | null;
  request: string;
  requested_by: string | null;
  created_at: number;
  started_at: number | null;
  last_status: string | null;
  web_url: string | null;
  progress: string;
  final_run: string | null;
  watch_timed_out: number;
  acknowledged_at: number | null;
  sent_at: number | null;
  received_at: number | null;
  next_poll_at: number;
  poll_interval_ms: number;
  swept_at: number | null;
  last_edit_at: number;
  deadline_at: number;
  error: string | null;
  interrupt: string | null;
  delivered: string;
  interrupts_refused: number;
  updated_at: number;
}

const EMPTY_PROGRESS: TraceProgress = { logsSeen: 0, currentStep: null, errors: [], lastSteps: [], finalAnswer: null };
const ACTIVE_STATES: TaskState[] = ["queued", "sending", "watching", "reporting"];

/** Column name for each Task field that can be patched, with its encoder. */
const COLUMNS: { [K in keyof Task]?: [string, (v: Task[K]) => unknown] } = {
  kind: ["kind", (v) => v],
  state: ["state", (v) => v],
  sourceType: ["source_type", (v) => v],
  thread: ["thread", (v) => JSON.stringify(v)],
  runId: ["run_id", (v) => v],
  orgId: ["org_id", (v) => v],
  trackingCommentId: ["tracking_comment_id", (v) => v],
  reaction: ["reaction", (v) => (v ? JSON.stringify(v) : null)],
  request: ["request", (v) => JSON.stringify(v)],
  requestedBy: ["requested_by", (v) => v],
  startedAt: ["started_at", (v) => v],
  lastStatus: ["last_status", (v) => v],
  webUrl: ["web_url", (v) => v],
  progress: ["progress", (v) => JSON.stringify(v)],
  finalRun: ["final_run", (v) => (v ? JSON.stringify(v) : null)],
  watchTimedOut: ["watch_timed_out", (v) => (v ? 1 : 0)],
  acknowledgedAt: ["acknowledged_at", (v) => v],
  sentAt: ["sent_at", (v) => v],
  receivedAt: ["received_at", (v) => v],
  nextPollAt: ["next_poll_at", (v) => v],
  pollIntervalMs: ["poll_interval_ms", (v) => v],
  sweptAt: ["swept_at", (v) => v],
  lastEditAt: ["last_edit_at", (v) => v],
  deadlineAt: ["deadline_at", (v) => v],
  error: ["error", (v) => v],
  interrupt: ["interrupt", (v) => (v ? JSON.stringify(v) : null)],
  delivered: ["delivered", (v) => JSON.stringify(v)],
  interruptsRefused: ["interrupts_refused", (v) => (v ? 1 : 0)],
};

/** One indexed column per conversation, so thread lookups never read other threads' tasks. */
function threadKey(thread: ThreadId): string {
  return `${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}#${thread.issueNumber}`;
}

function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    kind: row.kind as Task["kind"],
    state: row.state as TaskState,
    sourceType: row.source_type as Task["sourceType"],
    thread: JSON.parse(row.thread) as Task["thread"],
    runId: row.run_id,
    orgId: row.org_id,
    trackingCommentId: row.tracking_comment_id,
    reaction: row.reaction ? (JSON.parse(row.reaction) as Task["reaction"]) : null,
    request: JSON.parse(row.request) as Task["request"],
    requestedBy: row.requested_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    lastStatus: row.last_status,
    webUrl: row.web_url,
    progress: { ...EMPTY_PROGRESS, ...(JSON.parse(row.progress) as Partial<TraceProgress>) },
    finalRun: row.final_run ? (JSON.parse(row.final_run) as Record<string, unknown>) : null,
    watchTimedOut: row.watch_timed_out === 1,
    acknowledgedAt: row.acknowledged_at,
    sentAt: row.sent_at,
    receivedAt: row.received_at,
    nextPollAt: row.next_poll_at,
    pollIntervalMs: row.poll_interval_ms,
    sweptAt: row.swept_at ?? null,
    lastEditAt: row.last_edit_at,
    deadlineAt: row.deadline_at,
    error: row.error,
    interrupt: row.interrupt ? (JSON.parse(row.interrupt) as Task["interrupt"]) : null,
    delivered: JSON.parse(row.delivered) as Task["delivered"],
    interruptsRefused: row.interrupts_refused === 1,
    updatedAt: row.updated_at,
  };
}

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
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
    this.addThreadKeyColumn();
    this.addColumnsOf020();
    this.addSweptAtColumn();
    this.moveRunBranchesToHeadKeys();
    this.addInterruptColumns();
    this.db.exec("CREATE INDEX IF NOT EXISTS tasks_by_thread ON tasks(thread_key, state, id)");
    this.now = options.now ?? Date.now;
  }

  /** The tasks table's columns as the file has them: each migration below adds what an older store lacks. */
  private taskColumns(): Set<string> {
    return new Set((this.db.prepare("PRAGMA table_info(tasks)").all() as Array<{ name: string }>).map((c) => c.name));
  }

  /** Stores written before the column existed get it, filled from each task's thread. */
  private addThreadKeyColumn(): void {
    if (this.taskColumns().has("thread_key")) return;
    this.db.exec("ALTER TABLE tasks ADD COLUMN thread_key TEXT NOT NULL DEFAULT ''");
    const rows = this.db.prepare("SELECT id, thread FROM tasks").all() as Array<{ id: number; thread: string }>;
    const update = this.db.prepare("UPDATE tasks SET thread_key = ? WHERE id = ?");
    this.db.transaction(() => {
      for (const row of rows) update.run(threadKey(JSON.parse(row.thread) as ThreadId), row.id);
    })();
  }

  /**
   * Columns added with the queue-first App: stores from 0.1 get them. Their `finalRun.__watchTimedOut`
   * (the old way of saying "the watch timed out") becomes the column.
   */
  private addColumnsOf020(): void {
    if (this.taskColumns().has("watch_timed_out")) return;
    this.db.transaction(() => {
      this.db.exec("ALTER TABLE tasks ADD COLUMN watch_timed_out INTEGER NOT NULL DEFAULT 0");
      this.db.exec("ALTER TABLE tasks ADD COLUMN acknowledged_at INTEGER");
      this.db.exec("ALTER TABLE tasks ADD COLUMN sent_at INTEGER");
      this.db.exec("ALTER TABLE tasks ADD COLUMN received_at INTEGER");
      // Tasks of 0.1 were acknowledged by the webhook handler before the engine saw them.
      this.db.exec("UPDATE tasks SET acknowledged_at = created_at");
      this.db.exec("UPDATE tasks SET sent_at = updated_at WHERE state = 'sending'");
      this.db.exec(
        "UPDATE tasks SET watch_timed_out = 1, final_run = json_remove(final_run, '$.__watchTimedOut') WHERE json_extract(final_run, '$.__watchTimedOut') = 1",
      );
    })();
  }

  /** Stores written before sweeps of the runs list get the column (null: never swept). */
  private addSweptAtColumn(): void {
    if (!this.taskColumns().has("swept_at")) this.db.exec("ALTER TABLE tasks ADD COLUMN swept_at INTEGER");
  }

  /**
   * Stores written before the head repository was part of the key (`run_branches`, 0.1) knew branches by name alone: every branch a run produced
   * lives in the repository it ran on, so each row becomes the same branch of that repository.
   */
  private moveRunBranchesToHeadKeys(): void {
    const old = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'run_branches'").get();
    if (!old) return;
    this.db.transaction(() => {
      this.db.exec(
        "INSERT OR IGNORE INTO run_head_branches (owner, repo, head_repo, branch, run_id, org_id) SELECT owner, repo, owner || '/' || repo, branch, run_id, org_id FROM run_branches",
      );
      this.db.exec("DROP TABLE run_branches");
    })();
  }

  /** Columns added with `follow_up: interrupt`: older stores get them, empty. */
  private addInterruptColumns(): void {
    if (this.taskColumns().has("interrupt")) return;
    this.db.transaction(() => {
      this.db.exec("ALTER TABLE tasks ADD COLUMN interrupt TEXT");
      this.db.exec("ALTER TABLE tasks ADD COLUMN delivered TEXT NOT NULL DEFAULT '[]'");
      this.db.exec("ALTER TABLE tasks ADD COLUMN interrupts_refused INTEGER NOT NULL DEFAULT 0");
    })();
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
           created_at, progress, deadline_at, updated_at, received_at, interrupt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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

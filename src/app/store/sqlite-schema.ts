/**
 * The SQLite store's tables, and the steps that bring a file written by an earlier version to them: each step adds
 * what an older store lacks and does nothing on a current one, so opening any file is safe.
 */
import type Database from "better-sqlite3";
import { threadKey } from "./task-keys.js";
import type { ThreadId } from "./types.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL, received_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS redelivery_claims (id TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS store_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS delivery_sweeps (id INTEGER PRIMARY KEY CHECK (id = 1), sweep TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS trigger_keys (key TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS automation_claims (key TEXT PRIMARY KEY, claimed_at INTEGER NOT NULL);
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

/** Creates what is missing and migrates what is old; returns once the file has today's layout. */
export function prepareSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  addThreadKeyColumn(db);
  addColumnsOf020(db);
  addSweptAtColumn(db);
  moveRunBranchesToHeadKeys(db);
  addInterruptColumns(db);
  if (!taskColumns(db).has("traceparent")) db.exec("ALTER TABLE tasks ADD COLUMN traceparent TEXT");
  db.exec("CREATE INDEX IF NOT EXISTS tasks_by_thread ON tasks(thread_key, state, id)");
}

/** The tasks table's columns as the file has them: each migration below adds what an older store lacks. */
function taskColumns(db: Database.Database): Set<string> {
  return new Set((db.prepare("PRAGMA table_info(tasks)").all() as Array<{ name: string }>).map((c) => c.name));
}

/** Stores written before the column existed get it, filled from each task's thread. */
function addThreadKeyColumn(db: Database.Database): void {
  if (taskColumns(db).has("thread_key")) return;
  db.exec("ALTER TABLE tasks ADD COLUMN thread_key TEXT NOT NULL DEFAULT ''");
  const rows = db.prepare("SELECT id, thread FROM tasks").all() as Array<{ id: number; thread: string }>;
  const update = db.prepare("UPDATE tasks SET thread_key = ? WHERE id = ?");
  db.transaction(() => {
    for (const row of rows) update.run(threadKey(JSON.parse(row.thread) as ThreadId), row.id);
  })();
}

/**
 * Columns added with the queue-first App: stores from 0.1 get them. Their `finalRun.__watchTimedOut`
 * (the old way of saying "the watch timed out") becomes the column.
 */
function addColumnsOf020(db: Database.Database): void {
  if (taskColumns(db).has("watch_timed_out")) return;
  db.transaction(() => {
    db.exec("ALTER TABLE tasks ADD COLUMN watch_timed_out INTEGER NOT NULL DEFAULT 0");
    db.exec("ALTER TABLE tasks ADD COLUMN acknowledged_at INTEGER");
    db.exec("ALTER TABLE tasks ADD COLUMN sent_at INTEGER");
    db.exec("ALTER TABLE tasks ADD COLUMN received_at INTEGER");
    // Tasks of 0.1 were acknowledged by the webhook handler before the engine saw them.
    db.exec("UPDATE tasks SET acknowledged_at = created_at");
    db.exec("UPDATE tasks SET sent_at = updated_at WHERE state = 'sending'");
    db.exec(
      "UPDATE tasks SET watch_timed_out = 1, final_run = json_remove(final_run, '$.__watchTimedOut') WHERE json_extract(final_run, '$.__watchTimedOut') = 1",
    );
  })();
}

/** Stores written before sweeps of the runs list get the column (null: never swept). */
function addSweptAtColumn(db: Database.Database): void {
  if (!taskColumns(db).has("swept_at")) db.exec("ALTER TABLE tasks ADD COLUMN swept_at INTEGER");
}

/**
 * Stores written before the head repository was part of the key (`run_branches`, 0.1) knew branches by name alone: every branch a run produced
 * lives in the repository it ran on, so each row becomes the same branch of that repository.
 */
function moveRunBranchesToHeadKeys(db: Database.Database): void {
  const old = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'run_branches'").get();
  if (!old) return;
  db.transaction(() => {
    db.exec(
      "INSERT OR IGNORE INTO run_head_branches (owner, repo, head_repo, branch, run_id, org_id) SELECT owner, repo, owner || '/' || repo, branch, run_id, org_id FROM run_branches",
    );
    db.exec("DROP TABLE run_branches");
  })();
}

/** Columns added with `follow_up: interrupt`: older stores get them, empty. */
function addInterruptColumns(db: Database.Database): void {
  if (taskColumns(db).has("interrupt")) return;
  db.transaction(() => {
    db.exec("ALTER TABLE tasks ADD COLUMN interrupt TEXT");
    db.exec("ALTER TABLE tasks ADD COLUMN delivered TEXT NOT NULL DEFAULT '[]'");
    db.exec("ALTER TABLE tasks ADD COLUMN interrupts_refused INTEGER NOT NULL DEFAULT 0");
  })();
}

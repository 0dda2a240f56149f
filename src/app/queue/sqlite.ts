import type Database from "better-sqlite3";
import { DEFAULT_RETRY, retryDelay } from "./types.js";
import type { JobName, JobOutcome, JobProcessor, JobSpec, QueueCounts, QueuedJob, RetryPolicy, WorkQueue } from "./types.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  data TEXT NOT NULL,
  run_at INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 1,
  active INTEGER NOT NULL DEFAULT 0,
  priority INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs(active, run_at, priority);
`;

interface JobRow {
  id: string;
  name: JobSpec["name"];
  data: string;
  run_at: number;
  attempt: number;
}

/** Deliveries first: a person is waiting for the acknowledgement; polls can wait a moment. */
const PRIORITY: Record<JobSpec["name"], number> = { delivery: 0, task: 1 };

export interface SqliteQueueOptions {
  /**
   * Jobs processed at once (default 400); the rest wait in the table, not in memory. A step may wait
   * for a paced GitHub write or the service's budget while it holds its place, and such waits cost
   * only a promise: too few places and a burst in one installation holds back everything else.
   */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
}

/**
 * The embedded queue: a table in the App's SQLite file, served by one process. A job marked active
 * when the process died is simply taken again on start (its step knows how to resume: see the engine).
 */
export class SqliteWorkQueue implements WorkQueue {
  private readonly concurrency: number;
  private readonly retry: RetryPolicy;
  private readonly now: () => number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private processor: JobProcessor | null = null;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly db: Database.Database,
    options: SqliteQueueOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 400;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.now = options.now ?? Date.now;
    this.db.exec(SCHEMA);
  }

  async add(job: JobSpec): Promise<void> {
    const now = this.now();
    const info = this.db
      .prepare("INSERT OR IGNORE INTO jobs (id, name, data, run_at, priority, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(job.id, job.name, JSON.stringify(job.data), now + (job.delayMs ?? 0), PRIORITY[job.name], now);
    if (info.changes === 1) this.schedule(job.delayMs ?? 0);
  }

  async promote(id: string): Promise<void> {
    const info = this.db.prepare("UPDATE jobs SET run_at = ? WHERE id = ? AND active = 0 AND run_at > ?").run(this.now(), id, this.now());
    if (info.changes === 1) this.schedule(0);
  }

  start(processor: JobProcessor): void {
    this.processor = processor;
    // One process owns the file: whatever was active belonged to a process that is gone.
    this.db.prepare("UPDATE jobs SET active = 0 WHERE active = 1").run();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.processor = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  async counts(): Promise<QueueCounts> {
    const now = this.now();
    const rows = this.db
      .prepare(
        "SELECT name, SUM(active = 1) AS active, SUM(active = 0 AND run_at <= ?) AS waiting, SUM(active = 0 AND run_at > ?) AS delayed FROM jobs GROUP BY name",
      )
      .all(now, now) as Array<{ name: JobName; active: number; waiting: number; delayed: number }>;
    const counts: QueueCounts = { delivery: { waiting: 0, delayed: 0, active: 0 }, task: { waiting: 0, delayed: 0, active: 0 } };
    for (const row of rows) counts[row.name] = { waiting: row.waiting, delayed: row.delayed, active: row.active };
    return counts;
  }

  async ping(): Promise<void> {
    this.db.prepare("SELECT 1").get();
  }

  private schedule(delayMs: number): void {
    if (!this.processor) return;
    const at = this.now() + Math.max(0, delayMs);
    if (this.timer && at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.pump(), Math.max(0, delayMs));
  }

  /** Takes every due job a free slot allows, then sleeps until the next one is due. */
  private pump(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const processor = this.processor;
    if (!processor) return;
    const free = this.concurrency - this.inFlight.size;
    if (free > 0) {
      const now = this.now();
      const rows = this.db
        .prepare("SELECT id, name, data, run_at, attempt FROM jobs WHERE active = 0 AND run_at <= ? ORDER BY priority, run_at LIMIT ?")
        .all(now, free) as JobRow[];
      const mark = this.db.prepare("UPDATE jobs SET active = 1 WHERE id = ?");
      for (const row of rows) {
        mark.run(row.id);
        this.run(processor, row);
      }
    }
    if (this.inFlight.size >= this.concurrency) return; // a finishing job pumps again
    const next = this.db.prepare("SELECT MIN(run_at) AS at FROM jobs WHERE active = 0").get() as { at: number | null };
    if (next.at !== null) this.schedule(next.at - this.now());
  }

  private run(processor: JobProcessor, row: JobRow): void {
    const job = { id: row.id, name: row.name, data: JSON.parse(row.data), attempt: row.attempt } as QueuedJob;
    const work = processor
      .process(job)
      .then((outcome) => this.settle(job, outcome))
      .catch(async (error: unknown) => {
        if (job.attempt >= this.retry.maxAttempts) {
          await processor.onFailed(job, error).catch(() => undefined);
          this.db.prepare("DELETE FROM jobs WHERE id = ?").run(job.id);
        } else {
          this.db
            .prepare("UPDATE jobs SET active = 0, attempt = attempt + 1, run_at = ? WHERE id = ?")
            .run(this.now() + retryDelay(this.retry, job.attempt), job.id);
        }
      })
      .finally(() => {
        this.inFlight.delete(job.id);
        this.schedule(0);
      });
    this.inFlight.set(job.id, work);
  }

  private settle(job: QueuedJob, outcome: JobOutcome): void {
    if (outcome.kind === "done") this.db.prepare("DELETE FROM jobs WHERE id = ?").run(job.id);
    else
      this.db
        .prepare("UPDATE jobs SET active = 0, attempt = 1, run_at = ? WHERE id = ?")
        .run(this.now() + Math.max(0, outcome.delayMs), job.id);
  }
}

/**
 * The embedded App's service rate windows in its SQLite file, as the Redis mode keeps them in
 * Redis: every take is written before its request leaves, so a process started after a crash (or
 * a deploy) counts what its predecessor sent and does not draw a 429 in its first burst.
 */
import type Database from "better-sqlite3";
import type { BudgetKind, BudgetLedger, WindowName } from "../../service/budget.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS budget_takes (window TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS budget_takes_by_window ON budget_takes(window, at);
CREATE INDEX IF NOT EXISTS budget_takes_by_time ON budget_takes(at);
CREATE TABLE IF NOT EXISTS budget_pauses (kind TEXT PRIMARY KEY, until INTEGER NOT NULL);
`;

export class SqliteBudgetLedger implements BudgetLedger {
  private readonly selectTakes: Database.Statement<[string, number], { at: number }>;
  private readonly insertTake: Database.Statement<[string, number]>;
  private readonly deleteOld: Database.Statement<[number]>;
  private readonly deleteOne: Database.Statement<[string, number]>;
  private readonly selectPause: Database.Statement<[string], { until: number }>;
  private readonly upsertPause: Database.Statement<[string, number]>;
  private readonly record: (windows: readonly WindowName[], at: number, forgetBefore: number) => void;
  private readonly forget: (windows: readonly WindowName[], at: number) => void;

  constructor(db: Database.Database) {
    db.exec(SCHEMA);
    this.selectTakes = db.prepare("SELECT at FROM budget_takes WHERE window = ? AND at > ? ORDER BY at");
    this.insertTake = db.prepare("INSERT INTO budget_takes (window, at) VALUES (?, ?)");
    this.deleteOld = db.prepare("DELETE FROM budget_takes WHERE at <= ?");
    this.deleteOne = db.prepare(
      "DELETE FROM budget_takes WHERE rowid = (SELECT rowid FROM budget_takes WHERE window = ? AND at = ? LIMIT 1)",
    );
    this.selectPause = db.prepare("SELECT until FROM budget_pauses WHERE kind = ?");
    this.upsertPause = db.prepare(
      "INSERT INTO budget_pauses (kind, until) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET until = max(until, excluded.until)",
    );
    this.record = db.transaction((windows: readonly WindowName[], at: number, forgetBefore: number) => {
      this.deleteOld.run(forgetBefore);
      for (const window of windows) this.insertTake.run(window, at);
    });
    this.forget = db.transaction((windows: readonly WindowName[], at: number) => {
      for (const window of windows) this.deleteOne.run(window, at);
    });
  }

  takes(window: WindowName, since: number): number[] {
    return this.selectTakes.all(window, since).map((row) => row.at);
  }

  recordTake(windows: readonly WindowName[], at: number, forgetBefore: number): void {
    this.record(windows, at, forgetBefore);
  }

  forgetTake(windows: readonly WindowName[], at: number): void {
    this.forget(windows, at);
  }

  pausedUntil(kind: BudgetKind): number {
    return this.selectPause.get(kind)?.until ?? 0;
  }

  setPause(kind: BudgetKind, until: number): void {
    this.upsertPause.run(kind, until);
  }
}

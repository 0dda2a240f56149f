/**
 * The embedded App's budget ledger on a real SQLite file: what one budget takes, gives back and
 * pauses is what the next budget on the same file (a restarted process) starts from.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteBudgetLedger } from "../../../src/app/store/sqlite-budget.js";
import { createInProcessBudget, type BudgetOptions } from "../../../src/service/budget.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fileBudget(file: string, now: () => number) {
  const db = new Database(file);
  const options: BudgetOptions = {
    windows: { shared: { points: 5, durationMs: 60_000 }, create: { points: 2, durationMs: 60_000 } },
    marginMs: 0,
    now,
    ledger: new SqliteBudgetLedger(db),
  };
  return { budget: createInProcessBudget(options), close: () => db.close() };
}

describe("SqliteBudgetLedger", () => {
  it("a new process on the same file counts its predecessor's takes, give-backs and pauses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "arb-ledger-"));
    dirs.push(dir);
    const file = join(dir, "bridge.sqlite");
    let clock = 1_000_000;
    const now = () => clock;

    const first = fileBudget(file, now);
    await first.budget.acquire("create");
    const refused = await first.budget.acquire("create");
    first.budget.giveBack(refused);
    await first.budget.acquire("read");
    first.budget.pause("read", 5_000);
    first.close(); // no shutdown hook of the budget runs: as after a kill -9

    clock += 1_000;
    const second = fileBudget(file, now);
    expect(await second.budget.usage()).toMatchObject({ shared: { used: 2 }, create: { used: 1 } });
    expect(second.budget.busy("read")).toBe(true); // the pause, 4 s left
    clock += 4_000;
    expect(second.budget.busy("read")).toBe(false);
    await second.budget.acquire("create");
    expect(second.budget.busy("create")).toBe(true); // 2 per minute, one of them the predecessor's
    second.close();

    // Takes older than the windows are dropped, in the file too.
    clock += 61_000;
    const third = fileBudget(file, now);
    expect(await third.budget.usage()).toMatchObject({ shared: { used: 0 }, create: { used: 0 } });
    await third.budget.acquire("read");
    third.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM budget_takes").get()).toEqual({ n: 1 });
    db.close();
  });
});

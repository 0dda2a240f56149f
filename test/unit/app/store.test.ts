import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteBridgeStore } from "../../../src/app/store/sqlite.js";
import type { NewTask } from "../../../src/app/store/types.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function task(owner: string, issueNumber: number, overrides: Partial<NewTask> = {}): NewTask {
  return {
    kind: "create",
    state: "queued",
    sourceType: "GIT_HOST",
    thread: { installationId: 1, owner, repo: "Widgets", issueNumber },
    runId: null,
    orgId: 1,
    trackingCommentId: null,
    reaction: null,
    request: { prompt: "p" },
    requestedBy: "m",
    deadlineAt: Date.now() + 1000,
    ...overrides,
  };
}

describe("SqliteBridgeStore thread lookups", () => {
  it("finds a thread's active, finished and held tasks, and no other thread's", () => {
    const store = new SqliteBridgeStore(":memory:");
    const other = store.insertTask(task("octo-org", 2, { runId: 9, state: "watching" }));
    const done = store.insertTask(task("octo-org", 1, { runId: 7 }));
    store.updateTask(done.id, { state: "done" });
    expect(store.activeTaskForThread("OCTO-ORG", "widgets", 1)).toBeNull();
    expect(store.lastFinishedTaskForThread("octo-org", "widgets", 1)?.id).toBe(done.id);

    const active = store.insertTask(task("octo-org", 1, { runId: 8, state: "watching" }));
    expect(store.activeTaskForThread("octo-org", "WIDGETS", 1)?.id).toBe(active.id);
    expect(store.activeTaskForThread("octo-org", "widgets", 2)?.id).toBe(other.id);

    const heldByRun = store.insertTask(task("elsewhere", 5, { runId: 8, state: "held" }));
    const heldByThread = store.insertTask(task("octo-org", 1, { state: "held" }));
    store.insertTask(task("octo-org", 2, { state: "held" }));
    expect(store.heldFor(8, { owner: "octo-org", repo: "widgets", issueNumber: 1 }).map((t) => t.id)).toEqual([heldByRun.id, heldByThread.id]);
    store.close();
  });

  it("a store written before threads were indexed gets the index, filled from each task", () => {
    const dir = mkdtempSync(join(tmpdir(), "arb-store-"));
    dirs.push(dir);
    const file = join(dir, "old.sqlite");
    const first = new SqliteBridgeStore(file);
    first.insertTask(task("octo-org", 3, { runId: 4, state: "watching" }));
    first.close();
    // Make it look like the older schema: no thread_key column.
    const raw = new Database(file);
    raw.exec("DROP INDEX IF EXISTS tasks_by_thread; ALTER TABLE tasks DROP COLUMN thread_key;");
    raw.close();

    const reopened = new SqliteBridgeStore(file);
    expect(reopened.activeTaskForThread("octo-org", "widgets", 3)?.runId).toBe(4);
    reopened.close();
  });
});

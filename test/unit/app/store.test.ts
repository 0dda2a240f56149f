/**
 * One behaviour suite for both backends of BridgeStore: SQLite (a file, opened twice for the
 * two-client cases) and the test Redis (helpers/redis.ts; a unique key prefix per test, deleted afterwards).
 * The Redis half fails, never skips, when the server is not reachable: CI starts one.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { RedisBridgeStore } from "../../../src/app/store/redis.js";
import { SqliteBridgeStore } from "../../../src/app/store/sqlite.js";
import type { BridgeStore, Task, TaskPatch } from "../../../src/app/store/types.js";
import { SOURCE } from "../../../src/service/wire.js";
import { newTask } from "../../helpers/new-task.js";
import { TEST_REDIS } from "../../helpers/redis.js";

const REDIS = TEST_REDIS;

/** Things to undo after each test, newest first. */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connectRedis(): Promise<Redis> {
  // No reconnection and one attempt per command: a missing server is an error here, not a wait.
  const redis = new Redis({ ...REDIS, lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    throw new Error(
      `Redis at ${REDIS.host}:${REDIS.port} is not reachable (${(error as Error).message}): start redis-server; these tests do not skip without it`,
    );
  }
  cleanups.push(async () => {
    if (redis.status === "ready") await redis.quit();
  });
  return redis;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  for (const key of await keysUnder(redis, prefix)) await redis.del(key);
}

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}

interface OpenStore {
  store: BridgeStore;
  /** Another client on the same data, as a second replica (or process) would have. */
  openAnother(): Promise<BridgeStore>;
}

type Backend = (options: { now?: () => number }) => Promise<OpenStore>;

const sqlite: Backend = async ({ now }) => {
  const dir = mkdtempSync(join(tmpdir(), "arb-store-"));
  const file = join(dir, "bridge.sqlite");
  const opened: BridgeStore[] = [];
  const open = () => {
    const store = new SqliteBridgeStore(file, { now });
    opened.push(store);
    return store;
  };
  cleanups.push(async () => {
    for (const store of opened) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store: open(), openAnother: async () => open() };
};

const redis: Backend = async ({ now }) => {
  const keyPrefix = `arb-test-store:${process.pid}:${randomUUID()}`;
  const client = await connectRedis();
  cleanups.push(() => deleteKeys(client, keyPrefix));
  return {
    store: new RedisBridgeStore(client, { keyPrefix, now }),
    openAnother: async () => new RedisBridgeStore(await connectRedis(), { keyPrefix, now }),
  };
};

const ids = (tasks: Array<Task | null>) => tasks.map((t) => t?.id ?? null);

describe.each([
  ["sqlite", sqlite],
  ["redis", redis],
] as const)("BridgeStore on %s", (_name, open) => {
  it("marks a delivery once; a redelivery is refused until the delivery is forgotten", async () => {
    const { store } = await open({});
    expect(await store.markDelivery("d-1", "issue_comment")).toBe(true);
    expect(await store.markDelivery("d-1", "issue_comment")).toBe(false);
    expect(await store.markDelivery("d-2", "issue_comment")).toBe(true);
    await store.forgetDelivery("d-1");
    expect(await store.markDelivery("d-1", "issue_comment")).toBe(true);
    expect(await store.markDelivery("d-2", "issue_comment")).toBe(false);
  });

  it("lists the watched runs a sweep looks for, and marks only tasks still watched as swept", async () => {
    const { store } = await open({});
    const watched = await store.insertTask(newTask("o", 1, { state: "watching", runId: 41 }));
    await store.updateTask(watched.id, { sentAt: 1_500, nextPollAt: 9_000 });
    const noRunYet = await store.insertTask(newTask("o", 2, { state: "watching" }));
    const finished = await store.insertTask(newTask("o", 3, { state: "watching", runId: 43 }));
    const listed = await store.listWatchedRuns();
    expect(listed.map((w) => w.runId).sort()).toEqual([41, 43]);
    expect(listed.find((w) => w.runId === 41)).toEqual({ taskId: watched.id, runId: 41, sentAt: 1_500, nextPollAt: 9_000 });
    // Never sent (adopted): its creation time bounds the sweep.
    expect(listed.find((w) => w.runId === 43)!.sentAt).toBe(finished.createdAt);

    await store.updateTask(finished.id, { state: "done" });
    await store.markSwept([watched.id, finished.id, noRunYet.id + 1_000], 7_777);
    expect((await store.getTask(watched.id))!.sweptAt).toBe(7_777);
    expect((await store.getTask(finished.id))!.sweptAt).toBeNull();
    expect(await store.getTask(noRunYet.id + 1_000)).toBeNull();
  });

  it("lists tasks newest first when asked, within the limit, across states", async () => {
    const { store } = await open({});
    const a = await store.insertTask(newTask("octo-org", 1, { state: "held" }));
    const b = await store.insertTask(newTask("octo-org", 2, { state: "watching", runId: 2 }));
    const c = await store.insertTask(newTask("octo-org", 3, { state: "held" }));
    expect(ids(await store.listTasks(["held", "watching"], -1, "newest"))).toEqual([c.id, b.id, a.id]);
    expect(ids(await store.listTasks(["held", "watching"], 2, "newest"))).toEqual([c.id, b.id]);
    expect(ids(await store.listTasks(["held", "watching"], 2))).toEqual([a.id, b.id]);
    expect(await store.listTaskIds(["held", "watching"])).toEqual([a.id, b.id, c.id]);
    expect(await store.listTaskIds(["watching"])).toEqual([b.id]);
    expect(await store.listTaskIds(["done"])).toEqual([]);
    expect(await store.listTaskIds([])).toEqual([]);
  });

  it("keeps when the webhook arrived with the task", async () => {
    const { store } = await open({});
    const task = await store.insertTask(newTask("octo-org", 1, { receivedAt: 123_456 }));
    expect((await store.getTask(task.id))?.receivedAt).toBe(123_456);
    expect((await store.insertTask(newTask("octo-org", 2))).receivedAt).toBeNull();
  });

  it("keeps the trace context of the delivery that asked for the task (a job queued for it later continues that trace)", async () => {
    const { store } = await open({});
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const task = await store.insertTask(newTask("octo-org", 1, { traceparent }));
    expect((await store.getTask(task.id))?.traceparent).toBe(traceparent);
    expect((await store.insertTask(newTask("octo-org", 2))).traceparent).toBeNull();
  });

  it("records spend events under several keys and reads them back by key and time", async () => {
    const { store } = await open({});
    await store.recordEvent(["thread:a#1", "repo:a"], 1_000);
    await store.recordEvent(["thread:a#2", "repo:a"], 2_000);
    await store.recordEvent(["thread:a#1", "repo:a"], 3_000);
    expect(await store.eventTimes("repo:a", 0)).toEqual([1_000, 2_000, 3_000]);
    expect(await store.eventTimes("repo:a", 2_000)).toEqual([2_000, 3_000]);
    expect(await store.eventTimes("thread:a#1", 0)).toEqual([1_000, 3_000]);
    expect(await store.eventTimes("thread:b#9", 0)).toEqual([]);
  });

  it("claims a trigger key once, and again after it is released", async () => {
    const { store } = await open({});
    expect(await store.claimTrigger("comment:17")).toBe(true);
    expect(await store.claimTrigger("comment:17")).toBe(false);
    expect(await store.claimTrigger("octo-org/widgets@abc123")).toBe(true);
    await store.releaseTrigger("comment:17");
    expect(await store.claimTrigger("comment:17")).toBe(true);
  });

  it("claims an automation's run in a thread once, for good: pruning keeps the claim; a release gives it back", async () => {
    let clock = 1_000_000;
    const { store } = await open({ now: () => clock });
    expect(await store.claimAutomation("7:automation:triage-bugs:12")).toBe(true);
    expect(await store.claimAutomation("7:automation:triage-bugs:12")).toBe(false);
    expect(await store.claimAutomation("7:automation:triage-bugs:13")).toBe(true);
    // Trigger keys and automation claims are apart: the same text claims once in each.
    expect(await store.claimTrigger("7:automation:triage-bugs:12")).toBe(true);
    clock += 30 * 24 * 60 * 60_000;
    await store.prune(0);
    expect(await store.claimAutomation("7:automation:triage-bugs:12")).toBe(false);
    await store.releaseAutomation("7:automation:triage-bugs:13");
    expect(await store.claimAutomation("7:automation:triage-bugs:13")).toBe(true);
  });

  it("prunes deliveries, trigger keys and finished tasks by age, and keeps unfinished tasks of any age", async () => {
    let clock = 1_000_000;
    const { store } = await open({ now: () => clock });
    await store.markDelivery("old", "push");
    await store.claimTrigger("old-key");
    const oldDone = await store.insertTask(newTask("octo-org", 1, { runId: 10 }));
    await store.updateTask(oldDone.id, { state: "done" });
    const oldAbandoned = await store.insertTask(newTask("octo-org", 2, { state: "sending" }));
    await store.updateTask(oldAbandoned.id, { state: "abandoned" });
    const oldButTouched = await store.insertTask(newTask("octo-org", 3, { runId: 11, state: "done" }));
    const oldWatching = await store.insertTask(newTask("octo-org", 4, { runId: 12, state: "watching" }));

    clock += 9_000;
    await store.updateTask(oldButTouched.id, { error: "reported again" });
    clock += 1_000;
    await store.markDelivery("new", "push");
    await store.claimTrigger("new-key");
    const newDone = await store.insertTask(newTask("octo-org", 5, { runId: 13, state: "done" }));

    await store.prune(5_000);
    expect(await store.markDelivery("old", "push")).toBe(true);
    expect(await store.markDelivery("new", "push")).toBe(false);
    expect(await store.claimTrigger("old-key")).toBe(true);
    expect(await store.claimTrigger("new-key")).toBe(false);
    expect(await store.getTask(oldDone.id)).toBeNull();
    expect(await store.getTask(oldAbandoned.id)).toBeNull();
    expect(await store.lastFinishedTaskForThread("octo-org", "widgets", 1)).toBeNull();
    expect(await store.lastWebUrlForRun(10)).toBeNull();
    expect(ids([await store.getTask(oldButTouched.id), await store.getTask(oldWatching.id), await store.getTask(newDone.id)])).toEqual([
      oldButTouched.id,
      oldWatching.id,
      newDone.id,
    ]);
    expect(await store.countByState()).toEqual({ done: 2, watching: 1 });
    expect(ids(await store.listTasks(["done", "abandoned"]))).toEqual([oldButTouched.id, newDone.id]);

    clock += 1;
    await store.prune(0);
    expect(await store.countByState()).toEqual({ watching: 1 });
  });

  it("stores a new task with its defaults, and a patch of every field reads back as written", async () => {
    let clock = 2_000;
    const { store } = await open({ now: () => clock });
    const created = await store.insertTask(newTask("Octo-Org", 7, { reaction: { kind: "issue_comment", id: 70 }, trackingCommentId: 71 }));
    expect(created).toEqual({
      ...newTask("Octo-Org", 7, { reaction: { kind: "issue_comment", id: 70 }, trackingCommentId: 71 }),
      id: created.id,
      createdAt: 2_000,
      updatedAt: 2_000,
      startedAt: null,
      lastStatus: null,
      webUrl: null,
      progress: { logsSeen: 0, currentStep: null, errors: [], lastSteps: [], finalAnswer: null },
      finalRun: null,
      watchTimedOut: false,
      acknowledgedAt: null,
      sentAt: null,
      receivedAt: null,
      traceparent: null,
      nextPollAt: 0,
      pollIntervalMs: 0,
      sweptAt: null,
      lastEditAt: 0,
      error: null,
      interrupt: null,
      delivered: [],
      interruptsRefused: false,
    });
    expect(await store.getTask(created.id)).toEqual(created);

    clock = 3_000;
    const patch: Required<TaskPatch> = {
      kind: "resume",
      state: "watching",
      sourceType: SOURCE.gitHostPrReview,
      thread: { installationId: 9, owner: "elsewhere", repo: "Gadgets", issueNumber: 8, triggerPhrase: "/agent" },
      runId: 9_007_199_254_740,
      orgId: 4,
      trackingCommentId: 72,
      reaction: { kind: "review", id: 73 },
      request: { prompt: 'again, with "quotes" and ünïcödé', extra: { nested: [1, null, "x"] } },
      requestedBy: null,
      startedAt: 2_500,
      lastStatus: "RUNNING",
      webUrl: "https://agents.example/runs/1",
      progress: { logsSeen: 12, currentStep: "tests", errors: ["flaky"], lastSteps: ["build", "tests"], finalAnswer: null },
      finalRun: { id: 1, status: "SUCCEEDED", result: { summary: "ok" } },
      watchTimedOut: true,
      acknowledgedAt: 2_100,
      sentAt: 2_200,
      receivedAt: 2_300,
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      nextPollAt: 4_000,
      pollIntervalMs: 1_500,
      sweptAt: 2_950,
      lastEditAt: 2_900,
      deadlineAt: 9_000,
      error: "boom",
      interrupt: { firstLine: "only the mobile version" },
      delivered: [{ taskId: 3, firstLine: "use the new API", at: 2_950, reaction: { kind: "issue_comment", id: 74 }, confirmed: true }],
      interruptsRefused: true,
    };
    const updated = await store.updateTask(created.id, patch);
    expect(updated).toEqual({ ...patch, id: created.id, createdAt: 2_000, updatedAt: 3_000 });
    expect(await store.getTask(created.id)).toEqual(updated);
    // Patched back to nothing: nulls and false survive the round trip too.
    const cleared = await store.updateTask(created.id, { reaction: null, finalRun: null, watchTimedOut: false, webUrl: null, error: null });
    expect(cleared).toMatchObject({
      reaction: null,
      finalRun: null,
      watchTimedOut: false,
      webUrl: null,
      error: null,
      lastStatus: "RUNNING",
    });
  });

  it("has no task for an unknown id, and refuses to update one", async () => {
    const { store } = await open({});
    expect(await store.getTask(424242)).toBeNull();
    await expect(store.updateTask(424242, { state: "done" })).rejects.toThrow("task 424242 does not exist");
    expect(await store.getTask(424242)).toBeNull();
    expect(await store.countByState()).toEqual({});
  });

  it("finds a thread's active, finished and held tasks, whatever the case of owner and repo, and no other thread's", async () => {
    const { store } = await open({});
    const other = await store.insertTask(newTask("octo-org", 2, { runId: 9, state: "watching" }));
    const done = await store.insertTask(newTask("octo-org", 1, { runId: 7 }));
    await store.updateTask(done.id, { state: "done" });
    // Finished without a run: nothing a follow-up could resume.
    const finishedWithoutRun = await store.insertTask(newTask("octo-org", 1));
    await store.updateTask(finishedWithoutRun.id, { state: "done" });
    expect(await store.activeTaskForThread("OCTO-ORG", "widgets", 1)).toBeNull();
    expect((await store.lastFinishedTaskForThread("octo-org", "WIDGETS", 1))?.id).toBe(done.id);

    const active = await store.insertTask(newTask("octo-org", 1, { runId: 8, state: "watching" }));
    expect((await store.activeTaskForThread("octo-org", "WIDGETS", 1))?.id).toBe(active.id);
    expect((await store.activeTaskForThread("Octo-Org", "Widgets", 2))?.id).toBe(other.id);
    expect(await store.activeTaskForThread("octo-org", "widgets", 3)).toBeNull();

    const heldByRun = await store.insertTask(newTask("elsewhere", 5, { runId: 8, state: "held" }));
    const heldByThread = await store.insertTask(newTask("OCTO-ORG", 1, { state: "held" }));
    await store.insertTask(newTask("octo-org", 2, { state: "held" }));
    await store.insertTask(newTask("octo-org", 1, { runId: 99, state: "held" }));
    expect(ids(await store.heldFor(8, { owner: "octo-org", repo: "widgets", issueNumber: 1 }))).toEqual([heldByRun.id, heldByThread.id]);
    expect(ids(await store.heldFor(8, { owner: "nobody", repo: "nothing", issueNumber: 1 }))).toEqual([heldByRun.id]);
    expect(await store.heldFor(1234, { owner: "nobody", repo: "nothing", issueNumber: 1 })).toEqual([]);
  });

  it("keeps every lookup right as a task moves through its states", async () => {
    const { store } = await open({});
    const thread = { owner: "octo-org", repo: "widgets", issueNumber: 4 };
    const running = await store.insertTask(newTask("octo-org", 4, { runId: 40, state: "watching" }));
    const followUp = await store.insertTask(newTask("octo-org", 4, { state: "held" }));
    expect(ids(await store.heldFor(40, thread))).toEqual([followUp.id]);

    // The follow-up learns its run: it is held for the run now, no longer for the thread alone.
    await store.updateTask(followUp.id, { runId: 40 });
    expect(ids(await store.heldFor(40, { ...thread, issueNumber: 999 }))).toEqual([followUp.id]);
    expect(ids(await store.heldFor(41, thread))).toEqual([]);

    await store.updateTask(running.id, { state: "done", webUrl: "https://agents.example/runs/40" });
    expect(await store.activeTaskForRun(40)).toBeNull();
    expect(await store.activeTaskForThread("octo-org", "widgets", 4)).toBeNull();
    expect((await store.lastFinishedTaskForThread("octo-org", "widgets", 4))?.id).toBe(running.id);
    expect(await store.countByState()).toEqual({ done: 1, held: 1 });

    await store.updateTask(followUp.id, { state: "queued", kind: "resume" });
    expect(await store.heldFor(40, thread)).toEqual([]);
    expect((await store.activeTaskForRun(40))?.id).toBe(followUp.id);
    expect((await store.activeTaskForThread("octo-org", "widgets", 4))?.id).toBe(followUp.id);
    expect(ids(await store.listTasks(["queued"]))).toEqual([followUp.id]);

    await store.updateTask(followUp.id, { state: "sending" });
    await store.updateTask(followUp.id, { state: "watching" });
    expect(ids(await store.listTasks(["queued"]))).toEqual([]);
    expect(ids(await store.listTasks(["watching"]))).toEqual([followUp.id]);
    expect((await store.activeTaskForRun(40))?.id).toBe(followUp.id);
    expect(await store.lastWebUrlForRun(40)).toBe("https://agents.example/runs/40");

    // Moved to another thread (the tracking comment was reposted elsewhere): the indexes follow.
    await store.updateTask(followUp.id, { thread: { installationId: 1, owner: "Octo-Org", repo: "Widgets", issueNumber: 5 } });
    expect(await store.activeTaskForThread("octo-org", "widgets", 4)).toBeNull();
    expect((await store.activeTaskForThread("octo-org", "widgets", 5))?.id).toBe(followUp.id);

    await store.updateTask(followUp.id, { state: "reporting" });
    await store.updateTask(followUp.id, { state: "done" });
    expect(await store.activeTaskForRun(40)).toBeNull();
    expect((await store.lastFinishedTaskForThread("octo-org", "widgets", 5))?.id).toBe(followUp.id);
    expect((await store.lastFinishedTaskForThread("octo-org", "widgets", 4))?.id).toBe(running.id);
    expect(await store.countByState()).toEqual({ done: 2 });
  });

  it("gives distinct ids to tasks inserted at once from two clients", async () => {
    const { store, openAnother } = await open({});
    const another = await openAnother();
    const inserted = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? store : another).insertTask(newTask("octo-org", i))));
    const taskIds = inserted.map((t) => t.id);
    expect(new Set(taskIds).size).toBe(40);
    expect(inserted.map((t) => t.thread.issueNumber)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(ids(await store.listTasks(["queued"]))).toEqual([...taskIds].sort((a, b) => a - b));
  });

  it("loses neither of two clients' concurrent patches of different fields", async () => {
    const { store, openAnother } = await open({});
    const another = await openAnother();
    const task = await store.insertTask(newTask("octo-org", 1, { runId: 5, state: "watching" }));
    const rounds = 30;
    await Promise.all(
      Array.from({ length: rounds }, (_, i) => [
        store.updateTask(task.id, {
          progress: { logsSeen: i, currentStep: `step ${i}`, errors: [], lastSteps: [], finalAnswer: null },
          nextPollAt: i,
        }),
        another.updateTask(task.id, { lastStatus: `status ${i}`, webUrl: `https://agents.example/runs/5?v=${i}`, lastEditAt: i }),
      ]).flat(),
    );
    const final = (await store.getTask(task.id))!;
    expect(final.progress.logsSeen).toBe(rounds - 1);
    expect(final.nextPollAt).toBe(rounds - 1);
    expect(final.lastStatus).toBe(`status ${rounds - 1}`);
    expect(final.lastEditAt).toBe(rounds - 1);
    expect(final.state).toBe("watching");
  });

  it("counts tasks by state and lists them oldest first, up to a limit", async () => {
    const { store } = await open({});
    const states = ["queued", "watching", "queued", "held", "watching", "done", "queued"] as const;
    const tasks = [];
    for (const [i, state] of states.entries())
      tasks.push(await store.insertTask(newTask("octo-org", i, { state, runId: state === "held" ? null : 100 + i })));
    expect(await store.countByState()).toEqual({ queued: 3, watching: 2, held: 1, done: 1 });

    const waiting = tasks.filter((t) => t.state === "queued" || t.state === "watching").map((t) => t.id);
    expect(ids(await store.listTasks(["watching", "queued"]))).toEqual(waiting);
    expect(ids(await store.listTasks(["watching", "queued", "queued"], 3))).toEqual(waiting.slice(0, 3));
    expect(ids(await store.listTasks(["queued"], 1))).toEqual([tasks[0]!.id]);
    expect(await store.listTasks(["queued"], 0)).toEqual([]);
    expect(await store.listTasks([])).toEqual([]);
    expect(await store.listTasks(["sending", "reporting"])).toEqual([]);

    await store.updateTask(tasks[0]!.id, { state: "sending" });
    expect(ids(await store.listTasks(["queued"], 1))).toEqual([tasks[2]!.id]);
    expect(await store.countByState()).toEqual({ queued: 2, sending: 1, watching: 2, held: 1, done: 1 });
  });

  it("finds a run's unfinished task and the page its tasks last showed", async () => {
    const { store } = await open({});
    expect(await store.activeTaskForRun(60)).toBeNull();
    expect(await store.lastWebUrlForRun(60)).toBeNull();
    const create = await store.insertTask(newTask("octo-org", 6, { runId: 60, state: "watching" }));
    await store.insertTask(newTask("octo-org", 6, { runId: 60, state: "held" }));
    expect((await store.activeTaskForRun(60))?.id).toBe(create.id);
    expect(await store.lastWebUrlForRun(60)).toBeNull();
    await store.updateTask(create.id, { webUrl: "https://agents.example/runs/60", state: "done" });
    expect(await store.activeTaskForRun(60)).toBeNull();
    const resume = await store.insertTask(newTask("octo-org", 6, { kind: "resume", runId: 60, state: "queued" }));
    expect((await store.activeTaskForRun(60))?.id).toBe(resume.id);
    expect(await store.lastWebUrlForRun(60)).toBe("https://agents.example/runs/60");
    await store.updateTask(resume.id, { webUrl: "https://agents.example/runs/60#resumed" });
    expect(await store.lastWebUrlForRun(60)).toBe("https://agents.example/runs/60#resumed");
    expect(await store.lastWebUrlForRun(61)).toBeNull();
  });

  it("remembers which run produced a branch, per repository and head repository whatever their case, the latest record winning", async () => {
    const { store } = await open({});
    const head = (branch: string, repoFullName = "octo-org/widgets") => ({ repoFullName, branch });
    expect(await store.runForBranch("octo-org", "widgets", head("agent/fix-1"))).toBeNull();
    await store.recordRunBranch("Octo-Org", "Widgets", head("agent/fix-1", "Octo-Org/Widgets"), 70, 2);
    expect(await store.runForBranch("octo-org", "WIDGETS", head("agent/fix-1"))).toEqual({ runId: 70, orgId: 2 });
    expect(await store.runForBranch("octo-org", "widgets", head("Agent/Fix-1"))).toBeNull();
    expect(await store.runForBranch("octo-org", "gadgets", head("agent/fix-1"))).toBeNull();
    // A fork's branch of the same name is another branch.
    expect(await store.runForBranch("octo-org", "widgets", head("agent/fix-1", "forker/widgets"))).toBeNull();
    await store.recordRunBranch("octo-org", "widgets", head("agent/fix-1"), 71, 3);
    expect(await store.runForBranch("octo-org", "widgets", head("agent/fix-1"))).toEqual({ runId: 71, orgId: 3 });
  });

  it("records each head SHA's check fix once per repository, in order, per pull request", async () => {
    const { store } = await open({});
    expect(await store.checkAttempts("octo-org", "widgets", 12)).toEqual({ count: 0, shas: [] });
    expect(await store.recordCheckAttempt("octo-org", "widgets", 12, "aaa")).toBe(true);
    expect(await store.recordCheckAttempt("Octo-Org", "Widgets", 12, "aaa")).toBe(false);
    expect(await store.recordCheckAttempt("octo-org", "widgets", 12, "bbb")).toBe(true);
    // The same commit at the head of another pull request of the repository was already tried.
    expect(await store.recordCheckAttempt("octo-org", "widgets", 13, "bbb")).toBe(false);
    expect(await store.recordCheckAttempt("octo-org", "widgets", 13, "ccc")).toBe(true);
    expect(await store.recordCheckAttempt("octo-org", "gadgets", 12, "aaa")).toBe(true);
    expect(await store.checkAttempts("OCTO-ORG", "widgets", 12)).toEqual({ count: 2, shas: ["aaa", "bbb"] });
    expect(await store.checkAttempts("octo-org", "widgets", 13)).toEqual({ count: 1, shas: ["ccc"] });
  });

  it("answers a ping", async () => {
    const { store } = await open({});
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe("RedisBridgeStore", () => {
  it("keeps every key under its prefix, and leaves no task index behind once every task is finished and pruned", async () => {
    const client = await connectRedis();
    const unique = randomUUID();
    const keyPrefix = `arb-test-store:${process.pid}:${unique}`;
    cleanups.push(() => deleteKeys(client, keyPrefix));
    const store = new RedisBridgeStore(client, { keyPrefix });
    const first = await store.insertTask(newTask("octo-org", 1, { state: "held" }));
    const second = await store.insertTask(newTask("octo-org", 1, { runId: 3, state: "watching" }));
    await store.updateTask(first.id, { runId: 3 });
    await store.recordRunBranch("octo-org", "widgets", { repoFullName: "octo-org/widgets", branch: "agent/x" }, 3, 1);
    await store.recordCheckAttempt("octo-org", "widgets", 1, "abc");
    await store.markDelivery("d", "push");
    await store.claimTrigger("k");
    const written = await client.keys(`*${unique}*`);
    expect(written.length).toBeGreaterThan(5);
    for (const key of written) expect(key.startsWith(`${keyPrefix}:`), key).toBe(true);

    for (const task of [first, second]) await store.updateTask(task.id, { state: "done" });
    await store.prune(-1);
    expect((await keysUnder(client, keyPrefix)).sort()).toEqual(
      [
        `${keyPrefix}:check-attempts:octo-org/widgets#1`,
        `${keyPrefix}:check-shas:octo-org/widgets`,
        `${keyPrefix}:run-head-branches`,
        `${keyPrefix}:task:next-id`,
      ].sort(),
    );
  });

  it("forgets delivery ids and trigger keys past the retention at the next claim, even if nobody prunes", async () => {
    const client = await connectRedis();
    const keyPrefix = `arb-test-store:${process.pid}:${randomUUID()}`;
    cleanups.push(() => deleteKeys(client, keyPrefix));
    let clock = 10_000;
    const store = new RedisBridgeStore(client, { keyPrefix, now: () => clock, claimRetentionMs: 1_000 });
    await store.markDelivery("d-1", "push");
    await store.claimTrigger("k-1");
    clock += 2_000;
    await store.markDelivery("d-2", "push");
    await store.claimTrigger("k-2");
    expect(await client.zrange(`${keyPrefix}:deliveries`, 0, -1)).toEqual(["d-2"]);
    expect(await client.zrange(`${keyPrefix}:triggers`, 0, -1)).toEqual(["k-2"]);
  });

  it("leaves the caller's client open on close unless it was handed over, and refuses calls once closed", async () => {
    const shared = await connectRedis();
    const keyPrefix = `arb-test-store:${process.pid}:${randomUUID()}`;
    const borrowed = new RedisBridgeStore(shared, { keyPrefix });
    await borrowed.close();
    await borrowed.close();
    expect(await shared.ping()).toBe("PONG");
    await expect(borrowed.ping()).rejects.toThrow("the Redis store is closed");

    const handedOver = await connectRedis();
    const owned = new RedisBridgeStore(handedOver, { keyPrefix, ownsClient: true });
    await owned.ping();
    await owned.close();
    await expect(handedOver.ping()).rejects.toThrow("Connection is closed");
  });

  it("fails a ping with the client's error when Redis is not reachable, and refuses a store without a prefix or with ioredis' own", async () => {
    // Port 1 on loopback: nothing listens there.
    const down = new Redis({ host: "127.0.0.1", port: 1, maxRetriesPerRequest: 0, retryStrategy: () => null });
    down.on("error", () => undefined);
    cleanups.push(() => down.disconnect());
    await expect(new RedisBridgeStore(down, { keyPrefix: "arb-test-down" }).ping()).rejects.toThrow(/connect|closed/i);
    expect(() => new RedisBridgeStore(down, { keyPrefix: " " })).toThrow("needs a keyPrefix");
    const prefixed = new Redis({ ...REDIS, lazyConnect: true, keyPrefix: "arb-test:" });
    expect(() => new RedisBridgeStore(prefixed, { keyPrefix: "arb-test-store" })).toThrow("without ioredis' own keyPrefix option");
  });
});

describe("branch records written before the head repository was part of the key", () => {
  const ours = { repoFullName: "octo-org/widgets", branch: "agent-run/1001-fix" };
  const forks = { repoFullName: "forker/widgets", branch: "agent-run/1001-fix" };

  it("SQLite: each run_branches row becomes the same branch of its own repository, and the old table goes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "arb-store-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "old.sqlite");
    await new SqliteBridgeStore(file).close();
    // The old table, as 0.1 wrote it.
    const raw = new Database(file);
    raw.exec(
      "CREATE TABLE run_branches (owner TEXT NOT NULL, repo TEXT NOT NULL, branch TEXT NOT NULL, run_id INTEGER NOT NULL, org_id INTEGER NOT NULL, PRIMARY KEY (owner, repo, branch))",
    );
    raw.prepare("INSERT INTO run_branches VALUES ('octo-org', 'widgets', 'agent-run/1001-fix', 1001, 7)").run();
    raw.close();

    const reopened = new SqliteBridgeStore(file);
    expect(await reopened.runForBranch("octo-org", "widgets", ours)).toEqual({ runId: 1001, orgId: 7 });
    expect(await reopened.runForBranch("octo-org", "widgets", forks)).toBeNull();
    expect(reopened.database.prepare("SELECT name FROM sqlite_master WHERE name = 'run_branches'").get()).toBeUndefined();
    await reopened.close();
  });

  it("Redis: migrate() moves each run-branches field under its own repository as head, once, keeping newer records", async () => {
    const client = await connectRedis();
    const keyPrefix = `arb-test-store:${process.pid}:${randomUUID()}`;
    cleanups.push(() => deleteKeys(client, keyPrefix));
    // As 0.1 wrote them: "owner/repo:branch" → run.
    await client.hset(`${keyPrefix}:run-branches`, "octo-org/widgets:agent-run/1001-fix", JSON.stringify({ runId: 1001, orgId: 7 }));
    await client.hset(`${keyPrefix}:run-branches`, "octo-org/widgets:agent-run/1002-docs", JSON.stringify({ runId: 1002, orgId: 7 }));
    const store = new RedisBridgeStore(client, { keyPrefix });
    await store.recordRunBranch("octo-org", "widgets", { ...ours, branch: "agent-run/1002-docs" }, 2002, 7);

    await store.migrate();
    await store.migrate();
    expect(await store.runForBranch("octo-org", "widgets", ours)).toEqual({ runId: 1001, orgId: 7 });
    expect(await store.runForBranch("octo-org", "widgets", forks)).toBeNull();
    expect(await store.runForBranch("octo-org", "widgets", { ...ours, branch: "agent-run/1002-docs" })).toEqual({ runId: 2002, orgId: 7 });
    expect(await client.exists(`${keyPrefix}:run-branches`)).toBe(0);
  });
});

describe("SqliteBridgeStore migrations", () => {
  function storeFile(): string {
    const dir = mkdtempSync(join(tmpdir(), "arb-store-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, "old.sqlite");
  }

  it("a store with tasks and no epoch (written before epochs) begins at 0 and is not fresh; an empty one is fresh", async () => {
    const file = storeFile();
    const first = new SqliteBridgeStore(file, { now: () => 70_000 });
    await first.insertTask(newTask("octo-org", 1, { runId: 9, state: "watching" }));
    await first.close();
    // Make it look like a store of the version before epochs: the table is there (migrate makes it), the row is not.
    const raw = new Database(file);
    raw.exec("DELETE FROM store_epoch;");
    raw.close();
    const upgraded = new SqliteBridgeStore(file, { now: () => 80_000 });
    expect(await upgraded.epoch()).toEqual({ createdAt: 0, fresh: false });
    expect(await upgraded.epoch()).toEqual({ createdAt: 0, fresh: false });
    await upgraded.close();

    const empty = new SqliteBridgeStore(storeFile(), { now: () => 90_000 });
    expect(await empty.epoch()).toEqual({ createdAt: 90_000, fresh: true });
    expect(await empty.epoch()).toEqual({ createdAt: 90_000, fresh: false });
    await empty.close();
  });

  it("a store written before threads were indexed gets the index, filled from each task", async () => {
    const file = storeFile();
    const first = new SqliteBridgeStore(file);
    await first.insertTask(newTask("octo-org", 3, { runId: 4, state: "watching" }));
    await first.close();
    // Make it look like the older schema: no thread_key column.
    const raw = new Database(file);
    raw.exec("DROP INDEX IF EXISTS tasks_by_thread; ALTER TABLE tasks DROP COLUMN thread_key;");
    raw.close();

    const reopened = new SqliteBridgeStore(file);
    expect((await reopened.activeTaskForThread("octo-org", "widgets", 3))?.runId).toBe(4);
    await reopened.close();
  });

  it("a 0.1 store gets the 0.2 columns: the watch time-out marker leaves finalRun, acknowledgement and send times are filled", async () => {
    const file = storeFile();
    let clock = 50_000;
    const first = new SqliteBridgeStore(file, { now: () => clock });
    const timedOut = await first.insertTask(newTask("octo-org", 1, { runId: 1, state: "reporting" }));
    const sending = await first.insertTask(newTask("octo-org", 2, { state: "queued" }));
    clock = 60_000;
    await first.updateTask(sending.id, { state: "sending" });
    await first.close();
    // Make it look like 0.1: no 0.2 columns, and the time-out smuggled inside the final run.
    const raw = new Database(file);
    raw.exec(
      "ALTER TABLE tasks DROP COLUMN watch_timed_out; ALTER TABLE tasks DROP COLUMN acknowledged_at; ALTER TABLE tasks DROP COLUMN sent_at; ALTER TABLE tasks DROP COLUMN received_at;",
    );
    raw
      .prepare("UPDATE tasks SET final_run = ? WHERE id = ?")
      .run(JSON.stringify({ id: 1, status: "RUNNING", __watchTimedOut: true }), timedOut.id);
    raw.close();

    const reopened = new SqliteBridgeStore(file);
    expect(await reopened.getTask(timedOut.id)).toMatchObject({
      watchTimedOut: true,
      finalRun: { id: 1, status: "RUNNING" },
      acknowledgedAt: 50_000,
      sentAt: null,
    });
    expect((await reopened.getTask(timedOut.id))!.finalRun).not.toHaveProperty("__watchTimedOut");
    expect(await reopened.getTask(sending.id)).toMatchObject({
      watchTimedOut: false,
      finalRun: null,
      acknowledgedAt: 50_000,
      sentAt: 60_000,
    });
    await reopened.close();
  });
});

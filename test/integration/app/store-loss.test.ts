/**
 * A store that lost its data costs no result (the run recovery, app/run-recovery.ts): a run starts,
 * its tracking comment says "working", the App stops, its store is wiped (the SQLite file deleted, or
 * every key of the test's own Redis namespace: a Redis restarted without persistence), and the App
 * starts again. It finds the run from the tracking comment's marker, watches it again and posts its
 * result once; a result already posted is not posted again; follow-ups the lost store held are said
 * to be dropped. Runs on both backends (`--project shared` and `--project app-on-redis`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import type { SqliteBridgeStore } from "../../../src/app/store/sqlite.js";
import { AgentRunClient } from "../../../src/service/index.js";
import { BOT_LOGIN, dropRedisKeys, startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
/** Emulated: ten hours, about 72 s of real time at the harness's scale; the test ends the run with `advanceTime`. */
const LONG_RUN_MS = 10 * 60 * 60_000;
const RECOVERY_ON = { RUN_RECOVERY_INTERVAL: "1h" };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

/** The bodies the bot wrote over (or as) comment `id` whose run marker says done: each is the result, posted. */
function resultWrites(h: AppHarness, id: number): number {
  return h.github.writes.filter(
    (w) =>
      (w.kind === "comment_updated" || w.kind === "comment_created") &&
      w.comment.id === id &&
      parseMarker(w.comment.body)?.state === "done",
  ).length;
}

/** A tracking comment the bot wrote in issue 1 for request `requestId`, its marker still queued (no run id); returns its id. */
function seedQueuedTrackingComment(h: AppHarness, requestId: string, text: string): number {
  const marker = newRunMarker({
    place: { repository: FULL_NAME, thread: 1 },
    runId: null,
    orgId: h.emulator.orgId,
    sourceType: "GIT_HOST",
    state: "queued",
    requestId,
  });
  h.github.seed({
    issueComments: [{ issue_number: 1, body: `${renderMarker(marker)}\n${text}`, user: BOT_LOGIN, performed_via_github_app: true }],
  });
  return h.github.state.issueComments.at(-1)!.id;
}

/** A slow run started and watched, its tracking comment saying "running": returns the tracking comment's id and the run's. */
async function startWorkingRun(h: AppHarness): Promise<{ trackingId: number; runId: number }> {
  h.emulator.control.script({ match: "slow", durationMs: LONG_RUN_MS });
  await h.trigger(ISSUE, "/agent a slow task");
  await until(async () => (await h.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
  const task = (await h.app.store.listTasks(["watching"]))[0]!;
  const trackingId = task.trackingCommentId!;
  await until(
    () => parseMarker(h.github.state.issueComments.find((c) => c.id === trackingId)?.body)?.state === "running",
    "the tracking comment to say running",
  );
  return { trackingId, runId: task.runId! };
}

describe("a store that lost its data", () => {
  it("watches a run its thread shows as working again, and posts its result once", async () => {
    harness = await startAppHarness();
    const { trackingId, runId } = await startWorkingRun(harness);

    const app = await harness.restart({ wipeStore: true, env: RECOVERY_ON });
    expect(await app.store.knowsRun(runId)).toBe(false);
    // The sweep on start finds the tracking comment and watches the run again.
    await until(async () => (await app.store.listTasks(["watching"])).some((t) => t.runId === runId), "the run to be watched again");
    expect(resultWrites(harness, trackingId)).toBe(0);
    // A second sweep (another replica's, say) while the run is watched again: the store knows it now.
    await app.runRecovery!.sweep(); // the one on start, if it is still telling the thread
    expect(await app.runRecovery!.sweep()).toMatchObject({ found: 0, adopted: [] });
    expect((await app.store.listTasks(["watching"])).filter((t) => t.runId === runId)).toHaveLength(1);

    harness.emulator.control.advanceTime(LONG_RUN_MS);
    await harness.idle();

    const comments = harness.botComments(1);
    expect(comments.map((c) => c.id)).toEqual([trackingId]);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ runId, state: "done", outcome: "succeeded" });
    expect(resultWrites(harness, trackingId)).toBe(1);
    // One run, one create: the recovery only watches.
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.emulator.control.runs()).toHaveLength(1);

    // A later sweep (another replica's, say) finds the result posted and does nothing.
    const again = await app.runRecovery!.sweep();
    expect(again).toMatchObject({ found: 0, adopted: [] });
    expect(resultWrites(harness, trackingId)).toBe(1);
  });

  it("is found by the periodic sweep when the store loses its tasks while the App runs", async () => {
    harness = await startAppHarness({ env: RECOVERY_ON });
    const { trackingId, runId } = await startWorkingRun(harness);
    const app = harness.app;
    // The sweep on start is over (it found the run watched): the next one is the periodic one, after the loss.
    await app.runRecovery!.sweep();
    if (app.backend.kind === "redis") {
      // The store's keys gone (never the shared server's, only the App's own namespace), the epoch with them; the
      // queue's keys stay, so no job of the App is pulled from under a worker mid-step.
      await dropRedisKeys(`${app.backend.keyPrefix}:store:`);
    } else {
      // A restore of an older copy (a failover to a replica that lagged): the tasks and jobs are gone, the epoch stays.
      (app.store as SqliteBridgeStore).database.exec("DELETE FROM tasks; DELETE FROM jobs;");
    }
    expect(await app.store.knowsRun(runId)).toBe(false);

    const sweep = await app.runRecovery!.sweep();
    expect(sweep).toMatchObject({ found: 1, adopted: [runId], storeWasEmpty: app.backend.kind === "redis" });
    harness.emulator.control.advanceTime(LONG_RUN_MS);
    await harness.idle();
    expect(parseMarker(harness.botComments(1)[0]!.body)).toMatchObject({ runId, state: "done", outcome: "succeeded" });
    expect(resultWrites(harness, trackingId)).toBe(1);
    expect(harness.botComments(1)).toHaveLength(1);
  });

  it("does not post a result already posted, and reads no more than its request allowance", async () => {
    harness = await startAppHarness();
    await harness.trigger(ISSUE, "/agent fix the flaky test");
    await harness.idle();
    const [tracking] = harness.botComments(1);
    expect(parseMarker(tracking!.body)).toMatchObject({ state: "done" });
    const writesBefore = harness.github.writes.length;

    const app = await harness.restart({ wipeStore: true, env: { ...RECOVERY_ON, RUN_RECOVERY_MAX_REQUESTS: "3" } });
    const sweep = await app.runRecovery!.sweep();
    // The installations, the repositories and one page of comments: three requests, and the thread is done.
    expect(sweep).toMatchObject({ found: 0, adopted: [], settled: 0, requests: 3, complete: true });
    await harness.idle();
    expect(harness.github.writes.slice(writesBefore)).toEqual([]);
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toEqual([]);
  });

  it("says in the thread that the follow-ups the lost store held will not be sent, and still posts the run's result once", async () => {
    harness = await startAppHarness();
    const { trackingId, runId } = await startWorkingRun(harness);
    const followUp = await harness.trigger(ISSUE, "/agent also update the changelog");
    await until(async () => (await harness.app.store.listTasks(["held"])).length === 1, "the follow-up to be held");
    await until(
      () => harness.github.state.issueComments.find((c) => c.id === trackingId)!.body.includes("Your follow-up is queued"),
      "the tracking comment to show the held follow-up",
    );

    const app = await harness.restart({ wipeStore: true, env: RECOVERY_ON });
    await until(() => harness.botComments(1).length === 2, "the thread to be told of the dropped follow-up");
    const notice = harness.botComments(1)[1]!;
    expect(notice.body).toContain("The bridge lost 1 follow-up it held for the run above");
    expect(notice.body).toContain(`#issuecomment-${followUp}`);
    expect(notice.body).toContain("will not be sent");

    harness.emulator.control.advanceTime(LONG_RUN_MS);
    await harness.idle();
    expect(await app.store.knowsRun(runId)).toBe(true);
    expect(resultWrites(harness, trackingId)).toBe(1);
    // What the thread was told holds: nothing was sent for the follow-up.
    expect(harness.service.resumes()).toEqual([]);
    expect(harness.botComments(1)).toHaveLength(2);
  });

  it("tells a thread whose request was lost before its run was known to start, instead of leaving it queued, linking AGENT_RUN_RUNS_URL", async () => {
    harness = await startAppHarness();
    // A tracking comment the bot wrote before the store lost its data, for a create that never went out.
    const lostId = seedQueuedTrackingComment(harness, "task-41", "⏳ Queued.");

    const runsUrl = "https://agents.example.com/runs";
    const app = await harness.restart({ wipeStore: true, env: { ...RECOVERY_ON, AGENT_RUN_RUNS_URL: runsUrl } });
    await app.runRecovery!.sweep();
    await until(
      () => harness.github.state.issueComments.find((c) => c.id === lostId)!.body.includes("lost this request"),
      "the thread to be told",
    );
    const body = harness.github.state.issueComments.find((c) => c.id === lostId)!.body;
    expect(parseMarker(body)).toBeNull();
    expect(body).toContain(`Look on [the Agent Run Service's runs](${runsUrl}) for a run started after`);
    expect(body).toContain("ask again in a new comment");
    expect(harness.service.creates()).toEqual([]);
  });

  it("watches the run a lost queued request started after all, found in the runs list by its tracking comment's id", async () => {
    harness = await startAppHarness();
    const trackingId = seedQueuedTrackingComment(harness, "task-42", "⏳ Starting.");
    // The create went out (it carries the tracking comment's id, as the App's creates do) and its answer was lost with the store.
    const client = new AgentRunClient({ baseUrl: harness.emulator.url, token: harness.emulator.token, orgId: harness.emulator.orgId });
    harness.emulator.control.script({ match: "slow", durationMs: LONG_RUN_MS });
    const run = await client.createRun({ prompt: "a slow task", metadata: { status_comment_id: trackingId } });

    const app = await harness.restart({ wipeStore: true, env: RECOVERY_ON });
    await until(async () => (await app.store.listTasks(["watching"])).some((t) => t.runId === run.id), "the run to be watched");
    harness.emulator.control.advanceTime(LONG_RUN_MS);
    await harness.idle();
    expect(parseMarker(harness.github.state.issueComments.find((c) => c.id === trackingId)!.body)).toMatchObject({
      runId: run.id,
      state: "done",
      outcome: "succeeded",
    });
    expect(resultWrites(harness, trackingId)).toBe(1);
    expect(harness.emulator.control.runs()).toHaveLength(1);
  });

  it("is adopted once when two replicas sweep after the loss (Redis), and its result posted once", async () => {
    harness = await startAppHarness({ backend: "redis" });
    const { trackingId, runId } = await startWorkingRun(harness);
    const first = await harness.restart({ wipeStore: true, env: RECOVERY_ON });
    const second = await harness.startReplica(RECOVERY_ON);
    try {
      // Both replicas sweep on start and then again at once: the lease lets one sweep at a time, the store and the
      // thread's lock let the run be adopted once whichever sweeps first.
      await Promise.all([first.runRecovery!.sweep(), second.runRecovery!.sweep()]);
      const sweeps = await Promise.all([first.runRecovery!.sweep(), second.runRecovery!.sweep()]);
      expect(sweeps.flatMap((sweep) => sweep?.adopted ?? [])).toEqual([]);
      const tasks = await first.store.listTasks(["watching", "reporting", "done"]);
      expect(tasks.filter((t) => t.runId === runId)).toHaveLength(1);

      harness.emulator.control.advanceTime(LONG_RUN_MS);
      await until(async () => (await first.store.countByState()).done === 1, "the run to be reported");
      await Promise.all([first.idle(), second.idle()]);
      expect(resultWrites(harness, trackingId)).toBe(1);
      expect(harness.botComments(1).map((c) => c.id)).toEqual([trackingId]);
    } finally {
      await second.close();
    }
  });
});

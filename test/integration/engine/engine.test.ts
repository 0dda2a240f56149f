/**
 * The RunEngine's behaviour, on the embedded backend (SQLite store and queue) and on Redis (Redis
 * store, BullMQ, Redis locks, the GitHub write pacer shared through Redis): real HTTP against the
 * emulator (behind a recording proxy) and the fake GitHub, every step taken from the real work queue.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunEngineOptions } from "../../../src/app/engine.js";
import type { RetryPolicy } from "../../../src/app/queue/types.js";
import type { Task } from "../../../src/app/store/types.js";
import { renderTaskTracking } from "../../../src/app/views.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import type { WritePacer } from "../../../src/github/pacing.js";
import { AgentRunClient, SOURCE } from "../../../src/service/index.js";
import { APP_BACKENDS, SCALE, TestOctokit, type AppBackendKind } from "../../helpers/app-harness.js";
import { queueTaskStep } from "../../helpers/engine-harness.js";
import {
  closeEngineWorlds,
  FULL_NAME,
  OWNER,
  REPO,
  startEngineWorld,
  type EngineWorld,
  type TaskDraft,
} from "../../helpers/engine-world.js";

const INSTALLATION_ID = 7;
/** Issues 1–25, each with a person's trigger comment whose id is 500 + the issue number. */
const ISSUES = 25;
const triggerCommentOf = (issueNumber: number) => 500 + issueNumber;
/** Emulated ms: a run long enough (0.6 s real) for a test to act while it is watched. */
const LONG_RUN_MS = 300_000;

interface World extends EngineWorld {
  /** The first engine's paced writer's pacer. */
  pacer: WritePacer;
  /** A task in the thread `overrides.thread` names (default issue 1). */
  task(overrides?: Partial<TaskDraft>): TaskDraft;
  submit(overrides?: Partial<TaskDraft>): Promise<Task>;
}

let world: World | undefined;
afterEach(closeEngineWorlds);

async function startWorld(
  backend: AppBackendKind,
  options: {
    retry?: Partial<RetryPolicy>;
    engine?: Partial<RunEngineOptions>;
    /** The client budget's windows, when slower than the emulator's. */ budgetTimeScale?: number;
    /** GitHub write pacing, when slower. */ pacingTimeScale?: number;
  } = {},
): Promise<World> {
  const base = await startEngineWorld(backend, {
    emulator: { defaultScript: { durationMs: 20_000, logSteps: 12 } },
    seed: {
      issues: Array.from({ length: ISSUES }, (_, i) => ({
        number: i + 1,
        title: `Flaky test ${i + 1}`,
        body: "It fails on Tuesdays.",
        user: "maintainer",
      })),
      issueComments: Array.from({ length: ISSUES }, (_, i) => ({
        issue_number: i + 1,
        id: triggerCommentOf(i + 1),
        body: "/agent fix the flaky test",
        user: "maintainer",
      })),
    },
    budgetTimeScale: options.budgetTimeScale,
    pacingTimeScale: options.pacingTimeScale ?? SCALE,
    retry: options.retry,
    engine: { progressEditIntervalMs: 5_000, ...options.engine },
    draft: {
      installationId: INSTALLATION_ID,
      prompt: () => "fix the flaky test",
      reaction: (issueNumber) => ({ kind: "issue_comment", id: triggerCommentOf(issueNumber) }),
    },
    untilTimeoutMs: 10_000,
  });
  const task = (overrides: Partial<TaskDraft> = {}) => base.draft(overrides.thread?.issueNumber ?? 1, overrides);
  return { ...base, pacer: base.pacer!, task, submit: (overrides) => base.harness.add(task(overrides)) };
}

function markerOf(body: string) {
  const marker = parseMarker(body);
  if (!marker) throw new Error(`no run marker in:\n${body}`);
  return marker;
}

describe.each(APP_BACKENDS)("RunEngine on the %s backend", (backend) => {
  it("acknowledges, creates the run, watches it and turns the tracking comment into the result, once", async () => {
    world = await startWorld(backend);
    const task = await world.submit();
    await world.harness.idle();

    const done = await world.getTask(task.id);
    expect(done.state).toBe("done");
    expect(done.runId).toBeGreaterThan(0);
    // One comment, posted once (the acknowledgement), then edited until it became the result.
    expect(world.github.callsTo("POST", `/repos/${FULL_NAME}/issues/1/comments`)).toHaveLength(1);
    const comments = world.botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(done.trackingCommentId);
    const run = world.emulator.control.runs().find((r) => r.id === done.runId)!;
    // The service learns which comment tracks the run.
    expect(run.metadata).toEqual({
      source_type: SOURCE.gitHost,
      status_comment_id: done.trackingCommentId,
      bridge_task_id: `task-${done.id}`,
    });

    const body = comments[0]!.body;
    expect(markerOf(body)).toMatchObject({ runId: done.runId, state: "done", outcome: "succeeded", requestId: `task-${task.id}` });
    expect(body).toContain(run.summary!.slice(0, 40));
    expect(run.git_host_pull_requests?.length).toBeGreaterThan(0);
    for (const pr of run.git_host_pull_requests!) expect(body).toContain(pr.url!);
    expect(world.reactionsOn(triggerCommentOf(1))).toEqual(["eyes", "rocket"]);
    expect(
      await world.harness.store.runForBranch(OWNER, REPO, {
        repoFullName: `${OWNER}/${REPO}`,
        branch: run.git_host_pull_requests![0]!.head_branch_name!,
      }),
    ).toEqual({
      runId: done.runId,
      orgId: world.emulator.orgId,
    });
    expect(world.emulator.control.stats().rateLimited).toBe(0);
  });

  it("reports a failed run with its error and a confused reaction", async () => {
    world = await startWorld(backend);
    world.emulator.control.script({ match: "explode", outcome: "failed", errorMessage: "Tests failed: 3 of 40", durationMs: 5_000 });
    const task = await world.submit({ request: { prompt: "explode please" } });
    await world.harness.idle();

    const comments = world.botComments();
    expect(comments).toHaveLength(1);
    expect(markerOf(comments[0]!.body)).toMatchObject({ state: "done", outcome: "failed" });
    expect(comments[0]!.body).toContain("Tests failed: 3 of 40");
    expect((await world.getTask(task.id)).state).toBe("done");
    expect(world.reactionsOn(triggerCommentOf(1))).toEqual(["eyes", "confused"]);
  });

  it("sends follow-ups held behind a run as one resume of the same run, in a new tracking comment", async () => {
    world = await startWorld(backend);
    world.emulator.control.script({ match: "fix the flaky test", durationMs: LONG_RUN_MS });
    const first = await world.submit();
    // Held while the run's id is not known yet, as the delivery worker holds them; each answers a comment of its own.
    const held1 = await world.submit({
      kind: "resume",
      state: "held",
      request: { prompt: "also update the docs" },
      reaction: { kind: "issue_comment", id: 601 },
    });
    const held2 = await world.submit({
      kind: "resume",
      state: "held",
      request: { prompt: "and the changelog" },
      reaction: { kind: "issue_comment", id: 602 },
    });
    world.github.seed({
      issueComments: [
        { issue_number: 1, id: 601, body: "/agent also update the docs", user: "maintainer" },
        { issue_number: 1, id: 602, body: "/agent and the changelog", user: "maintainer" },
      ],
    });
    await world.harness.idle();

    const runId = (await world.getTask(first.id)).runId!;
    expect(await world.getTask(held1.id)).toMatchObject({ state: "done", kind: "resume", runId });
    expect(await world.getTask(held2.id)).toMatchObject({ state: "done", error: `merged into task ${held1.id}` });
    expect(world.service.creates()).toHaveLength(1);
    const resumes = world.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!.agent_run_id).toBe(runId);
    expect(resumes[0]!.prompt).toBe("also update the docs\n\n---\n\nand the changelog");

    // The run's tracking comment said they were queued; the resume got a tracking comment of its own.
    const firstTracking = (await world.getTask(first.id)).trackingCommentId!;
    const shownQueued = world.github.writes.some(
      (w) => w.kind === "comment_updated" && w.comment.id === firstTracking && w.comment.body.includes("2 follow-ups are queued"),
    );
    expect(shownQueued).toBe(true);
    const comments = world.botComments();
    expect(comments.map((c) => c.id)).toEqual([firstTracking, (await world.getTask(held1.id)).trackingCommentId]);
    expect(comments.map((c) => markerOf(c.body))).toMatchObject([
      { runId, state: "done", outcome: "succeeded" },
      { runId, state: "done", outcome: "succeeded" },
    ]);
    expect(world.reactionsOn(601)).toEqual(["eyes", "rocket"]);
    expect(world.reactionsOn(602)).toEqual(["eyes"]);
  });

  it("a process stopped in the middle of the create call never repeats it: the restarted one finds the run in the service's list and adopts it", async () => {
    world = await startWorld(backend);
    // The create reaches the service and hangs there: the bridge cannot know whether the run started.
    world.emulator.control.setFaults({ latencyMs: 1_500 });
    const task = await world.submit();
    await world.until(
      async () => (await world!.getTask(task.id)).state === "sending" && (world!.emulator.control.stats().byRoute.createRun ?? 0) === 1,
      "the create call to be on the wire",
    );
    await world.harness.stop();
    world.emulator.control.setFaults({});
    await world.until(() => world!.emulator.control.stats().runsCreated === 1, "the service to create the run");

    const { harness: restarted } = await world.startProcess();
    await restarted.idle();
    const adopted = await world.getTask(task.id);
    const [run] = world.emulator.control.runs();
    expect(adopted).toMatchObject({ state: "done", runId: run!.id });
    expect(world.emulator.control.stats().byRoute.createRun).toBe(1);
    const comments = world.botComments();
    expect(comments.map((c) => c.id)).toEqual([adopted.trackingCommentId]);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ runId: run!.id, state: "done" });
  });

  it("a process stopped in the middle of the create call, on a service without a runs list: the restarted one tells the thread", async () => {
    world = await startWorld(backend);
    world.emulator.control.setEndpoints({ listRuns: false });
    // The create reaches the service and hangs there: the bridge cannot know whether the run started.
    world.emulator.control.setFaults({ latencyMs: 1_500 });
    const task = await world.submit();
    await world.until(
      async () => (await world!.getTask(task.id)).state === "sending" && (world!.emulator.control.stats().byRoute.createRun ?? 0) === 1,
      "the create call to be on the wire",
    );
    await world.harness.stop();
    world.emulator.control.setFaults({});
    // The service did start it; the stopped process never learned so.
    await world.until(() => world!.emulator.control.stats().runsCreated === 1, "the service to create the run");

    const { harness: restarted } = await world.startProcess();
    await restarted.idle();
    const abandoned = await world.getTask(task.id);
    expect(abandoned.state).toBe("abandoned");
    expect(abandoned.runId).toBeNull();
    expect(world.emulator.control.stats().byRoute.createRun).toBe(1);
    // The acknowledgement's comment now says what happened; nothing else was posted.
    const comments = world.botComments();
    expect(comments.map((c) => c.id)).toEqual([abandoned.trackingCommentId]);
    // Never "could not run": the run may be working.
    expect(comments[0]!.body).toContain("**The agent run may have started.**");
    expect(comments[0]!.body).toContain("the bridge restarted before the answer was stored");
    expect(comments[0]!.body).not.toContain("could not run");
  });

  it("a task a crashed process left in `sending` is not sent again when the service cannot list runs: the thread is told", async () => {
    world = await startWorld(backend);
    world.emulator.control.setEndpoints({ listRuns: false });
    // What kill -9 leaves mid-call: acknowledged, the call handed to the client, its answer never stored.
    const inserted = await world.harness.store.insertTask({ ...world.task(), deadlineAt: Date.now() + 60_000 });
    const acknowledged = await world.harness.store.updateTask(inserted.id, { acknowledgedAt: Date.now() });
    const trackingId = await world.postAsBot(
      acknowledged.thread,
      renderTaskTracking(acknowledged, { phase: "starting", heldFollowUps: 0, now: Date.now() }),
    );
    await world.harness.store.updateTask(inserted.id, { state: "sending", trackingCommentId: trackingId, sentAt: Date.now() });
    await queueTaskStep(world.harness.queue, inserted.id);
    await world.harness.idle();

    expect((await world.getTask(inserted.id)).state).toBe("abandoned");
    expect(world.emulator.control.stats().byRoute.createRun ?? 0).toBe(0);
    const comments = world.botComments();
    expect(comments.map((c) => c.id)).toEqual([trackingId]);
    // Never "could not run": the run may be working.
    expect(comments[0]!.body).toContain("**The agent run may have started.**");
    expect(comments[0]!.body).toContain("the bridge restarted before the answer was stored");
    expect(comments[0]!.body).not.toContain("could not run");
  });

  it("a new process picks up a watched run and posts its result exactly once", async () => {
    world = await startWorld(backend);
    world.emulator.control.script({ match: "fix the flaky test", durationMs: LONG_RUN_MS });
    const task = await world.submit();
    await world.until(async () => (await world!.getTask(task.id)).state === "watching", "the run to be watched");
    await world.harness.stop();

    const { harness: restarted } = await world.startProcess();
    await restarted.idle();
    const done = await world.getTask(task.id);
    expect(done.state).toBe("done");
    expect(world.emulator.control.stats().runsCreated).toBe(1);
    const comments = world.botComments();
    expect(comments.map((c) => c.id)).toEqual([done.trackingCommentId]);
    expect(markerOf(comments[0]!.body)).toMatchObject({ runId: done.runId, state: "done" });
  });

  it("a process stopped in the middle of a poll leaves the watch to the next one", async () => {
    world = await startWorld(backend);
    world.emulator.control.script({ match: "fix the flaky test", durationMs: LONG_RUN_MS });
    const task = await world.submit();
    await world.until(async () => (await world!.getTask(task.id)).state === "watching", "the run to be watched");
    // Every answer now takes 300 ms: stop while a poll waits for one.
    world.emulator.control.setFaults({ latencyMs: 300 });
    const polls = () => (world!.emulator.control.stats().byRoute.runLogs ?? 0) + (world!.emulator.control.stats().byRoute.getRun ?? 0);
    const before = polls();
    await world.until(() => polls() > before, "a poll to be on the wire");
    await world.harness.stop();
    world.emulator.control.setFaults({});

    const { harness: restarted } = await world.startProcess();
    await restarted.idle();
    const done = await world.getTask(task.id);
    expect(done.state).toBe("done");
    expect(world.botComments().map((c) => c.id)).toEqual([done.trackingCommentId]);
    expect(markerOf(world.botComments()[0]!.body)).toMatchObject({ runId: done.runId, state: "done" });
  });

  it("finishing a report twice (a crash after the edit) rewrites the same comment, never posts a second", async () => {
    world = await startWorld(backend);
    const task = await world.submit();
    await world.harness.idle();
    await world.harness.stop();
    const trackingId = (await world.getTask(task.id)).trackingCommentId!;
    // The process died between the result's edit and marking the task done.
    await world.harness.store.updateTask(task.id, { state: "reporting" });
    world.github.clearRequests();

    const { harness: restarted } = await world.startProcess();
    await queueTaskStep(restarted.queue, task.id);
    await restarted.idle();
    expect((await world.getTask(task.id)).state).toBe("done");
    expect(world.github.callsTo("POST", `/repos/${FULL_NAME}/issues/1/comments`)).toEqual([]);
    expect(world.github.callsTo("PATCH", `/repos/${FULL_NAME}/issues/comments/${trackingId}`)).toHaveLength(1);
    expect(world.botComments().map((c) => c.id)).toEqual([trackingId]);
    expect(markerOf(world.botComments()[0]!.body)).toMatchObject({ state: "done", outcome: "succeeded" });
  });

  it("posts the result as a new comment when someone deleted the tracking comment", async () => {
    world = await startWorld(backend);
    world.emulator.control.script({ match: "fix the flaky test", durationMs: LONG_RUN_MS });
    const task = await world.submit();
    await world.until(async () => (await world!.getTask(task.id)).state === "watching", "the run to be watched");
    const trackingId = (await world.getTask(task.id)).trackingCommentId!;
    const octokit = new TestOctokit({ auth: { token: "ghp_maintainer-token" }, baseUrl: world.github.url });
    await octokit.request("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", {
      owner: OWNER,
      repo: REPO,
      comment_id: trackingId,
    });
    await world.harness.idle();

    const done = await world.getTask(task.id);
    const comments = world.botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).not.toBe(trackingId);
    expect(done.trackingCommentId).toBe(comments[0]!.id);
    expect(markerOf(comments[0]!.body)).toMatchObject({ runId: done.runId, state: "done" });
  });

  it("a burst of 25 creates stays inside the service's limits: zero 429s, every run reported in its own thread", async () => {
    world = await startWorld(backend);
    const tasks: Task[] = [];
    for (let issue = 1; issue <= ISSUES; issue++)
      tasks.push(
        await world.submit({
          thread: { installationId: INSTALLATION_ID, owner: OWNER, repo: REPO, issueNumber: issue, triggerPhrase: "/agent" },
        }),
      );
    await world.harness.idle();

    const done = await Promise.all(tasks.map((t) => world!.getTask(t.id)));
    expect(done.map((t) => t.state)).toEqual(tasks.map(() => "done"));
    const stats = world.emulator.control.stats();
    expect(stats.runsCreated).toBe(ISSUES);
    expect(stats.rateLimited).toBe(0);
    expect(new Set(done.map((t) => t.runId)).size).toBe(ISSUES);
    for (const t of done) {
      const comments = world.botComments(t.thread.issueNumber);
      expect(comments.map((c) => c.id)).toEqual([t.trackingCommentId]);
      expect(markerOf(comments[0]!.body)).toMatchObject({ runId: t.runId, state: "done" });
    }
  });

  it("in a burst of creates, at most a minute's worth waits for the service's budget inside a step: the others wait in the queue, so new triggers are still acknowledged", async () => {
    // Creation windows of 1.2 s (ten times the emulator's): however slow the machine, 25 creates outrun them.
    world = await startWorld(backend, { budgetTimeScale: SCALE * 10 });
    let mostWaiting = 0;
    const sampler = setInterval(() => (mostWaiting = Math.max(mostWaiting, world!.budget.waiting("create"))), 2);
    try {
      const tasks: Task[] = [];
      for (let issue = 1; issue <= ISSUES; issue++)
        tasks.push(
          await world.submit({
            thread: { installationId: INSTALLATION_ID, owner: OWNER, repo: REPO, issueNumber: issue, triggerPhrase: "/agent" },
          }),
        );
      await world.harness.idle();
      const done = await Promise.all(tasks.map((t) => world!.getTask(t.id)));
      expect(done.map((t) => t.state)).toEqual(tasks.map(() => "done"));
    } finally {
      clearInterval(sampler);
    }
    // 25 creates against 10 a minute: 15 would otherwise sit in worker slots for up to two minutes.
    expect(mostWaiting).toBeGreaterThan(0);
    expect(mostWaiting).toBeLessThanOrEqual(10);
    expect(world.emulator.control.stats().runsCreated).toBe(ISSUES);
    expect(world.emulator.control.stats().rateLimited).toBe(0);
  });

  it("in a burst in one installation, each thread's tracking comment goes before the 👀 courtesies: one write per thread, not two, before all are acknowledged", async () => {
    // 20 ms between writes (ten times the other tests'): the triggers arrive faster than the lane drains, on any machine.
    world = await startWorld(backend, { pacingTimeScale: 0.02 });
    for (let issue = 1; issue <= ISSUES; issue++)
      await world.submit({
        thread: { installationId: INSTALLATION_ID, owner: OWNER, repo: REPO, issueNumber: issue, triggerPhrase: "/agent" },
      });
    await world.harness.idle();
    const writes = world.github.requests.filter(
      (r) => r.method === "POST" && (r.route?.endsWith("/reactions") || r.route === "/repos/:owner/:repo/issues/:issue_number/comments"),
    );
    const isTracking = (r: (typeof writes)[number]) => !r.route!.endsWith("/reactions");
    expect(writes.filter(isTracking)).toHaveLength(ISSUES);
    const lastTracking = writes.map(isTracking).lastIndexOf(true);
    // Before: 👀 and comment alternated, so the last thread waited for 2 × 25 writes. Now at most a
    // few 👀 go while the lane happens to have no comment queued.
    expect(lastTracking + 1).toBeLessThanOrEqual(ISSUES + 5);
  });

  it("acknowledges exactly once across a crash: a tracking comment already posted is found by its marker", async () => {
    world = await startWorld(backend);
    // A previous try reacted and posted the comment, then died before storing the comment's id.
    const inserted = await world.harness.store.insertTask({ ...world.task(), deadlineAt: Date.now() + 60_000 });
    const acknowledged = await world.harness.store.updateTask(inserted.id, { acknowledgedAt: Date.now() });
    const earlierComment = await world.postAsBot(
      acknowledged.thread,
      renderTaskTracking(acknowledged, { phase: "starting", heldFollowUps: 0, now: Date.now() }),
    );
    world.github.clearRequests();

    await queueTaskStep(world.harness.queue, inserted.id);
    await world.harness.idle();
    const done = await world.getTask(inserted.id);
    expect(done.state).toBe("done");
    expect(done.trackingCommentId).toBe(earlierComment);
    expect(world.github.callsTo("POST", `/repos/${FULL_NAME}/issues/1/comments`)).toEqual([]);
    expect(world.botComments().map((c) => c.id)).toEqual([earlierComment]);
    expect(markerOf(world.botComments()[0]!.body)).toMatchObject({ runId: done.runId, state: "done", outcome: "succeeded" });
    // The 👀 was part of the first try: only the result's reaction now.
    expect(world.reactionsOn(triggerCommentOf(1))).toEqual(["rocket"]);
    const run = world.emulator.control.runs().find((r) => r.id === done.runId)!;
    expect(run.metadata).toMatchObject({ status_comment_id: earlierComment });
  });

  it("retries a step that keeps failing with growing pauses, then ends the task with one reply", async () => {
    const retry = { maxAttempts: 5, baseDelayMs: 25 };
    world = await startWorld(backend, { retry });
    // GitHub answers every comment write of every attempt with 502; it recovers afterwards.
    const commentsPath = `/repos/${FULL_NAME}/issues/1/comments`;
    world.github.injectFault({ method: "POST", path: commentsPath, status: 502, times: retry.maxAttempts });
    const task = await world.submit();
    await world.until(async () => (await world!.getTask(task.id)).state === "abandoned", "the task to be given up", 20_000);
    await world.harness.idle();

    const posts = world.github.callsTo("POST", commentsPath);
    const failed = posts.filter((r) => r.fault);
    expect(failed).toHaveLength(retry.maxAttempts);
    // Each retry waits at least the policy's pause (doubling, at most 20% shorter for jitter).
    for (let attempt = 1; attempt < failed.length; attempt++) {
      const gap = failed[attempt]!.receivedAt - failed[attempt - 1]!.receivedAt;
      expect(gap).toBeGreaterThanOrEqual(0.8 * retry.baseDelayMs * 2 ** (attempt - 1) - 2);
    }
    // The one reply, once GitHub takes writes again; nothing was sent to the service.
    expect(posts.filter((r) => !r.fault)).toHaveLength(1);
    const comments = world.botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("The bridge could not handle this request");
    expect(comments[0]!.body).toContain("502");
    expect(world.service.creates()).toEqual([]);
    expect(world.reactionsOn(triggerCommentOf(1))).toEqual(["eyes"]);
  });

  it(`never posts one result twice, with ${backend === "redis" ? "two replicas taking steps from one queue" : "the one process the embedded backend allows"}`, async () => {
    world = await startWorld(backend);
    const replicas = backend === "redis" ? [await world.startProcess()] : [];
    const threads = Array.from({ length: 8 }, (_, i) => i + 1);
    const tasks: Task[] = [];
    for (const issue of threads)
      tasks.push(
        await world.submit({
          thread: { installationId: INSTALLATION_ID, owner: OWNER, repo: REPO, issueNumber: issue, triggerPhrase: "/agent" },
        }),
      );
    await world.harness.idle();

    for (const t of tasks) {
      const done = await world.getTask(t.id);
      expect(done.state).toBe("done");
      const issuePath = `/repos/${FULL_NAME}/issues/${done.thread.issueNumber}/comments`;
      expect(world.github.callsTo("POST", issuePath)).toHaveLength(1);
      // The result is written once: one edit carries the finished marker, and one 🚀.
      const resultEdits = world.github.writes.filter(
        (w) => w.kind === "comment_updated" && w.comment.id === done.trackingCommentId && parseMarker(w.comment.body)?.state === "done",
      );
      expect(resultEdits).toHaveLength(1);
      // 🚀 once. The 👀 is a courtesy that a burst of eight threads in one installation may drop (it
      // waits behind the tracking comments for a bounded time), so it is there at most once.
      const reactions = world.reactionsOn(triggerCommentOf(done.thread.issueNumber));
      expect(reactions.filter((r) => r === "rocket")).toEqual(["rocket"]);
      expect(reactions.filter((r) => r !== "rocket")).toEqual(reactions.includes("eyes") ? ["eyes"] : []);
    }
    expect(world.emulator.control.stats().runsCreated).toBe(threads.length);
    // Both processes did part of the work (a test of one replica would prove nothing).
    for (const replica of replicas) expect(replica.serviceRequests()).toBeGreaterThan(0);
  });

  it("drops progress edits that wait too long while the installation's writes are held up; the result is never dropped and lands last", async () => {
    world = await startWorld(backend);
    // Long enough that the run is still going however slowly this machine gets to the next line.
    world.emulator.control.script({ match: "fix the flaky test", durationMs: 2 * LONG_RUN_MS });
    const task = await world.submit();
    // The run's link is written (the one result-priority edit before the result) and nothing else waits.
    const linkWritten = () => world!.writeEvents.some((e) => e.priority === "result" && e.outcome === "written");
    await world.until(
      async () => (await world!.getTask(task.id)).state === "watching" && linkWritten() && world!.pacer.waiting() === 0,
      "the run to be watched, its link shown",
    );
    const trackingId = (await world.getTask(task.id)).trackingCommentId!;

    // Another write of the installation holds its lane (one write at a time) until the test lets it go.
    let release!: () => void;
    const lane = new Promise<void>((resolve) => (release = resolve));
    const held = world.pacer.schedule(INSTALLATION_ID, "acknowledge", () => lane);
    let writesWhileHeld: number;
    try {
      await world.until(
        async () => (await world!.getTask(task.id)).state === "reporting" && world!.pacer.waiting(INSTALLATION_ID) > 0,
        "the result to wait for the lane",
        15_000,
      );
      writesWhileHeld = world.writeEvents.length;
    } finally {
      release();
    }
    await held;
    await world.harness.idle();

    const dropped = world.writeEvents.filter((e) => e.priority === "progress" && (e.outcome === "stale" || e.outcome === "superseded"));
    expect(dropped.length).toBeGreaterThan(0);
    expect(world.writeEvents.filter((e) => e.priority !== "progress" && e.outcome !== "written")).toEqual([]);
    // After the lane opened: the result, then its reaction; no progress edit was written late.
    expect(world.writeEvents.slice(writesWhileHeld).map((e) => `${e.priority} ${e.outcome}`)).toEqual([
      "acknowledge written",
      "result written",
      "result written",
    ]);
    const edits = world.github.writes.flatMap((w) => (w.kind === "comment_updated" && w.comment.id === trackingId ? [w.comment.body] : []));
    expect(markerOf(edits.at(-1)!)).toMatchObject({ state: "done", outcome: "succeeded" });
    expect(markerOf(world.botComments()[0]!.body)).toMatchObject({ state: "done", outcome: "succeeded" });
  });

  it(`sends follow-ups to a working run in the order they were written, once each, ${backend === "redis" ? "with two replicas taking steps" : "on the one process"} (follow_up: interrupt)`, async () => {
    world = await startWorld(backend);
    const replicas = backend === "redis" ? [await world.startProcess()] : [];
    world.emulator.control.setResumeWhileRunning("interrupt");
    world.emulator.control.script({ match: "fix the flaky test", durationMs: 4 * LONG_RUN_MS });
    const task = await world.submit();
    await world.until(async () => (await world!.getTask(task.id)).state === "watching", "the run to be watched");
    const runId = (await world.getTask(task.id)).runId!;
    const texts = ["first: use the new API", "second: not the old one", "third: keep it small"];
    const followUps: Task[] = [];
    for (const [index, text] of texts.entries()) {
      followUps.push(
        await world.submit({
          kind: "resume",
          state: "held",
          runId,
          request: { prompt: text },
          interrupt: { firstLine: text },
          reaction: { kind: "issue_comment", id: triggerCommentOf(index + 2) },
        }),
      );
    }
    await world.harness.idle();

    expect(world.service.resumes()).toEqual(texts.map((prompt) => ({ agent_run_id: runId, prompt })));
    const logs = await new AgentRunClient({
      baseUrl: world.emulator.url,
      token: world.emulator.token,
      orgId: world.emulator.orgId,
    }).listLogs(runId);
    expect(logs.logs.filter((e) => e.message_type === "USER_MESSAGE").map((e) => e.observation)).toEqual(texts);
    const watched = await world.getTask(task.id);
    expect(watched.state).toBe("done");
    expect(watched.delivered.map((m) => [m.taskId, m.firstLine, m.confirmed])).toEqual(followUps.map((f, i) => [f.id, texts[i], true]));
    for (const followUp of followUps) expect((await world.getTask(followUp.id)).state).toBe("done");
    // The run's one result, and its 🚀 on each follow-up too.
    expect(world.botComments()).toHaveLength(1);
    for (const index of [2, 3, 4]) expect(world.reactionsOn(triggerCommentOf(index))).toContain("rocket");
    for (const replica of replicas) expect(replica.serviceRequests()).toBeGreaterThan(0);
  });
});

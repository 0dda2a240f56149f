import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProbotOctokit } from "probot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RunEngine } from "../../../src/app/engine.js";
import { SqliteBridgeStore } from "../../../src/app/store/sqlite.js";
import type { NewTask } from "../../../src/app/store/types.js";
import { createOctokitThreadWriter } from "../../../src/app/thread-writer.js";
import { parseMarker } from "../../../src/core/markers.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../../src/fake-github/index.js";
import { AgentRunClient } from "../../../src/service/index.js";

const SCALE = 0.002;
const OWNER = "octo-org";
const REPO = "widgets";

let emulator: RunningEmulator;
let github: FakeGitHub;
let dir: string;
let cleanups: Array<() => Promise<void> | void> = [];

beforeEach(async () => {
  emulator = await startEmulator({ timeScale: SCALE, defaultScript: { durationMs: 20_000, logSteps: 12 } });
  github = await startFakeGitHub({
    seed: {
      repositories: [{ owner: OWNER, name: REPO }],
      issues: [{ number: 1, title: "Flaky test", body: "It fails on Tuesdays." }],
      issueComments: [{ issue_number: 1, id: 500, body: "/agent fix the flaky test", user: { login: "maintainer" } }],
    },
  });
  dir = mkdtempSync(join(tmpdir(), "arb-engine-"));
  cleanups = [];
});

afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  await emulator.close();
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

const TestOctokit = ProbotOctokit.defaults((o: object) => ({ ...o, retry: { enabled: false }, throttle: { enabled: false } }));

function makeEngine(file = join(dir, "bridge.sqlite")) {
  const store = new SqliteBridgeStore(file);
  const client = new AgentRunClient({ baseUrl: emulator.url, token: emulator.token, orgId: emulator.orgId, timeScale: SCALE, backoff: { minMs: 5, maxMs: 50 } });
  const octokit = new TestOctokit({ auth: { token: "installation-token" }, baseUrl: github.url });
  const writer = createOctokitThreadWriter(async () => octokit);
  const engine = new RunEngine({ store, client, writer, timeScale: SCALE, progressEditIntervalMs: 1000 });
  cleanups.push(async () => {
    await engine.stop();
    store.close();
  });
  return { store, client, engine, octokit };
}

async function postTracking(octokit: InstanceType<typeof TestOctokit>, body = "tracking…"): Promise<number> {
  const { data } = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { owner: OWNER, repo: REPO, issue_number: 1, body });
  return Number(data.id);
}

function newTask(trackingCommentId: number | null, overrides: Partial<NewTask> = {}): NewTask {
  return {
    kind: "create",
    state: "queued",
    sourceType: "GIT_HOST",
    thread: { installationId: 1, owner: OWNER, repo: REPO, issueNumber: 1, triggerPhrase: "/agent" },
    runId: null,
    orgId: emulator.orgId,
    trackingCommentId,
    reaction: { kind: "issue_comment", id: 500 },
    request: { prompt: "fix the flaky test", metadata: { source_type: "GIT_HOST" } },
    requestedBy: "maintainer",
    deadlineAt: Date.now() + 60_000,
    ...overrides,
  };
}

function botComments() {
  return github.commentsOn(`${OWNER}/${REPO}`, 1).filter((c) => c.user.login.endsWith("[bot]"));
}

describe("RunEngine", () => {
  it("creates the run, watches it and turns the tracking comment into the result, once", async () => {
    const { engine, store, octokit } = makeEngine();
    await engine.start();
    const trackingId = await postTracking(octokit);
    const task = engine.submit(newTask(trackingId));
    await engine.idle();

    const done = store.getTask(task.id)!;
    expect(done.state).toBe("done");
    expect(done.runId).toBeGreaterThan(0);
    const run = emulator.control.runs().find((r) => r.id === done.runId)!;
    expect(run.metadata).toEqual({ source_type: "GIT_HOST" });

    const comments = botComments();
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(parseMarker(body)).toMatchObject({ runId: done.runId, state: "done", outcome: "succeeded" });
    expect(body).toContain(run.summary!.slice(0, 40));
    for (const pr of run.git_host_pull_requests ?? []) expect(body).toContain(pr.url!);
    expect(github.callsTo("POST", "/repos/octo-org/widgets/issues/comments/500/reactions").map((r) => (r.body as { content: string }).content)).toEqual(["rocket"]);
    expect(store.runForBranch(OWNER, REPO, run.git_host_pull_requests![0]!.head_branch_name!)).toEqual({ runId: done.runId, orgId: emulator.orgId });
    expect(emulator.control.stats().rateLimited).toBe(0);
  });

  it("reports a failed run with its error and a confused reaction", async () => {
    emulator.control.script({ match: "explode", outcome: "failed", errorMessage: "Tests failed: 3 of 40", durationMs: 5000 });
    const { engine, store, octokit } = makeEngine();
    await engine.start();
    const task = engine.submit(newTask(await postTracking(octokit), { request: { prompt: "explode please" } }));
    await engine.idle();
    const body = botComments()[0]!.body;
    expect(parseMarker(body)).toMatchObject({ state: "done", outcome: "failed" });
    expect(body).toContain("Tests failed: 3 of 40");
    expect(store.getTask(task.id)!.state).toBe("done");
    expect(github.callsTo("POST", "/repos/octo-org/widgets/issues/comments/500/reactions").map((r) => (r.body as { content: string }).content)).toEqual(["confused"]);
  });

  it("sends follow-ups held behind a run as one resume of the same run, in a new tracking comment", async () => {
    const { engine, store, octokit } = makeEngine();
    await engine.start();
    const first = engine.submit(newTask(await postTracking(octokit)));
    const held1 = engine.submit(newTask(null, { state: "held", request: { prompt: "also update the docs" } }));
    const held2 = engine.submit(newTask(null, { state: "held", request: { prompt: "and the changelog" } }));
    await engine.idle();

    const runId = store.getTask(first.id)!.runId!;
    expect(store.getTask(held1.id)).toMatchObject({ state: "done", kind: "resume" });
    expect(store.getTask(held1.id)!.runId).toBe(runId);
    expect(store.getTask(held2.id)!.state).toBe("done");
    const stats = emulator.control.stats();
    expect(stats.runsCreated).toBe(1);
    expect(stats.runsResumed).toBe(1);
    const resumed = emulator.control.runs().find((r) => r.id === runId)!;
    expect(resumed.status).toBe("completed");
    const client = new AgentRunClient({ baseUrl: emulator.url, token: emulator.token, orgId: emulator.orgId, timeScale: SCALE });
    const userMessages: string[] = [];
    for await (const entry of client.iterateLogs(runId)) if (entry.message_type === "USER_MESSAGE") userMessages.push(JSON.stringify(entry));
    expect(userMessages).toHaveLength(1);
    expect(userMessages[0]).toContain("also update the docs");
    expect(userMessages[0]).toContain("and the changelog");
    // Two results: the first run and its resume; no other bot comments.
    const comments = botComments();
    expect(comments).toHaveLength(2);
    expect(comments.map((c) => parseMarker(c.body)?.runId)).toEqual([runId, runId]);
  });

  it("after a crash mid-call, never repeats the create: the thread is told instead", async () => {
    const file = join(dir, "crash.sqlite");
    const { store, octokit } = makeEngine(file);
    const trackingId = await postTracking(octokit);
    const task = store.insertTask(newTask(trackingId));
    store.updateTask(task.id, { state: "sending" });

    const second = makeEngine(file);
    await second.engine.start();
    await second.engine.idle();
    expect(second.store.getTask(task.id)!.state).toBe("abandoned");
    expect(emulator.control.stats().runsCreated).toBe(0);
    const comments = botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toMatch(/restarted while this run was being started/);
  });

  it("a new process picks up a watched run and posts its result exactly once", async () => {
    const file = join(dir, "restart.sqlite");
    const first = makeEngine(file);
    await first.engine.start();
    const trackingId = await postTracking(first.octokit);
    const task = first.engine.submit(newTask(trackingId));
    // Wait until the run is being watched, then stop this "process" without reporting.
    for (let i = 0; i < 200 && first.store.getTask(task.id)!.state !== "watching"; i++) await new Promise((r) => setTimeout(r, 5));
    expect(first.store.getTask(task.id)!.state).toBe("watching");
    await first.engine.stop();

    const second = makeEngine(file);
    await second.engine.start();
    await second.engine.idle();
    expect(second.store.getTask(task.id)!.state).toBe("done");
    expect(emulator.control.stats().runsCreated).toBe(1);
    const comments = botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).toBe(trackingId);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ state: "done" });
  });

  it("finishing a report twice (crash after the edit) rewrites the same comment, never a second one", async () => {
    const file = join(dir, "report.sqlite");
    const first = makeEngine(file);
    await first.engine.start();
    const trackingId = await postTracking(first.octokit);
    const task = first.engine.submit(newTask(trackingId));
    await first.engine.idle();
    await first.engine.stop();
    // Pretend the process died between the edit and marking the task done.
    first.store.updateTask(task.id, { state: "reporting" });

    const second = makeEngine(file);
    await second.engine.start();
    await second.engine.idle();
    expect(botComments()).toHaveLength(1);
    expect(github.callsTo("PATCH", `/repos/octo-org/widgets/issues/comments/${trackingId}`).length).toBeGreaterThanOrEqual(2);
  });

  it("posts the result as a new comment when the tracking comment was deleted", async () => {
    const { engine, octokit } = makeEngine();
    const trackingId = await postTracking(octokit);
    await octokit.request("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner: OWNER, repo: REPO, comment_id: trackingId });
    await engine.start();
    engine.submit(newTask(trackingId));
    await engine.idle();
    const comments = botComments();
    expect(comments).toHaveLength(1);
    expect(comments[0]!.id).not.toBe(trackingId);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ state: "done" });
  });

  it("a burst of 25 creates stays inside the service's limits: zero 429s, every run reported", async () => {
    const { engine, store, octokit } = makeEngine();
    await engine.start();
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push(engine.submit(newTask(await postTracking(octokit, `t${i}`))).id);
    await engine.idle();
    expect(ids.map((id) => store.getTask(id)!.state)).toEqual(ids.map(() => "done"));
    const stats = emulator.control.stats();
    expect(stats.runsCreated).toBe(25);
    expect(stats.rateLimited).toBe(0);
    expect(new Set(ids.map((id) => store.getTask(id)!.runId)).size).toBe(25);
  });
});

/**
 * Three `agent-run app` processes on one Redis behind a round-robin proxy, as a deployment with
 * replicas runs: first comments and follow-ups in several threads land on different replicas, one
 * replica is killed (SIGKILL) in the middle of polling a run, redeliveries hit the others. The
 * emulator and the fake GitHub, in the test process, count what reached them: each thread gets one
 * create and one resume, one tracking comment per run phase, each turned into its result once, no 429.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { BOT_LOGIN, appEnv, baseSeed, dropRedisKeys, postWebhook, redisBackendEnv, until } from "../../helpers/app-harness.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { jsonLogLines, startAppChild, startHttpProxy, type AppChild, type HttpProxy } from "../../helpers/app-process.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

/** 100× faster than real time: a first run lasts about 3 s, a resume about 1 s, GitHub's write pacing is compressed alike. */
const TIME_SCALE = 0.01;
const THREADS = [11, 12, 13, 14];
const FIRST_TASK = "first-task";
const FOLLOW_UP = "follow-up-task";
/** Verbose health answers (the shared store's counts) need the status token. */
const STATUS_TOKEN = "replicas-status-token-0123456789abcdef";
/** BullMQ's lock (10 s) plus its stalled check (5 s) bound a takeover; the rest is margin on a loaded machine. */
const TAKEOVER_BOUND_MS = 30_000;

let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;
let replicas: AppChild[] = [];
let proxy: HttpProxy;
/** One pass-through per replica between it and the service, so the test knows who calls and can hold a call in flight. */
let serviceGates: HttpProxy[] = [];
/** Armed for one replica: its next poll is held unanswered, and `heldPoll` resolves with the path. */
let holdPollOf: number | null = null;
let pollHeld: (path: string) => void = () => undefined;
const heldPoll = new Promise<string>((resolve) => (pollHeld = resolve));
let dataDir: string;
const redisEnv = redisBackendEnv();

beforeAll(async () => {
  github = await startFakeGitHub({
    seed: {
      ...baseSeed(),
      issues: THREADS.map((number) => ({ number, title: `Issue ${number}`, body: "Something to do.", user: "maintainer" })),
    },
  });
  emulator = await startEmulator({ timeScale: TIME_SCALE });
  emulator.control.script({ match: FOLLOW_UP, durationMs: 100_000, summary: "Did the follow-up." });
  emulator.control.script({ match: FIRST_TASK, durationMs: 300_000, summary: "Did the first task." });
  service = await startServiceRecorder(emulator.url);
  dataDir = mkdtempSync(join(tmpdir(), "arb-replicas-"));
  serviceGates = await Promise.all(
    [0, 1, 2].map((index) =>
      startHttpProxy([service.url], {
        beforeForward: ({ method, path }) => {
          // A run's own read (a page of the runs list, which the sweeping replica reads, names no run).
          if (holdPollOf !== index || method !== "GET" || !/\/agent\/run\/\d+/.test(path)) return;
          holdPollOf = null;
          pollHeld(path);
          // Never answered: the replica dies waiting for it.
          return new Promise<void>(() => undefined);
        },
      }),
    ),
  );
  replicas = await Promise.all(
    serviceGates.map((gate, index) =>
      startAppChild(
        appEnv({ url: gate.url, token: emulator.token, orgId: emulator.orgId }, join(dataDir, String(index)), {
          ...redisEnv,
          GHE_HOST: new URL(github.url).host,
          GHE_PROTOCOL: "http",
          AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
          LOG_LEVEL: "info",
          LOG_FORMAT: "json",
          STATUS_TOKEN,
        }),
        `replica ${index + 1}`,
      ),
    ),
  );
  proxy = await startHttpProxy(replicas.map((r) => r.url));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(replicas.map((r) => r.kill()));
  await Promise.all(serviceGates.map((gate) => gate.close()));
  await dropRedisKeys(redisEnv.REDIS_KEY_PREFIX!);
  await service?.close();
  await emulator?.close();
  await github?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Verbose {
  ok: boolean;
  tasks: Partial<Record<string, number>>;
  queue: Record<string, { waiting: number; delayed: number; active: number }>;
}

async function verboseHealth(replica: AppChild): Promise<Verbose> {
  const response = await fetch(`${replica.url}/healthz?verbose`, {
    headers: { authorization: `Bearer ${STATUS_TOKEN}` },
    signal: AbortSignal.timeout(5_000),
  });
  return (await response.json()) as Verbose;
}

/** Nothing queued, held, sent, watched or reported, and no job anywhere: what every replica sees in the shared store. */
async function allIdle(replica: AppChild): Promise<boolean> {
  const { tasks, queue } = await verboseHealth(replica);
  const open = ["held", "queued", "sending", "watching", "reporting"].reduce((sum, state) => sum + (tasks[state] ?? 0), 0);
  const jobs = Object.values(queue).reduce((sum, c) => sum + c.waiting + c.delayed + c.active, 0);
  return open === 0 && jobs === 0;
}

interface Delivery {
  id: string;
  payload: object;
  /** Replica index (0-based) the proxy sent it to. */
  receivedBy: number;
}

/** A maintainer comments in a thread: the comment exists on GitHub, and its delivery goes through the proxy. */
async function comment(issueNumber: number, body: string): Promise<Delivery> {
  github.seed({ issueComments: [{ issue_number: issueNumber, body, user: "maintainer" }] });
  const stored = github.state.issueComments.at(-1)!;
  const payload = issueCommentPayload({
    thread: { number: issueNumber, title: `Issue ${issueNumber}` },
    comment: { id: stored.id, body, login: "maintainer" },
  });
  const id = randomUUID();
  expect(await postWebhook(proxy.webhookUrl, "issue_comment", payload, id)).toBe(200);
  return { id, payload, receivedBy: proxy.targetOf.get(id)! };
}

const botComments = (issueNumber: number) => github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === BOT_LOGIN);
const threadOfRun = (runId: number) => emulator.control.runs().find((r) => r.id === runId)?.metadata?.issue_number;
const logged = (replica: AppChild, message: string) => jsonLogLines(replica.stdout()).filter((line) => line.msg === message);

describe("three App replicas on one Redis", () => {
  it("spreads the work, survives a SIGKILLed replica mid-watch, and acts once per trigger however often it is delivered", async () => {
    // First comments, each delivered through the proxy and at the same moment redelivered straight to another replica.
    const firsts: Delivery[] = [];
    await Promise.all(
      THREADS.map(async (issueNumber, i) => {
        github.seed({
          issueComments: [{ issue_number: issueNumber, body: `/agent ${FIRST_TASK} in #${issueNumber}`, user: "maintainer" }],
        });
        const stored = github.state.issueComments.at(-1)!;
        const payload = issueCommentPayload({
          thread: { number: issueNumber, title: `Issue ${issueNumber}` },
          comment: { id: stored.id, body: stored.body, login: "maintainer" },
        });
        const id = randomUUID();
        const twin = replicas[(i + 1) % replicas.length]!;
        const statuses = await Promise.all([
          postWebhook(proxy.webhookUrl, "issue_comment", payload, id),
          postWebhook(twin.webhookUrl, "issue_comment", payload, id),
        ]);
        expect(statuses).toEqual([200, 200]);
        firsts.push({ id, payload, receivedBy: proxy.targetOf.get(id)! });
      }),
    );
    const running = (issueNumber: number) => parseMarker(botComments(issueNumber)[0]?.body)?.state === "running";
    await until(() => THREADS.every(running), "a run to be watched in every thread", 20_000);

    // Follow-ups while the runs work: held behind them, on whichever replica takes each.
    const followUps: Delivery[] = [];
    for (const issueNumber of THREADS) followUps.push(await comment(issueNumber, `/agent ${FOLLOW_UP} in #${issueNumber}`));
    await until(async () => (await verboseHealth(replicas[0]!)).tasks.held === THREADS.length, "every follow-up to be held", 10_000);
    // Round robin: every replica received deliveries.
    expect(proxy.forwarded.every((count) => count >= 2)).toBe(true);

    // The replica that started the most runs is killed in the middle of a poll: that step's job is
    // locked by a dead process, and only BullMQ's stalled-job check can give it to another replica.
    const started = replicas.map((r) => logged(r, "agent run started"));
    const victimIndex = started.reduce((best, lines, i) => (lines.length > started[best]!.length ? i : best), 0);
    const victim = replicas[victimIndex]!;
    const survivors = replicas.filter((r) => r !== victim);
    const victimRuns = started[victimIndex]!.map((line) => line.runId as number);
    expect(victimRuns.length).toBeGreaterThan(0);
    holdPollOf = victimIndex;
    const polledPath = await Promise.race([
      heldPoll,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${victim.label} polled no run within 5 s`)), 5_000)),
    ]);
    const orphanedRun = Number(/\/agent\/run\/(\d+)/.exec(polledPath)?.[1]);
    const orphanedThread = threadOfRun(orphanedRun) as number;
    expect(THREADS).toContain(orphanedThread);
    proxy.remove(victimIndex);
    await victim.kill();
    const killedAt = Date.now();
    // The held read may be of the thread's follow-up run (sweeps read first runs rarely): one of its phases is still going.
    expect(botComments(orphanedThread).some((c) => parseMarker(c.body)?.state === "running")).toBe(true);

    const done = (issueNumber: number) => botComments(issueNumber).filter((c) => parseMarker(c.body)?.state === "done").length;
    await until(
      () => done(orphanedThread) >= 1,
      `the run the killed replica was polling (#${orphanedRun}) to end in its result`,
      TAKEOVER_BOUND_MS,
    );
    expect(Date.now() - killedAt).toBeLessThan(TAKEOVER_BOUND_MS);
    await until(() => THREADS.every((n) => done(n) === 2), "the follow-ups' results", 20_000);
    await until(() => allIdle(survivors[0]!), "the replicas to have nothing left to do", 10_000);

    // The run it was polling, and every run it had started, were reported by the others.
    const reportedBy = (runId: number) => survivors.filter((r) => logged(r, "result posted").some((line) => line.runId === runId));
    for (const runId of new Set([orphanedRun, ...victimRuns]))
      expect(reportedBy(runId).length, `run ${runId} (thread #${threadOfRun(runId)})`).toBeGreaterThan(0);

    // Per thread: one create, one resume of that run, two bot comments (the run and its resume), each its result once.
    for (const issueNumber of THREADS) {
      const creates = service.requests.filter(
        (r) =>
          r.method === "POST" &&
          r.path.endsWith("/agent/run") &&
          (r.body?.metadata as { issue_number?: number } | undefined)?.issue_number === issueNumber,
      );
      expect(creates, `creates for #${issueNumber}`).toHaveLength(1);
      const run = emulator.control.runs().find((r) => r.metadata?.issue_number === issueNumber)!;
      const resumes = service.requests.filter(
        (r) => r.method === "POST" && r.path.endsWith("/agent/run/resume") && r.body?.agent_run_id === run.id,
      );
      expect(resumes, `resumes for #${issueNumber}`).toHaveLength(1);
      expect(String(resumes[0]!.body!.prompt)).toContain(`${FOLLOW_UP} in #${issueNumber}`);

      const comments = botComments(issueNumber);
      expect(
        comments.map((c) => parseMarker(c.body)),
        `bot comments on #${issueNumber}`,
      ).toMatchObject([
        { runId: run.id, state: "done", outcome: "succeeded" },
        { runId: run.id, state: "done", outcome: "succeeded" },
      ]);
      expect(comments[0]!.body).toContain("Did the first task.");
      expect(comments[1]!.body).toContain("Did the follow-up.");
      const created = github.writes.filter((w) => w.kind === "comment_created" && w.issueNumber === issueNumber);
      expect(created, `comments created on #${issueNumber}`).toHaveLength(2);
    }
    expect(emulator.control.stats().runsCreated).toBe(THREADS.length);
    expect(emulator.control.stats().runsResumed).toBe(THREADS.length);
    expect(emulator.control.stats().rateLimited).toBe(0);
    expect(service.requests.filter((r) => r.status === 429)).toEqual([]);

    // Every delivery again, straight to a surviving replica that did not receive it first: nothing changes.
    const writes = github.writes.length;
    const serviceCalls = service.requests.length;
    for (const delivery of [...firsts, ...followUps]) {
      const other = survivors.find((r) => r !== replicas[delivery.receivedBy])!;
      expect(await postWebhook(other.webhookUrl, "issue_comment", delivery.payload, delivery.id)).toBe(200);
    }
    await until(() => allIdle(survivors[0]!), "the redeliveries to settle", 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(github.writes).toHaveLength(writes);
    expect(service.requests).toHaveLength(serviceCalls);

    for (const survivor of survivors) expect(await survivor.stop()).toEqual({ code: 0, signal: null });
    for (const replica of replicas) expect(replica.stdout() + replica.stderr()).not.toContain(emulator.token);
  });
});

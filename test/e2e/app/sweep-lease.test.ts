/**
 * Two `agent-run app` processes on one Redis, each reaching the service through its own
 * pass-through (so the test knows who sent what): while runs are in flight exactly one replica
 * sweeps the runs list; SIGKILLed, it cannot give its lease up, and the other takes the sweeps over
 * once the lease runs out. Every run's result is written once, and the service never answers 429.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SWEEP_LEASE_TTL_MS } from "../../../src/app/engine/sweeping.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { BOT_LOGIN, appEnv, baseSeed, dropRedisKeys, postWebhook, redisBackendEnv, until } from "../../helpers/app-harness.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { startAppChild, startHttpProxy, type AppChild, type HttpProxy } from "../../helpers/app-process.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

const TIME_SCALE = 0.01;
const THREADS = [31, 32, 33];
/** Emulated: 25 s real, so the runs are still going when the sweeper dies and the lease runs out. */
const RUN_MS = 2_500_000;

let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;
let replicas: AppChild[] = [];
/** One pass-through per replica; `listPagesAt[i]` holds when replica i asked for a page of the runs list. */
let gates: HttpProxy[] = [];
const listPagesAt: number[][] = [[], []];
let dataDir: string;
const redisEnv = redisBackendEnv();

beforeAll(async () => {
  github = await startFakeGitHub({
    seed: { ...baseSeed(), issues: THREADS.map((number) => ({ number, title: `Issue ${number}`, body: "Do it.", user: "maintainer" })) },
  });
  emulator = await startEmulator({
    timeScale: TIME_SCALE,
    defaultScript: { durationMs: RUN_MS },
    otherRuns: { perCreate: 2, sourceTypes: ["GIT_HOST", "API"] },
  });
  service = await startServiceRecorder(emulator.url);
  dataDir = mkdtempSync(join(tmpdir(), "arb-sweep-lease-"));
  gates = await Promise.all(
    [0, 1].map((index) =>
      startHttpProxy([service.url], {
        beforeForward: ({ method, path }) => {
          if (method === "GET" && path.endsWith("/agent/runs")) listPagesAt[index]!.push(Date.now());
        },
      }),
    ),
  );
  replicas = await Promise.all(
    gates.map((gate, index) =>
      startAppChild(
        appEnv({ url: gate.url, token: emulator.token, orgId: emulator.orgId }, join(dataDir, String(index)), {
          ...redisEnv,
          GHE_HOST: new URL(github.url).host,
          GHE_PROTOCOL: "http",
          AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
        }),
        `replica ${index + 1}`,
      ),
    ),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.kill()));
  await Promise.all(gates.map((gate) => gate.close()));
  await dropRedisKeys(redisEnv.REDIS_KEY_PREFIX!);
  await service?.close();
  await emulator?.close();
  await github?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const botComments = (issueNumber: number) => github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === BOT_LOGIN);
const pagesSince = (index: number, since: number) => listPagesAt[index]!.filter((at) => at >= since).length;

describe("the sweep lease across two App replicas on one Redis", () => {
  it("one replica sweeps at a time; a SIGKILL hands the sweeps to the other; every result is written once", async () => {
    for (const [i, issueNumber] of THREADS.entries()) {
      github.seed({ issueComments: [{ issue_number: issueNumber, body: `/agent task ${issueNumber}`, user: "maintainer" }] });
      const stored = github.state.issueComments.at(-1)!;
      const payload = issueCommentPayload({
        thread: { number: issueNumber, title: `Issue ${issueNumber}` },
        comment: { id: stored.id, body: stored.body, login: "maintainer" },
      });
      expect(await postWebhook(replicas[i % 2]!.webhookUrl, "issue_comment", payload, randomUUID())).toBe(200);
    }
    const running = (n: number) => parseMarker(botComments(n)[0]?.body)?.state === "running";
    await until(() => THREADS.every(running), "every run to be watched", 20_000);

    // Sweeps under way: a second of them, and only one replica asked for the list.
    const watchedFrom = Date.now();
    await until(() => pagesSince(0, watchedFrom) + pagesSince(1, watchedFrom) >= 3, "a few sweeps", 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const counts = [pagesSince(0, watchedFrom), pagesSince(1, watchedFrom)];
    expect(Math.min(...counts)).toBe(0);
    const sweeper = counts[0]! > 0 ? 0 : 1;
    const other = 1 - sweeper;

    await replicas[sweeper]!.kill();
    const killedAt = Date.now();
    await until(() => pagesSince(other, killedAt) > 0, "the other replica to sweep", SWEEP_LEASE_TTL_MS + 10_000);
    const tookOverAfterMs = listPagesAt[other]!.find((at) => at >= killedAt)! - killedAt;
    // Not before the dead holder's lease ran out (less the renewal it may have made just before dying).
    expect(tookOverAfterMs).toBeGreaterThanOrEqual((SWEEP_LEASE_TTL_MS * 2) / 3 - 500);

    const done = (n: number) => parseMarker(botComments(n)[0]?.body)?.state === "done";
    await until(() => THREADS.every(done), "every result", 60_000);
    for (const issueNumber of THREADS) {
      expect(botComments(issueNumber)).toHaveLength(1);
      expect(github.callsTo("POST", `/repos/${FULL_NAME}/issues/${issueNumber}/comments`)).toHaveLength(1);
      expect(parseMarker(botComments(issueNumber)[0]!.body)).toMatchObject({ state: "done", outcome: "succeeded" });
    }
    expect(service.requests.filter((r) => r.status === 429)).toEqual([]);
    // Other users' runs shared the pages but were never read one by one.
    const others = emulator.control.runs().filter((r) => r.metadata?.bridge_task_id === undefined);
    expect(others.length).toBeGreaterThan(0);
    for (const run of others) expect(service.requests.filter((r) => r.path.includes(`/agent/run/${run.id}`))).toEqual([]);
  }, 120_000);
});

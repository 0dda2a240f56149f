/**
 * Missed deliveries on three `agent-run app` processes over one Redis, behind a round-robin load
 * balancer: three comments are sent while every replica is down (the balancer answers 502, as GitHub
 * records it), then the replicas start together, each sweeping on start and then every second. One
 * sweeps at a time (the lease), and each failed attempt is claimed once across replicas: GitHub is
 * asked once per failed attempt, the redeliveries land on any replica, and each comment starts one run.
 * That is once per delivery when its redelivery succeeds, as it does on a quiet machine; on a loaded one a
 * redelivery may fail too (a replica answering 5xx, or not within GitHub's time), and that newer failed
 * attempt is asked for once more, as it should be: so the test holds the asks to the failed attempts
 * (a full run of the suite once saw four asks for three deliveries), each asked for once, rather than to three.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { WEBHOOK_SECRET, appEnv, baseSeed, dropRedisKeys, redisBackendEnv, until } from "../../helpers/app-harness.js";
import { issueCommentPayload } from "../../helpers/app-payloads.js";
import { jsonLogLines, reservePorts, startAppChild, startHttpProxy, type AppChild, type HttpProxy } from "../../helpers/app-process.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

const TIME_SCALE = 0.01;
const THREADS = [21, 22, 23];

let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;
let replicas: AppChild[] = [];
let balancer: HttpProxy;
let dataDir: string;
const redisEnv = redisBackendEnv();

afterAll(async () => {
  await balancer?.close();
  await Promise.all(replicas.map((r) => r.kill()));
  await dropRedisKeys(redisEnv.REDIS_KEY_PREFIX!);
  await service?.close();
  await emulator?.close();
  await github?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("delivery recovery on three replicas over Redis", () => {
  it("asks GitHub once per failed delivery however many replicas sweep, and each comment runs once", async () => {
    github = await startFakeGitHub({
      seed: { ...baseSeed(), issues: THREADS.map((number) => ({ number, title: `Issue ${number}`, body: "To do.", user: "maintainer" })) },
    });
    emulator = await startEmulator({ timeScale: TIME_SCALE });
    service = await startServiceRecorder(emulator.url);
    dataDir = mkdtempSync(join(tmpdir(), "arb-recovery-replicas-"));
    // Three distinct ports, still held while the balancer takes its own, so that it cannot be given one of them.
    const reserved = await reservePorts(THREADS.length);
    const { ports } = reserved;
    balancer = await startHttpProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    await reserved.release();
    github.setWebhookTarget({ url: balancer.webhookUrl, secret: WEBHOOK_SECRET });

    // Every replica is down: the balancer answers 502 to each delivery.
    const failed: string[] = [];
    for (const issueNumber of THREADS) {
      const body = `/agent fix issue ${issueNumber}`;
      github.seed({ issueComments: [{ issue_number: issueNumber, body, user: "maintainer" }] });
      const stored = github.state.issueComments.at(-1)!;
      const payload = issueCommentPayload({
        thread: { number: issueNumber, title: `Issue ${issueNumber}` },
        comment: { id: stored.id, body, login: "maintainer" },
      });
      const delivery = await github.sendWebhook("issue_comment", payload);
      expect(delivery.status, "what GitHub recorded of the first attempt").toBe("Invalid HTTP Response: 502");
      failed.push(delivery.guid);
    }

    replicas = await Promise.all(
      ports.map((port, index) =>
        startAppChild(
          appEnv({ url: service.url, token: emulator.token, orgId: emulator.orgId }, join(dataDir, String(index)), {
            ...redisEnv,
            PORT: String(port),
            GHE_HOST: new URL(github.url).host,
            GHE_PROTOCOL: "http",
            AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
            DELIVERY_RECOVERY_INTERVAL: "1s",
            LOG_LEVEL: "info",
            LOG_FORMAT: "json",
          }),
          `replica ${index + 1}`,
        ),
      ),
    );

    // Three App processes start and sweep first: on a loaded machine that alone can take half a minute.
    await until(() => emulator.control.stats().runsCreated >= THREADS.length, "a run for every comment", 60_000);
    // Several more sweeps on every replica, then nothing may have been asked twice.
    const listingsBefore = github.callsTo("GET", "/app/hook/deliveries").length;
    await until(() => github.callsTo("GET", "/app/hook/deliveries").length >= listingsBefore + 6, "more sweeps", 15_000);
    await github.webhooksSettled();

    const asked = github.callsTo("POST", "/app/hook/deliveries/{id}/attempts");
    expect(asked.every((r) => r.status === 202)).toBe(true);
    // Every attempt of each missed delivery, oldest first.
    const attempts = failed.map((guid) => github.hookDeliveries.filter((d) => d.guid === guid).sort((a, b) => a.id - b.id));
    const seen = JSON.stringify(
      attempts.map((list) => list.map((d) => `${d.redelivery ? "redelivery" : "delivery"} ${d.status_code} (${d.status})`)),
    );
    // Asked for: every failed attempt, once each, and never one that a later attempt made good.
    const byNumber = (a: number, b: number) => a - b;
    const askedIds = asked.map((r) => Number(r.path.split("/").at(-2))).sort(byNumber);
    const failedIds = attempts
      .flat()
      .filter((d) => d.status_code !== 200)
      .map((d) => d.id)
      .sort(byNumber);
    expect(askedIds, `attempts ${seen}`).toEqual(failedIds);
    for (const list of attempts) {
      // The 502 while every replica was down, any redeliveries that failed too, then the one that succeeded.
      expect(list[0], seen).toMatchObject({ redelivery: false, status_code: 502 });
      expect(
        list.filter((d) => d.status_code === 200),
        seen,
      ).toEqual([list.at(-1)]);
      expect(list.at(-1)?.redelivery, seen).toBe(true);
    }
    expect(emulator.control.stats().runsCreated).toBe(THREADS.length);
    const redeliveredLines = replicas.flatMap((r) =>
      jsonLogLines(r.stdout()).filter((line) => line.msg === "failed webhook delivery redelivered"),
    );
    expect(redeliveredLines).toHaveLength(asked.length);
    expect([...new Set(redeliveredLines.map((line) => line.delivery))].sort()).toEqual([...failed].sort());
  }, 120_000);
});

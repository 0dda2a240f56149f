/**
 * Each of the App's credentials rotated while a run is watched and a follow-up is held, by the
 * procedure docs/operations.md gives ("Rotating credentials"): the App restarted with the new value
 * against the same store, the fake GitHub and the emulator holding old and new as the real ones do
 * during a rotation. Nothing is lost: the run's result is posted once, the held follow-up is sent
 * once, no second run is created. On a private Redis with the default namespace (the one an API
 * token used to name), and for the API token on the embedded SQLite file too.
 */
import { generateKeyPairSync, createSign, createPublicKey } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startApp, type AppHandle } from "../../../src/app/index.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import {
  SCALE,
  TestOctokit,
  WEBHOOK_SECRET,
  appEnv,
  baseSeed,
  postWebhook,
  seedHumanComment,
  testPrivateKey,
  until,
  BOT_LOGIN,
} from "../../helpers/app-harness.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { redisServerAvailable, startPrivateRedis, type PrivateRedis } from "../../helpers/app-process.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

const OLD_TOKEN = "service-token-before-rotation";
const NEW_TOKEN = "service-token-after-rotation";
const ISSUE = { number: 1, title: "Flaky date test" };
const HOUR = 3_600_000;

interface World {
  github: FakeGitHub;
  emulator: RunningEmulator;
  service: ServiceRecorder;
  /** The environment of the App before any rotation, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  start(env: Record<string, string>): Promise<AppHandle>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWorld(backend: "redis" | "embedded"): Promise<World> {
  const github = await startFakeGitHub({ seed: baseSeed() });
  const emulator = await startEmulator({
    timeScale: SCALE,
    tokens: [
      { token: OLD_TOKEN, orgIds: [1], userId: 1 },
      { token: NEW_TOKEN, orgIds: [1], userId: 1 },
    ],
  });
  const service = await startServiceRecorder(emulator.url);
  const dataDir = mkdtempSync(join(tmpdir(), "arb-rotation-"));
  // A Redis of its own: the default namespace is not unique to this test, and no REDIS_KEY_PREFIX is set.
  const redis: PrivateRedis | null = backend === "redis" ? await startPrivateRedis({ durable: false }) : null;
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => service.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => redis?.close(),
  );
  emulator.control.script({ match: "slow", durationMs: 10 * HOUR });
  return {
    github,
    emulator,
    service,
    env: (extra = {}) =>
      appEnv({ url: service.url, token: OLD_TOKEN, orgId: 1 }, dataDir, { ...(redis ? { REDIS_URL: redis.url } : {}), ...extra }),
    async start(env) {
      const app = await startApp(env, { githubBaseUrl: github.url, Octokit: TestOctokit });
      cleanups.push(() => app.close());
      return app;
    },
  };
}

async function comment(w: World, app: AppHandle, body: string, secret = WEBHOOK_SECRET): Promise<number> {
  const { payload } = seedHumanComment(w.github, ISSUE, body);
  return postWebhook(app.webhookUrl, "issue_comment", payload, `delivery-${body.length}-${Date.now()}-${Math.random()}`, secret);
}

/** A slow run watched and one follow-up held behind it. */
async function watchedRunWithHeldFollowUp(w: World, app: AppHandle, secret = WEBHOOK_SECRET): Promise<number> {
  expect(await comment(w, app, "/agent a slow task", secret)).toBe(200);
  await until(async () => (await app.store.listTasks(["watching"])).some((t) => t.runId !== null), "the run to be watched");
  expect(await comment(w, app, "/agent also update the changelog", secret)).toBe(200);
  await until(async () => (await app.store.listTasks(["held"])).length === 1, "the follow-up to be held");
  return (await app.store.listTasks(["watching"]))[0]!.runId!;
}

/** The run finishes after the rotation: its result is posted once, the held follow-up resumes it once. */
async function nothingLost(w: World, app: AppHandle, runId: number): Promise<void> {
  const markers = () =>
    w.github
      .commentsOn(FULL_NAME, ISSUE.number)
      .filter((c) => c.user.login === BOT_LOGIN)
      .map((c) => parseMarker(c.body));
  await until(
    async () => {
      w.emulator.control.advanceTime(HOUR);
      const done = markers().filter((m) => m?.runId === runId && m.state === "done").length;
      return done === 2 && (await app.store.listTaskIds(["queued", "sending", "watching", "reporting", "held"])).length === 0;
    },
    "the result, then the held follow-up's resume and its result",
    30_000,
  );
  expect(w.service.creates()).toHaveLength(1);
  expect(w.service.resumes()).toEqual([{ agent_run_id: runId, prompt: expect.stringContaining("also update the changelog") }]);
  expect(markers()).toMatchObject([
    { runId, state: "done", outcome: "succeeded" },
    { runId, state: "done", outcome: "succeeded" },
  ]);
}

describe("rotating the service's API token while a run is watched", () => {
  const backends = redisServerAvailable() ? (["redis", "embedded"] as const) : (["embedded"] as const);
  it.each(backends)(
    "on %s: the restarted App with the new token finds the watched run and the held follow-up",
    async (backend) => {
      const w = await startWorld(backend);
      const before = await w.start(w.env());
      const runId = await watchedRunWithHeldFollowUp(w, before);
      await before.close();

      const after = await w.start(w.env({ AGENT_RUN_API_TOKEN: NEW_TOKEN }));
      await nothingLost(w, after, runId);
      // SQLite is a file under DATA_DIR, which no token names; Redis's namespace no longer does either.
      if (backend === "redis") expect(after.backend.keyPrefix).toBe(before.backend.keyPrefix);
    },
    60_000,
  );
});

describe.skipIf(!redisServerAvailable())("rotating the other credentials while a run is watched (Redis, several replicas' case)", () => {
  it("the webhook secret: both are accepted while GitHub switches (WEBHOOK_SECRET_PREVIOUS), then only the new one", async () => {
    const w = await startWorld("redis");
    const OLD_SECRET = WEBHOOK_SECRET;
    const NEW_SECRET = "webhook-secret-after-rotation";
    const before = await w.start(w.env());
    const runId = await watchedRunWithHeldFollowUp(w, before, OLD_SECRET);
    await before.close();

    // 1. Every replica learns the new secret and keeps the old; GitHub still signs with the old.
    const during = await w.start(w.env({ WEBHOOK_SECRET: NEW_SECRET, WEBHOOK_SECRET_PREVIOUS: OLD_SECRET }));
    expect(await comment(w, during, "/agent and bump the version", OLD_SECRET)).toBe(200);
    // Two secrets are accepted, not any: a body signed with neither is still refused.
    expect(await comment(w, during, "/agent forged with a guess", "a-secret-nobody-set")).toBe(400);
    // 2. GitHub's settings page gets the new secret.
    expect(await comment(w, during, "/agent and tag it", NEW_SECRET)).toBe(200);
    await until(async () => (await during.store.listTasks(["held"])).length === 3, "the follow-ups to be held");
    await during.close();

    // 3. The old secret is dropped: it no longer signs anything the App takes.
    const after = await w.start(w.env({ WEBHOOK_SECRET: NEW_SECRET }));
    expect(await comment(w, after, "/agent forged with the old secret", OLD_SECRET)).toBe(400);
    await until(
      async () => {
        w.emulator.control.advanceTime(HOUR);
        return (await after.store.listTaskIds(["queued", "sending", "watching", "reporting", "held"])).length === 0;
      },
      "the run and its follow-ups to finish",
      30_000,
    );
    expect(w.service.creates()).toHaveLength(1);
    const resumes = w.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]).toMatchObject({ agent_run_id: runId });
    for (const text of ["also update the changelog", "and bump the version", "and tag it"]) expect(resumes[0]!.prompt).toContain(text);
    expect(resumes[0]!.prompt).not.toContain("forged");
  }, 60_000);

  it("the private key: GitHub holds both keys while the App restarts with the new one, then the old is deleted", async () => {
    const w = await startWorld("redis");
    const oldKey = testPrivateKey();
    const newKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const publicOf = (pem: string) => createPublicKey(pem).export({ type: "spki", format: "pem" }).toString();
    w.github.setAppPublicKeys([publicOf(oldKey)]);
    const before = await w.start(w.env());
    const runId = await watchedRunWithHeldFollowUp(w, before);

    w.github.setAppPublicKeys([publicOf(oldKey), publicOf(newKey)]);
    await before.close();
    const after = await w.start(w.env({ PRIVATE_KEY: newKey }));
    w.github.setAppPublicKeys([publicOf(newKey)]);

    // The fake now refuses the old key, as GitHub does once it is deleted.
    const refused = await fetch(`${w.github.url}/app`, { headers: { authorization: `Bearer ${appJwt(oldKey)}` } });
    expect(refused.status).toBe(401);
    await nothingLost(w, after, runId);
  }, 60_000);

  it("the status and metrics tokens: the new ones open the views, the old ones no longer do, and the run goes on", async () => {
    const w = await startWorld("redis");
    const [oldStatus, newStatus, oldMetrics, newMetrics] = ["a", "b", "c", "d"].map((c) => `${c.repeat(20)}0123456789ABCDEF`);
    const before = await w.start(w.env({ STATUS_TOKEN: oldStatus!, METRICS_TOKEN: oldMetrics! }));
    const runId = await watchedRunWithHeldFollowUp(w, before);
    await before.close();

    const after = await w.start(w.env({ STATUS_TOKEN: newStatus!, METRICS_TOKEN: newMetrics! }));
    const get = async (path: string, token: string) =>
      (await fetch(`${after.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await get("/status", newStatus!)).toBe(200);
    expect(await get("/metrics", newMetrics!)).toBe(200);
    expect(await get("/status", oldStatus!)).toBe(401);
    expect(await get("/metrics", oldMetrics!)).toBe(401);
    await nothingLost(w, after, runId);
  }, 60_000);
});

/** An App JWT signed with `pem`, as Probot makes one. */
function appJwt(pem: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part({ iat: now - 30, exp: now + 300, iss: 1001 })}`;
  return `${unsigned}.${createSign("RSA-SHA256").update(unsigned).sign(pem).toString("base64url")}`;
}

/**
 * The GitHub App under test, wired for real: a fake GitHub on loopback (the API), the emulator
 * behind a recording proxy (the service), and `startApp` with a real Probot whose webhook
 * middleware receives signed deliveries over HTTP. One harness per test, closed afterwards.
 */
import { createHmac, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProbotOctokit } from "probot";
import { startApp, type AppHandle, type StartAppOptions } from "../../src/app/main.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed, type FakeIssueComment } from "./fake-github/index.js";
import { FULL_NAME, OWNER, REPO, REPO_ID, checkSuiteCompletedPayload, issueCommentPayload, type ThreadSpec } from "./app-payloads.js";
import { startServiceRecorder, type ServiceRecorder, type ServiceRecorderOptions } from "./service-recorder.js";
import { TEST_REDIS_URL } from "./redis.js";
import { freePort } from "./app-process.js";

/** Emulated time runs 500× faster: the default 20 s run lasts 40 ms; the engine and budgets scale alike. */
export const SCALE = 0.002;
export const WEBHOOK_SECRET = "test-webhook-secret";
export const APP_SLUG = "agent-run-bridge";
export const BOT_LOGIN = `${APP_SLUG}[bot]`;
export const PR_HEAD_SHA = "a".repeat(40);

let cachedKey: string | undefined;
/** One RSA key per test worker: generating one takes a while. */
export function testPrivateKey(): string {
  cachedKey ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return cachedKey;
}

// Only the function form turns Probot's retries and throttling off (facts.md).
export const TestOctokit = ProbotOctokit.defaults((options: object) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
})) as typeof ProbotOctokit;

/** The seed every app test starts from: an issue, a pull request, a maintainer and a reader. */
export function baseSeed(): FakeGitHubSeed {
  return {
    repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
    issues: [{ number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays.", user: "maintainer" }],
    pulls: [
      {
        number: 2,
        title: "Fix the flaky date test",
        body: "Pins the clock.",
        head: { ref: "agent/fix-dates", sha: PR_HEAD_SHA },
        user: BOT_LOGIN,
      },
    ],
    collaborators: [
      { login: "maintainer", permission: "write" },
      { login: "reader", permission: "read" },
    ],
  };
}

/** Check suite 700 completed with a failure at the head of baseSeed's pull request #2 (agent/fix-dates). */
export function failedSuiteOnPullPayload() {
  return checkSuiteCompletedPayload({
    id: 700,
    conclusion: "failure",
    headSha: PR_HEAD_SHA,
    headBranch: "agent/fix-dates",
    pullRequests: [{ number: 2 }],
  });
}

/** A person's comment stored in the fake GitHub, and the issue_comment payload GitHub would send for it. */
export function seedHumanComment(
  github: FakeGitHub,
  thread: ThreadSpec,
  body: string,
  login = "maintainer",
): { id: number; payload: object } {
  github.seed({ issueComments: [{ issue_number: thread.number, body, user: login }] });
  const stored = github.state.issueComments.at(-1)!;
  const comment = { id: stored.id, body, login, createdAt: stored.created_at, updatedAt: stored.updated_at };
  return { id: stored.id, payload: issueCommentPayload({ thread, comment }) };
}

export interface HarnessOptions {
  seed?: FakeGitHubSeed;
  /** Contents of `.github/agent-run.yml`, if any. */
  config?: string;
  emulator?: EmulatorOptions;
  /** How the recording proxy between the App and the emulator behaves (e.g. `loseAnswer`). */
  serviceProxy?: ServiceRecorderOptions;
  env?: Record<string, string>;
  /** Which backend the App runs on: the embedded SQLite (default) or the test Redis (helpers/redis.ts) under a key prefix of its own. */
  backend?: AppBackendKind;
  /** GitHub write pacing's own time scale (default: the service's). */
  githubPacingTimeScale?: number;
  /**
   * The fake lays GitHub out as an Enterprise Server does, and the App finds it as an operator would
   * point it there: GHE_HOST and GHE_PROTOCOL, no base URL of the test's own, attachments fetched as is.
   */
  enterprise?: boolean;
  /** Shorter bounds on slow requests than the App's own. */
  httpTimeouts?: StartAppOptions["httpTimeouts"];
  /**
   * Runs before the App starts, with the fake GitHub already delivering to the App's future
   * webhook URL (nothing listens there yet, so every delivery fails as it does while an App is down).
   */
  whileAppIsDown?: (world: { github: FakeGitHub; emulator: RunningEmulator }) => Promise<void>;
}

export type AppBackendKind = "embedded" | "redis";
/** Both backends, for behaviour suites that must hold on each. */
export const APP_BACKENDS: readonly AppBackendKind[] = ["embedded", "redis"];
export { TEST_REDIS_URL };

/** The environment that puts an App on Redis under its own namespace; the namespace is deleted by `dropRedisKeys`. */
export function redisBackendEnv(): Record<string, string> {
  return { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `arb-test:${randomUUID()}` };
}

export async function dropRedisKeys(prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export interface AppHarness {
  app: AppHandle;
  github: FakeGitHub;
  emulator: RunningEmulator;
  service: ServiceRecorder;
  dataDir: string;
  /** Sends a signed delivery to the App's webhook endpoint; resolves with the HTTP status. */
  deliver(name: string, payload: object, deliveryId?: string): Promise<{ status: number; deliveryId: string }>;
  /** A person writes a comment: it is added to the fake (it exists on GitHub) and its webhook payload is returned. */
  humanComment(thread: ThreadSpec, body: string, login?: string): { id: number; payload: object };
  /** A person's comment written and delivered, the delivery answered 200; resolves with the comment's id. */
  trigger(thread: ThreadSpec, body: string, login?: string): Promise<number>;
  /** Comments in the thread written by the App, oldest first. */
  botComments(issueNumber: number): FakeIssueComment[];
  /** Resolves when the engine has nothing queued, sent, watched or being reported. */
  idle(): Promise<void>;
  /**
   * Stops the App and starts it again on the same GitHub, service, data directory and Redis namespace, with `env`
   * on top of the first start's; `wipeStore` first empties its store as a lost volume or a Redis restarted without
   * persistence would (the SQLite file deleted, or every key under the test's own Redis prefix deleted).
   */
  restart(options?: { env?: Record<string, string>; wipeStore?: boolean }): Promise<AppHandle>;
  /** Another App on the same settings (a second replica: Redis only); GitHub keeps delivering to `app`. The caller closes it. */
  startReplica(env?: Record<string, string>): Promise<AppHandle>;
  close(): Promise<void>;
}

/** Signs like GitHub: HMAC-SHA256 of the exact body with the webhook secret. */
export function signature(body: string, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function postWebhook(
  url: string,
  name: string,
  payload: object,
  deliveryId: string,
  secret = WEBHOOK_SECRET,
): Promise<number> {
  return postDelivery(url, name, JSON.stringify(payload), deliveryId, secret);
}

/** POSTs `body` exactly as given (it need not be JSON, or an object) as GitHub would, signed; resolves with the status. */
export async function postDelivery(url: string, name: string, body: string, deliveryId: string, secret = WEBHOOK_SECRET): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/agent-run-bridge-tests",
      "x-github-event": name,
      "x-github-delivery": deliveryId,
      "x-github-hook-installation-target-type": "integration",
      "x-hub-signature-256": signature(body, secret),
    },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The environment `startApp` reads, pointing at the harness's service; GitHub comes from an option or GHE_HOST. */
export function appEnv(
  service: { url: string; token: string; orgId: number },
  dataDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    APP_ID: "1001",
    PRIVATE_KEY: testPrivateKey(),
    WEBHOOK_SECRET,
    PORT: "0",
    HOST: "127.0.0.1",
    AGENT_RUN_API_URL: service.url,
    AGENT_RUN_API_TOKEN: service.token,
    AGENT_RUN_ORG_ID: String(service.orgId),
    DATA_DIR: dataDir,
    AGENT_RUN_TIME_SCALE: String(SCALE),
    LOG_LEVEL: process.env.APP_TEST_LOG_LEVEL ?? "fatal",
    // Off unless a test turns it on: a sweep on start is a GitHub call in the background, and many tests assert exact request logs.
    DELIVERY_RECOVERY_INTERVAL: "0",
    // Off too, for the same reason: its sweep on start lists installations, repositories and comments.
    RUN_RECOVERY_INTERVAL: "0",
    ...extra,
  };
}

/** Sends github.com attachment downloads to the fake, which serves them like github.com does. */
function attachmentFetch(github: FakeGitHub): typeof fetch {
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url;
    return fetch(url.replace(/^https:\/\/github\.com\/user-attachments\//, `${github.url}/user-attachments/`), init);
  };
}

export async function startAppHarness(options: HarnessOptions = {}): Promise<AppHarness> {
  const seed = options.seed ?? baseSeed();
  if (options.config !== undefined) seed.files = [...(seed.files ?? []), { path: ".github/agent-run.yml", content: options.config }];
  const enterprise = options.enterprise ?? false;
  const github = await startFakeGitHub({ seed, enterprise });
  const emulator = await startEmulator({ timeScale: SCALE, ...options.emulator });
  const service = await startServiceRecorder(emulator.url, options.serviceProxy);
  const dataDir = mkdtempSync(join(tmpdir(), "arb-app-"));
  const backend = options.backend ?? (process.env.APP_TEST_BACKEND as AppBackendKind | undefined) ?? "embedded";
  const backendEnv: Record<string, string> = backend === "redis" ? redisBackendEnv() : {};
  const secret = options.env?.WEBHOOK_SECRET ?? WEBHOOK_SECRET;
  const portEnv: Record<string, string> = {};
  if (options.whileAppIsDown) {
    const port = await freePort();
    portEnv.PORT = String(port);
    github.setWebhookTarget({ url: `http://127.0.0.1:${port}/api/github/webhooks`, secret });
    await options.whileAppIsDown({ github, emulator });
  }
  const gheEnv: Record<string, string> = enterprise ? { GHE_HOST: new URL(github.webUrl).host, GHE_PROTOCOL: "http" } : {};
  const env = appEnv({ url: service.url, token: emulator.token, orgId: emulator.orgId }, dataDir, {
    ...backendEnv,
    ...gheEnv,
    ...portEnv,
    ...options.env,
  });
  const startOptions: StartAppOptions = {
    ...(enterprise ? {} : { githubBaseUrl: github.url, imageFetch: attachmentFetch(github) }),
    Octokit: TestOctokit,
    ...(options.githubPacingTimeScale !== undefined ? { githubPacingTimeScale: options.githubPacingTimeScale } : {}),
    ...(options.httpTimeouts ? { httpTimeouts: options.httpTimeouts } : {}),
  };
  const start = async (extra: Record<string, string>) => {
    const started = await startApp({ ...env, ...extra }, startOptions);
    // GitHub delivers to the App from now on (`github.sendWebhook`, redeliveries).
    github.setWebhookTarget({ url: started.webhookUrl, secret });
    return started;
  };
  const harness: AppHarness = {
    app: await start({}),
    github,
    emulator,
    service,
    dataDir,
    async deliver(name, payload, deliveryId = randomUUID()) {
      return { status: await postWebhook(harness.app.webhookUrl, name, payload, deliveryId), deliveryId };
    },
    humanComment: (thread, body, login) => seedHumanComment(github, thread, body, login),
    async trigger(thread, body, login) {
      const comment = harness.humanComment(thread, body, login);
      const { status } = await harness.deliver("issue_comment", comment.payload);
      if (status !== 200) throw new Error(`the delivery of comment ${comment.id} was answered ${status}, not 200`);
      return comment.id;
    },
    botComments: (issueNumber) => github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === BOT_LOGIN),
    idle: () => harness.app.idle(),
    async restart(restart = {}) {
      await harness.app.close();
      if (restart.wipeStore) {
        if (backendEnv.REDIS_KEY_PREFIX) await dropRedisKeys(backendEnv.REDIS_KEY_PREFIX);
        else for (const file of ["bridge.sqlite", "bridge.sqlite-wal", "bridge.sqlite-shm"]) rmSync(join(dataDir, file), { force: true });
      }
      harness.app = await start(restart.env ?? {});
      return harness.app;
    },
    async startReplica(extra = {}) {
      if (!backendEnv.REDIS_KEY_PREFIX) throw new Error("a second replica shares the store through Redis: start the harness on Redis");
      return startApp({ ...env, PORT: "0", ...extra }, startOptions);
    },
    async close() {
      await harness.app.close();
      if (backendEnv.REDIS_KEY_PREFIX) await dropRedisKeys(backendEnv.REDIS_KEY_PREFIX);
      await service.close();
      await emulator.close();
      await github.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * Waits until `condition` holds (checked every 10 ms), failing with what was awaited after `timeoutMs`.
 * The default leaves room for a child process's start on a loaded two-core machine.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

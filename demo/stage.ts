/**
 * The demo's stage: the App and everything around it. Embedded (the default): one App in this
 * process on SQLite, through the test harness. Replicas (`--replicas N`): a `redis-server` of the
 * demo's own (free port, temporary directory), N `agent-run app` processes on it behind a
 * round-robin load balancer, the emulator and the fake GitHub in this process. Who handled what is
 * read from the replicas' own JSON logs.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBackend } from "../src/app/backend.js";
import { parseAppEnv } from "../src/app/env.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "../test/helpers/fake-github/index.js";
import { BOT_LOGIN, appEnv, startAppHarness, WEBHOOK_SECRET, type AppHarness } from "../test/helpers/app-harness.js";
import { FULL_NAME, issueCommentPayload } from "../test/helpers/app-payloads.js";
import {
  freePort,
  jsonLogLines,
  redisServerAvailable,
  startAppChild,
  startHttpProxy,
  startPrivateRedis,
  type AppChild,
} from "../test/helpers/app-process.js";
import { startServiceRecorder } from "../test/helpers/service-recorder.js";

/** What the story needs: where people's webhooks go, the two fakes, and when the App has finished its work. */
export type DemoStage = Pick<AppHarness, "github" | "emulator" | "service" | "humanComment" | "botComments"> & {
  webhookUrl: string;
  /** Resolves once nothing is queued, held, sent, watched or reported and no job waits, on any replica. */
  idle(): Promise<void>;
  /** CI fix attempts recorded for a pull request (in the App's store, shared by every replica). */
  checkAttempts(owner: string, repo: string, prNumber: number): Promise<{ count: number }>;
  /** Present with `--replicas`. */
  replicas: ReplicaSet | null;
  close(): Promise<void>;
};

export interface StageOptions {
  seed: FakeGitHubSeed;
  config: string;
  emulator: EmulatorOptions;
  env: Record<string, string>;
  /**
   * Runs before any App process starts, with GitHub already delivering to where the App will
   * listen (the load balancer with replicas): what is sent now fails, as it does while an App is down.
   */
  whileAppIsDown?: (world: { github: FakeGitHub; emulator: RunningEmulator }) => Promise<void>;
}

/** Outside the demo's control: no `redis-server` to start. Exit code 2, with how to get one. */
export class ReplicasUnavailableError extends Error {
  override name = "ReplicasUnavailableError";
}

const REDIS_INSTALL_HINT =
  "--replicas needs redis-server on the PATH (the demo starts its own on a free port and removes it afterwards): " +
  "install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis), " +
  "or run `npm run demo` without --replicas for the single embedded App.";

/** What one replica did, from its own logs, and what the load balancer sent it. */
export interface ReplicaActivity {
  label: string;
  pid: number;
  /** Webhooks the load balancer sent to it. */
  received: number;
  /** Deliveries its workers turned into a task (a run to start or a follow-up to hold). */
  accepted: number;
  /** Creates and resumes it sent to the service (a follow-up sent to a working agent is a resume too). */
  started: number;
  /** Results it wrote into the thread. */
  results: number;
}

export interface ReplicaSet {
  count: number;
  /** `redis://127.0.0.1:port` (no password: the demo's Redis has none). */
  redisUrl: string;
  loadBalancerUrl: string;
  /** Which replica the load balancer gave a delivery to. */
  receiverOf(deliveryId: string): string | undefined;
  activity(): ReplicaActivity[];
}

export async function startEmbeddedStage(options: StageOptions): Promise<DemoStage> {
  const harness = await startAppHarness(options);
  return {
    github: harness.github,
    emulator: harness.emulator,
    service: harness.service,
    humanComment: harness.humanComment,
    botComments: harness.botComments,
    webhookUrl: harness.app.webhookUrl,
    idle: () => harness.idle(),
    checkAttempts: (owner, repo, prNumber) => harness.app.store.checkAttempts(owner, repo, prNumber),
    replicas: null,
    close: () => harness.close(),
  };
}

/** Closes everything started, newest first, going on past any piece that fails to close. */
async function closeAll(closers: Array<() => Promise<unknown>>): Promise<void> {
  for (const close of closers.reverse()) await close().catch(() => undefined);
}

/** Throws ReplicasUnavailableError, saying how to get one, when there is no `redis-server` to start. */
export function requireRedisServer(): void {
  if (!redisServerAvailable()) throw new ReplicasUnavailableError(REDIS_INSTALL_HINT);
}

export async function startReplicatedStage(options: StageOptions & { replicas: number }): Promise<DemoStage> {
  requireRedisServer();
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const redis = await startPrivateRedis();
    closers.push(() => redis.close());
    const github = await startFakeGitHub({
      seed: { ...options.seed, files: [...(options.seed.files ?? []), { path: ".github/agent-run.yml", content: options.config }] },
    });
    closers.push(() => github.close());
    const emulator = await startEmulator(options.emulator);
    closers.push(() => emulator.close());
    const service = await startServiceRecorder(emulator.url);
    closers.push(() => service.close());
    const dataDir = mkdtempSync(join(tmpdir(), "arb-demo-replicas-"));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));

    const env = appEnv({ url: service.url, token: emulator.token, orgId: emulator.orgId }, dataDir, {
      ...options.env,
      GHE_HOST: new URL(github.url).host,
      GHE_PROTOCOL: "http",
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `agent-run-bridge-demo:${randomUUID()}`,
      // Who did what is read from the replicas' logs.
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    });
    const labels = Array.from({ length: options.replicas }, (_, i) => `replica ${i + 1}`);
    // The load balancer first, in front of the ports the replicas will take: until they listen it answers 502.
    const ports = await Promise.all(labels.map(() => freePort()));
    const balancer = await startHttpProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    closers.push(() => balancer.close());
    github.setWebhookTarget({ url: balancer.webhookUrl, secret: env.WEBHOOK_SECRET ?? WEBHOOK_SECRET });
    await options.whileAppIsDown?.({ github, emulator });
    // What the balancer answered 502 before any replica listened was received by none of them.
    const forwardedWhileDown = [...balancer.forwarded];
    const children: AppChild[] = [];
    closers.push(async () => Promise.all(children.map((child) => child.stop())));
    await Promise.all(
      labels.map(async (label, index) => {
        children.push(await startAppChild({ ...env, PORT: String(ports[index]) }, label));
      }),
    );
    children.sort((a, b) => labels.indexOf(a.label) - labels.indexOf(b.label));
    // The demo reads the shared store and queue as an operator would: to know when the replicas are done.
    const backend = await openBackend(parseAppEnv(env));
    closers.push(async () => {
      await backend.queue.stop();
      await backend.close();
    });

    const count = (child: AppChild, messages: readonly string[]) =>
      jsonLogLines(child.stdout()).filter((line) => messages.includes(line.msg ?? "")).length;
    const replicas: ReplicaSet = {
      count: options.replicas,
      redisUrl: redis.url,
      loadBalancerUrl: balancer.url,
      receiverOf: (deliveryId) => {
        const index = balancer.targetOf.get(deliveryId);
        return index === undefined ? undefined : labels[index];
      },
      activity: () =>
        children.map((child, index) => ({
          label: child.label,
          pid: child.pid,
          received: (balancer.forwarded[index] ?? 0) - (forwardedWhileDown[index] ?? 0),
          accepted: count(child, ["run accepted", "follow-up held until the run finishes", "follow-up on its way to the working agent"]),
          started: count(child, ["agent run started", "a follow-up reached the working agent"]),
          results: count(child, ["result posted"]),
        })),
    };

    return {
      github,
      emulator,
      service,
      humanComment(thread, body, login = "maintainer") {
        github.seed({ issueComments: [{ issue_number: thread.number, body, user: login }] });
        const stored = github.state.issueComments.at(-1)!;
        return { id: stored.id, payload: issueCommentPayload({ thread, comment: { id: stored.id, body, login } }) };
      },
      botComments: (issueNumber) => github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === BOT_LOGIN),
      webhookUrl: balancer.webhookUrl,
      // The same reckoning as the App's own idle(), on the store and queue every replica shares.
      async idle() {
        for (;;) {
          const [tasks, jobs] = await Promise.all([backend.store.countByState(), backend.queue.counts()]);
          const open = (tasks.queued ?? 0) + (tasks.sending ?? 0) + (tasks.watching ?? 0) + (tasks.reporting ?? 0);
          const waiting = jobs.delivery.waiting + jobs.delivery.delayed + jobs.delivery.active + jobs.task.waiting + jobs.task.active;
          if (open + waiting === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      },
      checkAttempts: (owner, repo, prNumber) => backend.store.checkAttempts(owner, repo, prNumber),
      replicas,
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

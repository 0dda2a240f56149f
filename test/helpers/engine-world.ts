/**
 * The world the engine integration tests run in: the emulator behind a recording proxy, the fake
 * GitHub seeded with one repository, the API token's rate budget (in Redis on the Redis backend,
 * under a key prefix of the world's own), and an engine harness whose client and thread writer
 * speak real HTTP to both. Each test file adds its own views on top (sweeps, write events…).
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { RunEngineOptions } from "../../src/app/engine.js";
import type { RetryPolicy } from "../../src/app/queue/types.js";
import type { NewTask, Task } from "../../src/app/store/types.js";
import { createOctokitThreadWriter, createPacedThreadWriter, type ThreadWriter } from "../../src/app/thread-writer.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../src/emulator/index.js";
import { createWritePacer, type WriteEvent, type WritePacer } from "../../src/github/pacing.js";
import { createInProcessBudget, createRedisBudget, type RateBudget } from "../../src/service/budget.js";
import { AgentRunClient, SOURCE } from "../../src/service/index.js";
import { BOT_LOGIN, SCALE, TEST_REDIS_URL, TestOctokit, dropRedisKeys, type AppBackendKind } from "./app-harness.js";
import { startEngineHarness, type EngineHarness } from "./engine-harness.js";
import { startFakeGitHub, type FakeGitHub, type FakeGitHubSeed } from "./fake-github/index.js";
import { startServiceRecorder, type ServiceRecorder, type ServiceRecorderOptions } from "./service-recorder.js";

export const OWNER = "octo-org";
export const REPO = "widgets";
export const FULL_NAME = `${OWNER}/${REPO}`;

export type TaskDraft = Omit<NewTask, "deadlineAt">;

export interface EngineWorldOptions {
  /** The emulator's options; its time scale is the world's. */
  emulator: Omit<EmulatorOptions, "timeScale">;
  /** What the fake GitHub holds besides the repository `OWNER/REPO`. */
  seed: Omit<FakeGitHubSeed, "repositories">;
  /** The one time scale of the emulator, the client and the engine (default SCALE). */
  scale?: number;
  /** The budget's windows, when slower than the emulator's (default: `scale`). */
  budgetTimeScale?: number;
  /** GitHub writes go through a write pacer per process at this time scale (shared through Redis on Redis); unpaced without. */
  pacingTimeScale?: number;
  /** The recording proxy's options (a request held back). */
  recorder?: ServiceRecorderOptions;
  engine?: Partial<RunEngineOptions>;
  /** The queue's retry policy (default: the engine harness's). */
  retry?: Partial<RetryPolicy>;
  /** What a drafted task holds unless told otherwise: its installation, its prompt, the comment it answers (default: installation 1, "task N", none). */
  draft?: { installationId: number; prompt(issueNumber: number): string; reaction?(issueNumber: number): Task["reaction"] };
  /** How long `until` waits unless told (default 10 s). */
  untilTimeoutMs?: number;
}

export interface EngineWorld {
  backend: AppBackendKind;
  emulator: RunningEmulator;
  service: ServiceRecorder;
  github: FakeGitHub;
  /** The first engine; `startProcess()` adds more over the same store and queue prefix. */
  harness: EngineHarness;
  /** The first engine's client. */
  client: AgentRunClient;
  /** The first engine's write pacer (with `pacingTimeScale`), and every write event it reported. */
  pacer: WritePacer | undefined;
  writeEvents: WriteEvent[];
  /** The API token's rate budget, shared by every process of the world. */
  budget: RateBudget;
  /**
   * Another process over the same store (a restart, or a second replica on Redis): an engine with its
   * own queue object, pacer and client (which counts its service requests); stopped by `close()`.
   */
  startProcess(): Promise<{ harness: EngineHarness; serviceRequests: () => number }>;
  draft(issueNumber: number, overrides?: Partial<TaskDraft>): TaskDraft;
  getTask(id: number): Promise<Task>;
  /** A comment written by the App outside any engine (what a process that then died had posted). */
  postAsBot(thread: Task["thread"], body: string): Promise<number>;
  botComments(issueNumber?: number): Array<{ id: number; body: string }>;
  reactionsOn(commentId: number): string[];
  until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const openWorlds = new Set<EngineWorld>();

/** Closes every world started and not closed yet: each engine test file's `afterEach`. */
export async function closeEngineWorlds(): Promise<void> {
  for (const world of [...openWorlds]) await world.close();
}

export async function startEngineWorld(backend: AppBackendKind, options: EngineWorldOptions): Promise<EngineWorld> {
  const scale = options.scale ?? SCALE;
  const emulator = await startEmulator({ timeScale: scale, ...options.emulator });
  const service = await startServiceRecorder(emulator.url, options.recorder);
  const github = await startFakeGitHub({ seed: { repositories: [{ owner: OWNER, name: REPO }], ...options.seed } });
  // Everything the world keeps in Redis besides the harness's own keys: the service budget and the write pacer.
  const prefix = `arb-test:${randomUUID()}`;
  const redis = backend === "redis" ? new Redis(TEST_REDIS_URL) : null;
  // One budget per API token, shared by every replica (in-process when embedded: there is one process).
  const budgetScale = options.budgetTimeScale ?? scale;
  const budget = redis
    ? createRedisBudget(redis, { timeScale: budgetScale, keyPrefix: `${prefix}:budget` })
    : createInProcessBudget({ timeScale: budgetScale });
  const octokit = new TestOctokit({ auth: { token: "ghs_installation-token" }, baseUrl: github.url });
  const stoppers: Array<() => Promise<void>> = [];
  const drafted = options.draft ?? { installationId: 1, prompt: (issueNumber: number) => `task ${issueNumber}` };

  const processParts = (onWrite?: (event: WriteEvent) => void) => {
    let serviceRequests = 0;
    const countingFetch: typeof fetch = (input, init) => {
      serviceRequests += 1;
      return fetch(input, init);
    };
    const client = new AgentRunClient({
      baseUrl: service.url,
      token: emulator.token,
      orgId: emulator.orgId,
      timeScale: scale,
      budget,
      backoff: { minMs: 5, maxMs: 50 },
      fetch: countingFetch,
    });
    const octokitWriter = createOctokitThreadWriter(async () => octokit, { botLogins: [BOT_LOGIN] });
    if (options.pacingTimeScale === undefined)
      return { client, writer: octokitWriter, pacer: undefined, serviceRequests: () => serviceRequests };
    const pacer = createWritePacer({
      timeScale: options.pacingTimeScale,
      ...(redis ? { redis, keyPrefix: `${prefix}:github-writes` } : {}),
      ...(onWrite ? { onWrite } : {}),
    });
    stoppers.push(() => pacer.stop());
    const writer: ThreadWriter = createPacedThreadWriter(octokitWriter, pacer);
    return { client, writer, pacer, serviceRequests: () => serviceRequests };
  };

  const writeEvents: WriteEvent[] = [];
  const first = processParts((event) => writeEvents.push(event));
  const harness = await startEngineHarness(
    backend,
    { timeScale: scale, ...options.engine, client: first.client, writer: first.writer },
    { retry: options.retry },
  );

  const world: EngineWorld = {
    backend,
    emulator,
    service,
    github,
    harness,
    client: first.client,
    pacer: first.pacer,
    writeEvents,
    budget,
    async startProcess() {
      const parts = processParts();
      const next = await harness.restart({ client: parts.client, writer: parts.writer });
      stoppers.push(() => next.stop());
      return { harness: next, serviceRequests: parts.serviceRequests };
    },
    draft: (issueNumber, overrides = {}) => ({
      kind: "create",
      state: "queued",
      sourceType: SOURCE.gitHost,
      thread: { installationId: drafted.installationId, owner: OWNER, repo: REPO, issueNumber, triggerPhrase: "/agent" },
      runId: null,
      orgId: emulator.orgId,
      trackingCommentId: null,
      reaction: drafted.reaction?.(issueNumber) ?? null,
      request: { prompt: drafted.prompt(issueNumber), metadata: { source_type: SOURCE.gitHost } },
      requestedBy: "maintainer",
      ...overrides,
    }),
    async getTask(id) {
      const found = await harness.store.getTask(id);
      if (!found) throw new Error(`task ${id} is not in the store`);
      return found;
    },
    postAsBot: (thread, body) =>
      createOctokitThreadWriter(async () => octokit, { botLogins: [BOT_LOGIN] }).createComment(thread, body, { priority: "acknowledge" }),
    botComments: (issueNumber = 1) => github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === BOT_LOGIN),
    reactionsOn: (commentId) =>
      github
        .callsTo("POST", `/repos/${FULL_NAME}/issues/comments/${commentId}/reactions`)
        .filter((r) => !r.fault)
        .map((r) => (r.body as { content: string }).content),
    async until(condition, what, timeoutMs = options.untilTimeoutMs ?? 10_000) {
      const start = Date.now();
      while (!(await condition())) {
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      openWorlds.delete(world);
      // Engines first (they wait for their steps), then the pacers their steps wrote through.
      await harness.stop();
      for (const stop of stoppers.reverse()) await stop();
      await harness.close();
      if (redis) {
        await dropRedisKeys(prefix);
        redis.disconnect();
      }
      await service.close();
      await emulator.close();
      await github.close();
    },
  };
  openWorlds.add(world);
  return world;
}

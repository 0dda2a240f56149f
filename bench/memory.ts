/**
 * Memory: resident memory (RSS) of the App process watching 1,000 runs, against the same App idle
 * with nothing to watch. The App runs as its own `node` process (bundled, no TypeScript loader),
 * configured through the environment only; the emulator and the fake GitHub live in this process.
 * The 1,000 runs are started at once by other tokens with long durations; their tasks are stored in
 * the App's data directory as "watching" before it starts, which is exactly what it finds after a
 * restart, so it recovers and watches them all.
 *
 * `npx tsx bench/memory.ts`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { connectBenchRedis, deleteKeys } from "./lib/redis.js";
import { RedisBridgeStore } from "../src/app/store/redis.js";
import { SqliteBridgeStore } from "../src/app/store/sqlite.js";
import type { BridgeStore } from "../src/app/store/types.js";
import { DEFAULT_INSTALLATION_ID, startFakeGitHub, type FakeGitHub } from "../test/helpers/fake-github/index.js";
import { LIST_PAGE_MAX, SOURCE } from "../src/service/index.js";
import { OWNER, REPO, REPO_ID, appAvailable, appEnv, buildAppProcess, startAppProcess, type AppProcess } from "./lib/app.js";
import type { MemoryReading, MemorySample } from "./lib/app-process.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult } from "./lib/report.js";
import { BENCH_ORG_ID, WATCHER_TOKEN, createRunsAtOnce, startBenchEmulator, type BenchEmulator } from "./lib/service.js";
import { median, sleep } from "./lib/stats.js";

export interface MemoryBenchOptions {
  watches?: number;
  /** One factor for the emulator clock, the App's budget and its poll intervals. */
  scale?: number;
  /** Reads of every run by the App before the reading is taken (1 = the first round only). */
  readsPerRun?: number;
  /** The App process to run; default: bench/lib/app-process.ts bundled from this checkout. */
  bundle?: string;
  /** Flags for every App process's `node` (default: APP_NODE_ARGS, as README.md sets them; [] to compare without). */
  nodeArgs?: string[];
  /** Replicas sharing the watches over Redis (default 3), and where Redis is (default REDIS_URL or 127.0.0.1:6379). */
  replicas?: number;
  redisUrl?: string;
}

const NAME = "memory";
const TARGET_BYTES = 120e6;
const BOT = "agent-run-bridge[bot]";
const IDLE_WAIT_MS = 5_000;
const SAMPLES = 9;
const SAMPLE_EVERY_MS = 250;
/**
 * What README.md gives every App process (NODE_OPTIONS; `npm start` passes them):
 * - V8's young generation capped at 2 × 4 MB. Without it V8 grew it to 32 MB under this benchmark's
 *   polling rate: on 2026-11-26 the embedded App peaked at 140–149 MB in three runs, the busiest Redis
 *   replica read 132–133 MB.
 * - its old generation capped at 512 MB, which also lowers the factor V8 grows it by after a full
 *   collection (up to 4× what the collection left when the cap is 2 GB or more; `--trace-gc` showed
 *   the next full collection at 4.2× without the cap, at 1.5× with it). Without
 *   it the replica that starts first and sweeps let its heap reach 58 MB over a 21 MB live heap while
 *   1,000 recovered watches took their first turns, and read 122–124 MB (two runs, 2026-11-26).
 */
const APP_NODE_ARGS = ["--max-semi-space-size=4", "--max-old-space-size=512"];

/** Decimal megabytes, as the target is stated (120 MB = 120,000,000 bytes). */
const mb = (bytes: number) => `${formatNumber(bytes / 1e6, 1)} MB`;

/** RSS as anonymous memory (V8's heap, malloc, stacks) and file pages (the node binary, mapped files). */
const split = (sample: MemorySample) =>
  sample.anonRss === null || sample.fileRss === null
    ? "not reported by this OS"
    : `${mb(sample.anonRss)} anonymous + ${mb(sample.fileRss)} file-backed (V8 heap ${mb(sample.heapTotal)}: young ${mb(sample.newSpace)}, old ${mb(sample.oldSpace)}; external ${mb(sample.external)})`;

interface Phase {
  /** RSS read every SAMPLE_EVERY_MS once the App reached the measuring point: one reading is a moment in the GC's cycle. */
  rssSamples: number[];
  /** The last reading, with what is live after a full collection. */
  reading: MemoryReading;
  /** Real seconds from the App's start to the reading. */
  elapsedS: number;
}

async function fakeGitHubFor(watches: number): Promise<FakeGitHub> {
  const numbers = Array.from({ length: Math.max(1, watches) }, (_, i) => i + 1);
  return startFakeGitHub({
    seed: {
      repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
      issues: numbers.map((n) => ({ number: n, title: `Issue ${n}`, body: "Please fix." })),
      // The tracking comment each watch edits and finally turns into its result.
      issueComments:
        watches > 0
          ? numbers.map((n) => ({ issue_number: n, id: 1_000_000 + n, body: "Working on it…", user: { login: BOT, type: "Bot" as const } }))
          : [],
    },
  });
}

/** Stores one "watching" task per run, as the App leaves them when it stops mid-watch. */
async function storeWatches(store: BridgeStore, runIds: readonly number[]): Promise<void> {
  try {
    for (const [i, runId] of runIds.entries()) {
      await store.insertTask({
        kind: "create",
        state: "watching",
        sourceType: SOURCE.gitHost,
        thread: { installationId: DEFAULT_INSTALLATION_ID, owner: OWNER, repo: REPO, issueNumber: i + 1, triggerPhrase: "/agent" },
        runId,
        orgId: BENCH_ORG_ID,
        trackingCommentId: 1_000_000 + i + 1,
        reaction: null,
        request: { prompt: `[bench-watch-${i}] keep the lights on` },
        requestedBy: "maintainer",
        deadlineAt: Date.now() + 24 * 3_600_000,
      });
    }
  } finally {
    await store.close();
  }
}

/** Starts the App on `dataDir` (as `replicas` processes when `redis` is given), waits until `ready()` (bounded), reads each one's memory, stops them. */
async function measureApp(
  bundle: string,
  nodeArgs: readonly string[],
  bench: BenchEmulator,
  github: FakeGitHub,
  dataDir: string,
  scale: number,
  ready: () => boolean,
  timeoutMs: number,
  redis?: { url: string; keyPrefix: string; replicas: number },
): Promise<Phase[]> {
  const apps: AppProcess[] = [];
  try {
    const started = performance.now();
    for (let i = 0; i < (redis?.replicas ?? 1); i++) {
      const env = appEnv({
        githubUrl: github.url,
        serviceUrl: bench.url,
        serviceToken: WATCHER_TOKEN,
        orgId: BENCH_ORG_ID,
        dataDir,
        timeScale: scale,
      });
      if (redis) Object.assign(env, { REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.keyPrefix });
      apps.push(await startAppProcess(bundle, env, nodeArgs));
    }
    const deadline = started + timeoutMs;
    while (!ready() && performance.now() < deadline) await sleep(20);
    if (!ready()) throw new Error(`the App did not reach the measuring point within ${timeoutMs} ms`);
    const elapsedS = (performance.now() - started) / 1000;
    const samples = apps.map((): number[] => []);
    for (let i = 0; i < SAMPLES; i++) {
      for (const [n, app] of apps.entries()) samples[n]!.push((await app.memory()).now.rss);
      await sleep(SAMPLE_EVERY_MS);
    }
    const phases: Phase[] = [];
    for (const [n, app] of apps.entries()) phases.push({ rssSamples: samples[n]!, reading: await app.memory({ afterGc: true }), elapsedS });
    return phases;
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
}

export async function runMemoryBenchmark(options: MemoryBenchOptions = {}): Promise<BenchResult> {
  const watches = options.watches ?? 1000;
  // 10× real time: every poll allocates, and a faster clock makes V8 size its young generation for a rate no real deployment sees (100× read tens of MB more).
  const scale = options.scale ?? 0.1;
  const readsPerRun = options.readsPerRun ?? 2;
  const target = "< 120 MB";
  if (!appAvailable()) {
    return {
      benchmark: NAME,
      scale,
      notes: ["src/app/main.ts is missing: the App has not landed in this checkout."],
      rows: [unavailableRow(NAME, `RSS with ${watches} watches`, "the App (src/app/main.ts) is missing", target)],
    };
  }
  const bundle = options.bundle ?? (await buildAppProcess());
  const nodeArgs = options.nodeArgs ?? APP_NODE_ARGS;
  const replicas = options.replicas ?? 3;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

  const bench = await startBenchEmulator({ timeScale: scale, setupRuns: watches });
  const github = await fakeGitHubFor(watches);
  const dataDir = mkdtempSync(join(tmpdir(), "arb-bench-memory-"));
  const idleBench = await startBenchEmulator({ timeScale: scale });
  const idleGitHub = await fakeGitHubFor(0);
  const idleDir = mkdtempSync(join(tmpdir(), "arb-bench-memory-idle-"));
  try {
    // Long runs: none finishes while measured, so every one of them stays watched.
    bench.control.script({ match: "[bench-watch-", durationMs: 24 * 3_600_000, logSteps: 12 });
    const runs = await createRunsAtOnce(
      bench,
      Array.from({ length: watches }, (_, i) => `[bench-watch-${i}] keep the lights on`),
      scale,
    );
    await storeWatches(
      new SqliteBridgeStore(join(dataDir, "bridge.sqlite")),
      runs.map((r) => r.id),
    );
    bench.control.resetStats();

    // A sweep of the runs list (⌈watches/LIST_PAGE_MAX⌉ pages) shows every run's status once: it counts as one read of each.
    const pagesPerSweep = Math.ceil(watches / LIST_PAGE_MAX);
    const sweeps = () => Math.floor(bench.watcherListPages.count / pagesPerSweep);
    const readsAtLeast = (n: number) => () => runs.every((r) => (bench.watcherReadsPerRun.get(r.id) ?? 0) + sweeps() >= n);
    // Bounded: the first round is budget-bound (1 request per emulated second), later ones stretched to 75% of it.
    const timeoutMs = ((watches * readsPerRun * 60) / (60 * 0.75) + 600) * 1000 * scale + 30_000;
    const [loaded] = (await measureApp(bundle, nodeArgs, bench, github, dataDir, scale, readsAtLeast(readsPerRun), timeoutMs)) as [Phase];
    const stats = bench.control.stats();

    // The same watches on the distributed backend, shared by `replicas` processes over one Redis.
    let perReplica: Phase[] | null = null;
    const redis = replicas > 0 ? await connectBenchRedis(redisUrl) : null;
    if (redis) {
      const keyPrefix = `arb-bench-memory-${randomUUID()}`;
      try {
        await storeWatches(
          new RedisBridgeStore(redis, { keyPrefix: `${keyPrefix}:store` }),
          runs.map((r) => r.id),
        );
        const before = Math.min(...runs.map((r) => bench.watcherReadsPerRun.get(r.id) ?? 0)) + sweeps();
        perReplica = await measureApp(bundle, nodeArgs, bench, github, dataDir, scale, readsAtLeast(before + readsPerRun), timeoutMs, {
          url: redisUrl,
          keyPrefix,
          replicas,
        });
      } finally {
        await deleteKeys(redis, keyPrefix);
        redis.disconnect();
      }
    }

    // Baseline: the same App with nothing stored; idle is idle, a few seconds after start is enough.
    const idleUntil = performance.now() + IDLE_WAIT_MS;
    const [idle] = (await measureApp(
      bundle,
      nodeArgs,
      idleBench,
      idleGitHub,
      idleDir,
      scale,
      () => performance.now() >= idleUntil,
      IDLE_WAIT_MS + 30_000,
    )) as [Phase];
    const replicaRss = perReplica?.map((phase) => median(phase.rssSamples)) ?? [];

    const emulatedS = loaded.elapsedS / scale;
    const l = loaded.reading;
    const i = idle.reading;
    const liveLoaded = l.afterGc?.heapUsed ?? Number.NaN;
    const liveIdle = i.afterGc?.heapUsed ?? Number.NaN;
    const rssLoaded = median(loaded.rssSamples);
    const rssIdle = median(idle.rssSamples);
    return {
      benchmark: NAME,
      scale,
      notes: [
        `The App runs as \`node --expose-gc ${nodeArgs.join(" ")}\` on a bundle of bench/lib/app-process.ts: startApp from the environment (GHE_HOST → the fake GitHub, AGENT_RUN_* → the emulator, AGENT_RUN_TIME_SCALE = ${scale}), SQLite in a temporary DATA_DIR, its per-installation GitHub write pacing scaled by the same factor. ${nodeArgs === APP_NODE_ARGS ? "The flags are the ones README.md gives every App process (NODE_OPTIONS; `npm start` passes them): they cap V8's young generation, which otherwise grows with the allocation rate, and its old generation at 512 MB, which makes V8 grow it by a smaller factor after each full collection (compare with `runMemoryBenchmark({ nodeArgs: [] })`)." : nodeArgs.length > 0 ? "The flags were given by the caller." : "No V8 flags: the young generation grows as V8 sees fit."}`,
        `Loaded: ${watches} runs of 24 emulated hours started at once by other tokens, each stored as a watching task with a tracking comment, which the App recovers on start. ` +
          `Read inside the App (process.memoryUsage) once the emulator had answered every run at least ${readsPerRun} times (its own reads, plus one per sweep of the runs list, which shows every run's status: ${bench.watcherListPages.count} pages): ${formatNumber(loaded.elapsedS, 1)} s real = ${formatNumber(emulatedS / 60, 0)} emulated minutes, ` +
          `${stats.requests} requests (${stats.rateLimited} answered 429). RSS is the median of ${SAMPLES} readings ${SAMPLE_EVERY_MS} ms apart from then on (range ${mb(Math.min(...loaded.rssSamples))}–${mb(Math.max(...loaded.rssSamples))}). ` +
          `Idle: the same App with an empty DATA_DIR, read the same way from ${IDLE_WAIT_MS / 1000} s after start.`,
        `Loaded: heap used ${mb(l.now.heapUsed)} of ${mb(l.now.heapTotal)} allocated; after a full collection ${mb(liveLoaded)} is live (idle: ${mb(liveIdle)}), ` +
          `so the watches themselves hold about ${formatNumber((liveLoaded - liveIdle) / 1024 / Math.max(1, watches), 1)} KB each; the rest of the difference is heap V8 sized for the allocation rate.`,
        `What the OS counts (last reading, /proc/self/status): loaded ${split(l.now)}; idle ${split(i.now)}.`,
        replicas === 0
          ? "Redis: not measured (replicas: 0)."
          : perReplica
            ? `Redis: the same ${watches} watches stored in Redis under a fresh key prefix and shared by ${replicas} App processes (REDIS_URL ${redisUrl}), started with the same flags; each replica's RSS is the median of its own ${SAMPLES} readings once every run had been read ${readsPerRun} more times; per replica: ${replicaRss.map(mb).join(", ")}; live heap after a full collection: ${perReplica.map((p) => mb(p.reading.afterGc?.heapUsed ?? Number.NaN)).join(", ")}; as the OS counts them: ${perReplica.map((p) => split(p.reading.now)).join("; ")}.`
            : `Redis: none answered at ${redisUrl}, so the per-replica figure was not measured (start redis-server or set REDIS_URL).`,
        `Time compression raises that rate: the App polls ${formatNumber(1 / scale, 0)}× as often per real second as it would at scale 1, so this RSS is an upper bound of the real-time figure (RSS after the collection: ${mb(l.afterGc?.rss ?? Number.NaN)}, V8 keeps the pages).`,
      ],
      rows: [
        {
          benchmark: NAME,
          figure: `RSS with ${formatNumber(watches)} watches`,
          value: mb(rssLoaded),
          baseline: `${mb(rssIdle)} (idle, 0 watches)`,
          ratio: ratioOf(rssLoaded, rssIdle),
          target,
          met: yesNo(rssLoaded < TARGET_BYTES),
        },
        {
          benchmark: NAME,
          figure: "peak RSS (VmHWM)",
          value: l.now.peakRss === null ? "unknown" : mb(l.now.peakRss),
          baseline: i.now.peakRss === null ? "unknown" : `${mb(i.now.peakRss)} (idle)`,
          ratio: l.now.peakRss !== null && i.now.peakRss !== null ? ratioOf(l.now.peakRss, i.now.peakRss) : "—",
          target,
          met: l.now.peakRss === null ? "n/a" : yesNo(l.now.peakRss < TARGET_BYTES),
        },
        ...(replicas === 0
          ? []
          : [
              perReplica
                ? {
                    benchmark: NAME,
                    figure: `RSS per replica, ${formatNumber(watches)} watches over ${replicas} replicas on Redis (largest)`,
                    value: mb(Math.max(...replicaRss)),
                    baseline: `${mb(rssLoaded)} (1 process, embedded)`,
                    ratio: ratioOf(Math.max(...replicaRss), rssLoaded),
                    target,
                    met: yesNo(Math.max(...replicaRss) < TARGET_BYTES),
                  }
                : unavailableRow(
                    NAME,
                    `RSS per replica, ${formatNumber(watches)} watches over ${replicas} replicas on Redis`,
                    `no Redis at ${redisUrl}`,
                    target,
                  ),
            ]),
        {
          benchmark: NAME,
          figure: "live heap after a full GC",
          value: mb(liveLoaded),
          baseline: `${mb(liveIdle)} (idle)`,
          ratio: ratioOf(liveLoaded, liveIdle),
          target: "—",
          met: "n/a",
        },
      ],
    };
  } finally {
    await github.close();
    await bench.close();
    await idleGitHub.close();
    await idleBench.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(idleDir, { recursive: true, force: true });
  }
}

if (isMainModule(import.meta.url)) runAsScript(() => runMemoryBenchmark());

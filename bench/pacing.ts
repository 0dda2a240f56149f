/**
 * GitHub write pacing (src/github/pacing.ts) against the fake GitHub on loopback, through a real
 * octokit. Each figure is beside a baseline measured in the same run with the same pacer:
 * - many installations writing at once, against one lane for the whole process (what
 *   @octokit/plugin-throttling does by default: every octokit of a process shares the "no-id" limiter);
 * - an acknowledgement arriving behind a queue of progress edits, against first come first served;
 * - a tracking comment edited faster than GitHub allows, against sending every edit;
 * - two replicas writing for one installation through Redis, against two that do not share.
 *
 * Time: every pacing window is multiplied by one factor; times are reported ÷ scale, in real-world seconds.
 *
 * `npx tsx bench/pacing.ts`
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { ProbotOctokit } from "probot";
import { startFakeGitHub, type FakeGitHub } from "../test/helpers/fake-github/index.js";
import {
  GITHUB_WRITE_LIMITS,
  createComment,
  createWritePacer,
  updateComment,
  type WritePacer,
  type WritePacerOptions,
} from "../src/github/index.js";
import { redisReachable } from "./lib/redis.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { median, sleep } from "./lib/stats.js";

export interface PacingBenchOptions {
  installations?: number;
  writesPerInstallation?: number;
  scale?: number;
  redisUrl?: string;
}

const NAME = "GitHub pacing";

// Only the function form turns Probot's own retries and throttling off (facts.md): the pacer is the only pacing.
const UnthrottledOctokit = ProbotOctokit.defaults((options: object) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
}));

interface Bench {
  github: FakeGitHub;
  octokit: InstanceType<typeof UnthrottledOctokit>;
  repoOf: (installation: number) => { owner: string; repo: string };
}

async function startBench(installations: number): Promise<Bench> {
  const repoOf = (installation: number) => ({ owner: `org-${installation}`, repo: "app" });
  const ids = Array.from({ length: installations }, (_, i) => i + 1);
  const github = await startFakeGitHub({
    seed: {
      repositories: ids.map((i) => ({ owner: repoOf(i).owner, name: "app" })),
      issues: ids.map((i) => ({ repo: `${repoOf(i).owner}/app`, number: 1, title: "Nightly build fails", user: "octocat" })),
    },
  });
  const octokit = new UnthrottledOctokit({ auth: { token: "ghs_bench" }, baseUrl: github.url });
  // The first request of a process is slow (code paths warming up); keep it out of the figures.
  await createComment(octokit, repoOf(1), 1, "warm-up");
  github.clearRequests();
  return { github, octokit, repoOf };
}

/** Every installation posts `writes` comments at once: real ms until the last one is stored, and the median write's own latency. */
async function drain(
  bench: Bench,
  pacer: WritePacer,
  installations: number,
  writes: number,
  laneOf: (installation: number) => number,
): Promise<{ totalMs: number; medianWriteMs: number }> {
  const start = performance.now();
  const durations: number[] = [];
  const all: Promise<unknown>[] = [];
  for (let w = 0; w < writes; w++) {
    for (let i = 1; i <= installations; i++) {
      all.push(
        pacer.schedule(laneOf(i), "result", async () => {
          const began = performance.now();
          await createComment(bench.octokit, bench.repoOf(i), 1, `write ${w + 1}`);
          durations.push(performance.now() - began);
        }),
      );
    }
  }
  await Promise.all(all);
  await pacer.stop();
  return { totalMs: performance.now() - start, medianWriteMs: median(durations) };
}

/** 30 progress edits queued in one installation, then an acknowledgement: how long it waited (real ms). */
async function acknowledgementWait(bench: Bench, options: WritePacerOptions, ackPriority: "acknowledge" | "progress"): Promise<number> {
  const pacer = createWritePacer(options);
  const comment = await createComment(bench.octokit, bench.repoOf(1), 1, "Working on it…");
  const queued: Promise<unknown>[] = [];
  for (let n = 0; n < 30; n++) {
    // Each edit its own key: nothing here is superseded; the figure is about order alone.
    queued.push(
      pacer.schedule(1, "progress", () => updateComment(bench.octokit, bench.repoOf(1), comment.id, `step ${n}`), {
        supersedeKey: `step:${n}`,
      }),
    );
  }
  // The lane is busy with the first edit when the acknowledgement arrives, as in a running thread.
  await sleep((GITHUB_WRITE_LIMITS.minIntervalMs * (options.timeScale ?? 1)) / 2);
  const scheduledAt = performance.now();
  let startedAt = Number.NaN;
  const ack = pacer.schedule(1, ackPriority, () => {
    startedAt = performance.now();
    return createComment(bench.octokit, bench.repoOf(1), 1, "👀 on it");
  });
  await Promise.all([...queued, ack]);
  await pacer.stop();
  return startedAt - scheduledAt;
}

/** A run reports a step every 250 ms (unscaled) for 15 s, then its result, all edits of one comment: how many reach GitHub. */
async function progressEditsSent(bench: Bench, options: WritePacerOptions, scale: number, supersede: boolean): Promise<number> {
  const pacer = createWritePacer(options);
  const repo = bench.repoOf(2);
  const comment = await createComment(bench.octokit, repo, 1, "Working on it…");
  bench.github.clearRequests();
  const key = supersede ? `comment:${comment.id}` : undefined;
  const edits: Promise<unknown>[] = [];
  for (let step = 0; step < 60; step++) {
    edits.push(
      pacer.schedule(2, "progress", () => updateComment(bench.octokit, repo, comment.id, `step ${step}`), {
        supersedeKey: key ?? `step:${step}`,
      }),
    );
    await sleep(250 * scale);
  }
  edits.push(pacer.schedule(2, "result", () => updateComment(bench.octokit, repo, comment.id, "done"), { supersedeKey: key ?? "result" }));
  await Promise.all(edits);
  await pacer.stop();
  return bench.github.callsTo("PATCH", "/repos/{owner}/{repo}/issues/comments/{id}").length;
}

/** Two pacers write 6 comments each for one installation; the smallest gap between arrivals at GitHub (real ms). */
async function smallestGapAcrossReplicas(bench: Bench, redisUrl: string, scale: number, shared: boolean): Promise<number> {
  const clients = [new Redis(redisUrl, { maxRetriesPerRequest: 1 }), new Redis(redisUrl, { maxRetriesPerRequest: 1 })];
  const prefix = `arb-bench:pacing:${randomUUID()}`;
  try {
    const pacers = clients.map((redis, i) => createWritePacer({ timeScale: scale, redis, keyPrefix: shared ? prefix : `${prefix}:${i}` }));
    const repo = bench.repoOf(3);
    bench.github.clearRequests();
    await Promise.all(
      pacers.flatMap((pacer, p) =>
        Array.from({ length: 6 }, (_, n) =>
          pacer.schedule(3, "result", () => createComment(bench.octokit, repo, 1, `replica ${p} write ${n}`)),
        ),
      ),
    );
    await Promise.all(pacers.map((p) => p.stop()));
    const times = bench.github.requests
      .filter((r) => r.method === "POST")
      .map((r) => r.receivedAt)
      .sort((a, b) => a - b);
    let smallest = Number.POSITIVE_INFINITY;
    for (let i = 1; i < times.length; i++) smallest = Math.min(smallest, times[i]! - times[i - 1]!);
    return smallest;
  } finally {
    await Promise.all(clients.map((c) => c.quit()));
  }
}

export async function runPacingBenchmark(options: PacingBenchOptions = {}): Promise<BenchResult> {
  const installations = options.installations ?? 20;
  const writes = options.writesPerInstallation ?? 5;
  // Loopback latency is not scaled, so a smaller factor would inflate it in the unscaled figures.
  const scale = options.scale ?? 0.1;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const unscaledS = (ms: number) => ms / scale / 1000;
  const bench = await startBench(installations);
  try {
    const perInstallation = await drain(bench, createWritePacer({ timeScale: scale }), installations, writes, (i) => i);
    const oneLane = await drain(bench, createWritePacer({ timeScale: scale }), installations, writes, () => 0);
    // One installation's own floor: its writes one at a time, a (scaled) second from the end of one to the start of the next.
    const floorMs = (writes - 1) * GITHUB_WRITE_LIMITS.minIntervalMs * scale + writes * perInstallation.medianWriteMs;

    const ackPaced = await acknowledgementWait(bench, { timeScale: scale }, "acknowledge");
    const ackFifo = await acknowledgementWait(bench, { timeScale: scale }, "progress");

    const editsSuperseded = await progressEditsSent(bench, { timeScale: scale }, scale, true);
    const editsAll = await progressEditsSent(bench, { timeScale: scale }, scale, false);

    const rows: BenchRow[] = [
      {
        benchmark: NAME,
        figure: `${installations} installations × ${writes} comments, all at once: time to the last (unscaled)`,
        value: `${formatNumber(unscaledS(perInstallation.totalMs), 1)} s`,
        baseline: `${formatNumber(unscaledS(oneLane.totalMs), 1)} s (one lane for the process)`,
        ratio: ratioOf(perInstallation.totalMs, oneLane.totalMs),
        target: `≈ ${formatNumber(unscaledS(floorMs), 1)} s (one installation's floor)`,
        met: yesNo(perInstallation.totalMs <= floorMs * 1.5),
      },
      {
        benchmark: NAME,
        figure: "acknowledgement behind 30 queued progress edits: wait (unscaled)",
        value: `${formatNumber(unscaledS(ackPaced), 1)} s`,
        baseline: `${formatNumber(unscaledS(ackFifo), 1)} s (first come first served)`,
        ratio: ratioOf(ackPaced, ackFifo),
        target: "≤ 1 s (the next turn)",
        met: yesNo(unscaledS(ackPaced) <= 1.5),
      },
      {
        benchmark: NAME,
        figure: "one comment, a step every 0.25 s for 15 s, then the result: edits sent to GitHub",
        value: String(editsSuperseded),
        baseline: `${editsAll} (every edit sent)`,
        ratio: ratioOf(editsSuperseded, editsAll),
        target: "≤ 1 per second, result included",
        met: yesNo(editsSuperseded <= 17),
      },
    ];

    if (await redisReachable(redisUrl)) {
      const sharedGap = await smallestGapAcrossReplicas(bench, redisUrl, scale, true);
      const separateGap = await smallestGapAcrossReplicas(bench, redisUrl, scale, false);
      rows.push({
        benchmark: NAME,
        figure: "2 replicas × 6 comments for one installation: smallest gap at GitHub (unscaled)",
        value: `${formatNumber(unscaledS(sharedGap), 2)} s`,
        baseline: `${formatNumber(unscaledS(separateGap), 2)} s (replicas not sharing Redis)`,
        ratio: ratioOf(sharedGap, separateGap),
        target: "≥ 1 s",
        met: yesNo(unscaledS(sharedGap) >= 1),
      });
    } else {
      rows.push(unavailableRow(NAME, "2 replicas sharing Redis: smallest gap at GitHub", `no Redis at ${redisUrl}`, "≥ 1 s"));
    }

    return {
      benchmark: NAME,
      scale,
      notes: [
        "The pacer against the fake GitHub through a real octokit (Probot's own throttling off); every pacing window and wait × scale, figures ÷ scale.",
        "Baselines run the same pacer: every write in one lane (as @octokit/plugin-throttling's process-wide default limiter does), the acknowledgement at progress priority, every edit with its own key, replicas without shared Redis.",
        "GitHub's limits per installation: about 80 writes a minute, 500 an hour, 1 s between writes, one at a time.",
        "A write's own latency on loopback is real time, so ÷ scale it counts 1/scale times; the floor of the first figure includes it (writes × median write latency).",
      ],
      rows,
    };
  } finally {
    await bench.github.close();
  }
}

if (isMainModule(import.meta.url)) runAsScript(() => runPacingBenchmark());

/**
 * Polling under load: 100 runs in flight with durations spread over 1–10 emulated minutes, watched
 * under the spec's limits (60 requests per 60 s shared by every endpoint) by
 *   - ours: the App's RunEngine (SQLite store, the fake GitHub as the thread writer), and
 *   - naive: what a hand-written workflow script does: GET every unfinished run every 5 s,
 *     ignoring 429s and trying again on the next tick.
 * Each approach gets its own emulator with the same runs, created at the same instant by other
 * tokens, so the watcher's token starts with an empty budget.
 *
 * `npx tsx bench/polling.ts`
 */
import type { RunEngineOptions } from "../src/app/engine.js";
import { RATE_LIMITS, classifyRunStatus, isFinalPhase } from "../src/service/index.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import {
  WATCHER_TOKEN,
  createRunsAtOnce,
  observeFetch,
  runUrl,
  startBenchEmulator,
  watcherClient,
  type ObservedFetch,
} from "./lib/service.js";
import { percentile, seededRandom, sleep } from "./lib/stats.js";
import { startEngineHarness } from "../test/helpers/engine-harness.js";
import { finishesWithin, startThreadsGitHub, watchRunsInThreads } from "./lib/engine-threads.js";

export interface PollingBenchOptions {
  runs?: number;
  /** One factor for the emulator clock, the client's budget and the engine's intervals. */
  scale?: number;
  minMinutes?: number;
  maxMinutes?: number;
  /** The naive poller's period, in unscaled seconds. */
  naiveIntervalS?: number;
  seed?: number;
  /** Engine settings to compare against the defaults (e.g. pollBudgetShare). */
  engineOptions?: Partial<Pick<RunEngineOptions, "pollBudgetShare" | "pollIntervalMs">>;
}

/** What one approach achieved on the workload. */
interface WatchOutcome {
  approach: string;
  completed: number;
  requests: number;
  rateLimited: number;
  /** Per detected run: unscaled seconds from the run's finish to the watcher's first answer showing it. */
  delaysS: number[];
  /** Unscaled seconds from the runs' start to the last detection. */
  spanS: number;
}

const NAME = "polling";

export interface Workload {
  prompts: string[];
  durationsMs: number[];
}

export function planWorkload(runs: number, minMinutes: number, maxMinutes: number, seed: number): Workload {
  const random = seededRandom(seed);
  const durationsMs = Array.from({ length: runs }, () => Math.round((minMinutes + (maxMinutes - minMinutes) * random()) * 60_000));
  // Brackets keep one run's marker from being a substring of another's (run-1 vs run-10).
  const prompts = durationsMs.map((_, i) => `[bench-run-${i}] fix the flaky test`);
  return { prompts, durationsMs };
}

/** A fresh emulator with the workload scripted and started; returns when every run exists. */
async function startWorkload(workload: Workload, scale: number) {
  const bench = await startBenchEmulator({ timeScale: scale, setupRuns: workload.prompts.length });
  workload.prompts.forEach((prompt, i) => {
    bench.control.script({ match: prompt.slice(0, prompt.indexOf("]") + 1), durationMs: workload.durationsMs[i]!, logSteps: 12 });
  });
  const runs = await createRunsAtOnce(bench, workload.prompts, scale);
  bench.control.resetStats();
  // Wall-clock ms at which each run finishes: created_at plus its scripted duration, scaled.
  const finishAt = new Map(runs.map((run, i) => [run.id, Date.parse(run.created_at!) + workload.durationsMs[i]! * scale]));
  const startedAt = Math.min(...runs.map((r) => Date.parse(r.created_at!)));
  return { bench, runs, finishAt, startedAt };
}

function outcomeOf(
  approach: string,
  observed: ObservedFetch,
  finishAt: Map<number, number>,
  startedAt: number,
  stats: { requests: number; rateLimited: number },
  scale: number,
): WatchOutcome {
  const delaysS: number[] = [];
  let lastSeen = startedAt;
  for (const [runId, seenAt] of observed.finishedSeenAt) {
    const finished = finishAt.get(runId);
    if (finished === undefined) continue;
    delaysS.push(Math.max(0, seenAt - finished) / 1000 / scale);
    lastSeen = Math.max(lastSeen, seenAt);
  }
  return {
    approach,
    completed: delaysS.length,
    requests: stats.requests,
    rateLimited: stats.rateLimited,
    delaysS,
    spanS: (lastSeen - startedAt) / 1000 / scale,
  };
}

/** Ours: the RunEngine watching every run, as the App does after creating them. */
async function watchWithEngine(
  workload: Workload,
  scale: number,
  timeoutMs: number,
  engineOptions: PollingBenchOptions["engineOptions"] = {},
): Promise<WatchOutcome> {
  const { bench, runs, finishAt, startedAt } = await startWorkload(workload, scale);
  const { github, writer } = await startThreadsGitHub(runs.length);
  const { client, observed } = watcherClient(bench, scale);
  const harness = await startEngineHarness("embedded", { client, writer, timeScale: scale, ...engineOptions });
  try {
    await watchRunsInThreads(harness, writer, runs, workload.prompts);
    const timedOut = await finishesWithin(harness.idle(), timeoutMs);
    const outcome = outcomeOf("ours", observed, finishAt, startedAt, bench.control.stats(), scale);
    if (timedOut) outcome.approach += " (stopped at the time limit)";
    return outcome;
  } finally {
    await harness.close();
    await github.close();
    await bench.close();
  }
}

/** Naive: every unfinished run asked for every `intervalS`, 429s ignored until the next tick. */
async function watchNaively(workload: Workload, scale: number, intervalS: number, timeoutMs: number): Promise<WatchOutcome> {
  const { bench, runs, finishAt, startedAt } = await startWorkload(workload, scale);
  const observed = observeFetch();
  const pending = new Set(runs.map((r) => r.id));
  const tickMs = intervalS * 1000 * scale;
  const began = performance.now();
  const maxTicks = Math.ceil(timeoutMs / tickMs);
  try {
    for (let tick = 0; pending.size > 0 && tick < maxTicks; tick++) {
      await sleep(began + tick * tickMs - performance.now());
      await Promise.all(
        [...pending].map(async (runId) => {
          const response = await observed.fetch(runUrl(bench.url, runId), { headers: { authorization: `Bearer ${WATCHER_TOKEN}` } });
          const body = (await response.json()) as { status?: string | null };
          if (response.ok && isFinalPhase(classifyRunStatus(body.status))) pending.delete(runId);
        }),
      );
    }
    const outcome = outcomeOf("naive", observed, finishAt, startedAt, bench.control.stats(), scale);
    if (pending.size > 0) outcome.approach += " (stopped at the time limit)";
    return outcome;
  } finally {
    await bench.close();
  }
}

/** Share of the token's shared budget (60 per 60 s) that the accepted requests used over the span. */
function budgetShare(outcome: WatchOutcome): number {
  const { points, durationSeconds } = RATE_LIMITS.sharedStrict;
  const capacity = (outcome.spanS / durationSeconds) * points;
  return (outcome.requests - outcome.rateLimited) / capacity;
}

function pollingRows(ours: WatchOutcome, naive: WatchOutcome, runs: number): BenchRow[] {
  const perRun = (o: WatchOutcome) => o.requests / Math.max(1, o.completed);
  const p = (o: WatchOutcome, q: number) => percentile(o.delaysS, q);
  const seconds = (v: number) => `${formatNumber(v, 1)} s`;
  const percent = (v: number) => `${formatNumber(v * 100, 0)}%`;
  return [
    {
      benchmark: NAME,
      figure: "runs completed and detected",
      value: `${ours.completed} / ${runs}`,
      baseline: `${naive.completed} / ${runs}`,
      ratio: "—",
      target: `${runs} / ${runs}`,
      met: yesNo(ours.completed === runs),
    },
    {
      benchmark: NAME,
      figure: "requests per completed run",
      value: formatNumber(perRun(ours), 1),
      baseline: formatNumber(perRun(naive), 1),
      ratio: ratioOf(perRun(ours), perRun(naive)),
      target: "≤ 0.33×",
      met: yesNo(perRun(ours) <= perRun(naive) / 3),
    },
    {
      benchmark: NAME,
      figure: "429 responses",
      value: String(ours.rateLimited),
      baseline: String(naive.rateLimited),
      ratio: ratioOf(ours.rateLimited, naive.rateLimited),
      target: "0",
      met: yesNo(ours.rateLimited === 0),
    },
    {
      benchmark: NAME,
      figure: "detection delay p50 (unscaled)",
      value: seconds(p(ours, 50)),
      baseline: seconds(p(naive, 50)),
      ratio: ratioOf(p(ours, 50), p(naive, 50)),
      target: "—",
      met: "n/a",
    },
    {
      benchmark: NAME,
      figure: "detection delay p95 (unscaled)",
      value: seconds(p(ours, 95)),
      baseline: seconds(p(naive, 95)),
      ratio: ratioOf(p(ours, 95), p(naive, 95)),
      target: "≤ 1× (no worse)",
      met: yesNo(p(ours, 95) <= p(naive, 95)),
    },
    {
      benchmark: NAME,
      figure: "share of the 60/60 s budget used",
      value: percent(budgetShare(ours)),
      baseline: percent(budgetShare(naive)),
      ratio: ratioOf(budgetShare(ours), budgetShare(naive)),
      target: "—",
      met: "n/a",
    },
  ];
}

export async function runPollingBenchmark(options: PollingBenchOptions = {}): Promise<BenchResult> {
  const runs = options.runs ?? 100;
  const scale = options.scale ?? 0.05;
  const minMinutes = options.minMinutes ?? 1;
  const maxMinutes = options.maxMinutes ?? 10;
  const naiveIntervalS = options.naiveIntervalS ?? 5;
  const workload = planWorkload(runs, minMinutes, maxMinutes, options.seed ?? 20_240_601);
  // Bounded: the longest run plus half an hour of emulated time for the tail of detections.
  const timeoutMs = (maxMinutes + 30) * 60_000 * scale;

  const ours = await watchWithEngine(workload, scale, timeoutMs, options.engineOptions);
  const naive = await watchNaively(workload, scale, naiveIntervalS, timeoutMs);

  return {
    benchmark: NAME,
    scale,
    notes: [
      `${runs} runs, durations drawn uniformly from ${minMinutes}–${maxMinutes} emulated minutes (seeded), all started at the same instant by other tokens; 12 log entries each.`,
      `Ours: RunEngine with its defaults (per-run backoff 2 s → 30 s, stretched so all watches fit 75% of the shared budget), a SQLite store, results written to the fake GitHub. It reads the logs endpoint on each poll and fetches the run once more when it sees it finish.`,
      `Naive: GET each unfinished run every ${naiveIntervalS} s (unscaled), all at once per tick; a 429 is ignored and the run asked again next tick.`,
      `Requests and 429s are counted by the emulator (everything the watcher's token sent). Detection delay: from the run's finish (created_at + scripted duration) to the first answer the watcher received that showed a final status, ÷ scale.`,
      `Budget share: accepted requests ÷ (60 per 60 s × time from start to the last detection). Ours took ${formatNumber(ours.spanS, 0)} s, naive ${formatNumber(naive.spanS, 0)} s (unscaled).`,
    ],
    rows: pollingRows(ours, naive, runs),
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runPollingBenchmark());

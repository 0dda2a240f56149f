/**
 * Watching a whole organization: P runs in flight at once (durations spread over 10–40 emulated
 * minutes), each in its own thread with a tracking comment, watched by the App's RunEngine (SQLite
 * store and queue, the fake GitHub as the thread writer) under the service's limits (60 requests
 * per 60 s shared by every endpoint). Three workloads:
 *   - 300 and 1,000 runs with the runs list on and runs of other users and sources mixed in (one
 *     other run per run of ours: GIT_HOST, CHAT and API by another user in turn; the API ones pass
 *     the `source_type` filter and sit on the pages the sweeps read);
 *   - 300 runs on a service without the list (each run read on its own, as before sweeps).
 * Each figure is set against the floor of its design: with the list a sweep costs ⌈P/100⌉
 * requests, one a second, so a run's end is seen at best within ⌈P/100⌉ s; without it each run is
 * read at best every P seconds.
 *
 * `npx tsx bench/watch-scale.ts` runs all three; `npx tsx bench/watch-scale.ts 1000` (or `300`, `300-nolist`,
 * several separated by spaces) runs only those.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { EngineObserver } from "../src/app/ops/metrics.js";
import { startEngineHarness } from "../test/helpers/engine-harness.js";
import { finishesWithin, startThreadsGitHub, watchRunsInThreads } from "./lib/engine-threads.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { createRunsAtOnce, startBenchEmulator, watcherClient } from "./lib/service.js";
import { percentile } from "./lib/stats.js";
import { planWorkload } from "./polling.js";

const NAME = "watch-scale";
const MIN_MINUTES = 10;
const MAX_MINUTES = 40;

export interface WatchScaleOptions {
  /** One factor for the emulator clock, the client's budget and the engine's intervals. */
  scale?: number;
  seed?: number;
  /** Runs in flight per workload (default 300 and 1,000 with the list, 300 without). */
  workloads?: Workload[];
}

interface Workload {
  runs: number;
  list: boolean;
  /** Runs of other users and sources created with each of ours. */
  otherRunsPerRun: number;
  /** p95 target in real seconds; null: no worse than before sweeps (the per-run floor). */
  p95TargetS: number | null;
}

const DEFAULT_WORKLOADS: Workload[] = [
  { runs: 300, list: true, otherRunsPerRun: 1, p95TargetS: 30 },
  { runs: 1_000, list: true, otherRunsPerRun: 1, p95TargetS: 60 },
  { runs: 300, list: false, otherRunsPerRun: 0, p95TargetS: null },
];

interface Outcome {
  workload: Workload;
  reported: number;
  /** Real seconds (unscaled) from each run's end to its result written over its tracking comment. */
  delaysS: number[];
  /** Of which: from the run's end to the first answer that showed it final (a list page, a logs page or the run). */
  seenDelaysS: number[];
  /** Of which: from that answer to the result written. */
  reportDelaysS: number[];
  requests: number;
  rateLimited: number;
  byRoute: Record<string, number>;
  /** Peak resident memory of this process while watching (the engine, the emulator and the fake GitHub). */
  peakRssBytes: number;
  spanS: number;
  /** This process's event-loop delay while watching (real ms): the budget's margin (250 ms) is all a late request has. */
  loopDelayMs: { p99: number; max: number };
}

async function watchWorkload(workload: Workload, scale: number, seed: number): Promise<Outcome> {
  const plan = planWorkload(workload.runs, MIN_MINUTES, MAX_MINUTES, seed);
  // Other users' runs: one create of theirs per create of ours, made by the emulator alongside (the list shows them in between).
  const bench = await startBenchEmulator({
    timeScale: scale,
    setupRuns: workload.runs,
    endpoints: { listRuns: workload.list },
    ...(workload.otherRunsPerRun > 0
      ? { otherRuns: { perCreate: workload.otherRunsPerRun, sourceTypes: ["GIT_HOST", "CHAT", "API"], durationMs: MAX_MINUTES * 60_000 } }
      : {}),
  });
  plan.prompts.forEach((prompt, i) => {
    bench.control.script({ match: prompt.slice(0, prompt.indexOf("]") + 1), durationMs: plan.durationsMs[i]!, logSteps: 12 });
  });
  const { github, writer } = await startThreadsGitHub(plan.prompts.length);
  const runs = await createRunsAtOnce(bench, plan.prompts, scale);
  bench.control.resetStats();
  const finishAt = new Map(runs.map((run, i) => [run.id, Date.parse(run.created_at!) + plan.durationsMs[i]! * scale]));
  const reportedAt = new Map<number, number>();
  const observer: EngineObserver = {
    acknowledged() {},
    runStarted() {},
    runFinished(task) {
      if (task.runId !== null && !reportedAt.has(task.runId)) reportedAt.set(task.runId, Date.now());
    },
  };
  const { client, observed } = watcherClient(bench, scale);
  const harness = await startEngineHarness("embedded", { client, writer, timeScale: scale, observer });
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let peakRssBytes = 0;
  const sampler = setInterval(() => (peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss())), 200);
  const startedAt = Date.now();
  try {
    await watchRunsInThreads(harness, writer, runs, plan.prompts, { sentAtCreated: true });
    // Bounded: the longest run plus 30 emulated minutes for the tail.
    await finishesWithin(harness.idle(), (MAX_MINUTES + 30) * 60_000 * scale);
    const delaysS = [...reportedAt].map(([runId, at]) => Math.max(0, at - finishAt.get(runId)!) / 1000 / scale);
    const seen = [...reportedAt].flatMap(([runId, at]) => {
      const seenAt = observed.finishedSeenAt.get(runId);
      return seenAt === undefined ? [] : [{ end: finishAt.get(runId)!, seenAt, at }];
    });
    const seenDelaysS = seen.map((r) => Math.max(0, r.seenAt - r.end) / 1000 / scale);
    const reportDelaysS = seen.map((r) => Math.max(0, r.at - r.seenAt) / 1000 / scale);
    const stats = bench.control.stats();
    return {
      workload,
      reported: reportedAt.size,
      delaysS,
      seenDelaysS,
      reportDelaysS,
      requests: stats.requests,
      rateLimited: stats.rateLimited,
      byRoute: stats.byRoute,
      peakRssBytes,
      spanS: (Date.now() - startedAt) / 1000 / scale,
      loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    };
  } finally {
    clearInterval(sampler);
    loopDelay.disable();
    await harness.close();
    await github.close();
    await bench.close();
  }
}

const seconds = (v: number) => `${formatNumber(v, 1)} s`;

function rowsOf(outcome: Outcome): BenchRow[] {
  const { workload, delaysS } = outcome;
  const label = `${formatNumber(workload.runs, 0)} in flight, ${workload.list ? "list on, other runs mixed in" : "no list"}`;
  // The floor of each design: a sweep of ⌈P/100⌉ pages at one request a second, or P seconds per run read alone.
  const floorS = workload.list ? Math.ceil(workload.runs / 100) : workload.runs;
  const p50 = percentile(delaysS, 50);
  const p95 = percentile(delaysS, 95);
  const max = Math.max(0, ...delaysS);
  const row = (figure: string, value: string, baseline: string, ratio: string, target: string, met: BenchRow["met"]): BenchRow => ({
    benchmark: NAME,
    figure: `${label}: ${figure}`,
    value,
    baseline,
    ratio,
    target,
    met,
  });
  const p95Target = workload.p95TargetS ?? floorS;
  const perRun = outcome.requests / Math.max(1, outcome.reported);
  return [
    row(
      "results written",
      `${outcome.reported} / ${workload.runs}`,
      "—",
      "—",
      `${workload.runs} / ${workload.runs}`,
      yesNo(outcome.reported === workload.runs),
    ),
    row("run end → result p50", seconds(p50), `floor ${seconds(floorS)}`, ratioOf(p50, floorS), "—", "n/a"),
    row(
      "run end → result p95",
      seconds(p95),
      `floor ${seconds(floorS)}`,
      ratioOf(p95, floorS),
      workload.p95TargetS !== null ? `≤ ${seconds(p95Target)}` : `≤ ${seconds(floorS)} (the per-run floor: no worse than before)`,
      yesNo(p95 <= p95Target),
    ),
    row("run end → result max", seconds(max), `floor ${seconds(floorS)}`, ratioOf(max, floorS), "—", "n/a"),
    row(
      "of which: run end → seen final p50 / p95",
      `${seconds(percentile(outcome.seenDelaysS, 50))} / ${seconds(percentile(outcome.seenDelaysS, 95))}`,
      `floor ${seconds(floorS)}`,
      "—",
      "—",
      "n/a",
    ),
    row(
      "of which: seen final → result written p50 / p95",
      `${seconds(percentile(outcome.reportDelaysS, 50))} / ${seconds(percentile(outcome.reportDelaysS, 95))}`,
      "—",
      "—",
      "—",
      "n/a",
    ),
    row(
      "requests per run",
      formatNumber(perRun, 1),
      workload.list
        ? `list pages ${outcome.byRoute.listRuns ?? 0}, logs ${(outcome.byRoute.runLogs ?? 0) + (outcome.byRoute.runLogsAlpha ?? 0)}, runs ${outcome.byRoute.getRun ?? 0}`
        : `logs ${(outcome.byRoute.runLogs ?? 0) + (outcome.byRoute.runLogsAlpha ?? 0)}, runs ${outcome.byRoute.getRun ?? 0}`,
      "—",
      "—",
      "n/a",
    ),
    row("429 responses", String(outcome.rateLimited), "0", "—", "0", yesNo(outcome.rateLimited === 0)),
    row(
      "peak RSS of the bench process (engine + emulator + fake GitHub)",
      `${formatNumber(outcome.peakRssBytes / 1e6, 1)} MB`,
      "—",
      "—",
      // The 120 MB is the App's own memory, which this process (emulator and fake GitHub holding every run and
      // comment) cannot show: bench/memory.ts measures it on the App process alone.
      "— (the App alone: memory rows)",
      "n/a",
    ),
  ];
}

export async function runWatchScaleBenchmark(options: WatchScaleOptions = {}): Promise<BenchResult> {
  const scale = options.scale ?? 0.05;
  const seed = options.seed ?? 20_261_126;
  const outcomes: Outcome[] = [];
  for (const workload of options.workloads ?? DEFAULT_WORKLOADS) outcomes.push(await watchWorkload(workload, scale, seed));
  return {
    benchmark: NAME,
    scale,
    notes: [
      `Each workload: P runs started at the same instant by other tokens, durations drawn uniformly from ${MIN_MINUTES}–${MAX_MINUTES} emulated minutes (seeded), 12 log entries each; one thread and tracking comment per run; the RunEngine with its defaults on SQLite, results written to the fake GitHub.`,
      `Run end → result: from the run's end (created_at + scripted duration) to the engine's report of its result written over the tracking comment, ÷ scale (real seconds). Requests and 429s: everything the watcher's token sent, counted by the emulator.`,
      `Floors: with the list, ⌈P/100⌉ s (one sweep of ⌈P/100⌉ pages at the budget's one request a second); without it, P s (each run read once every P s). The no-list row's target is that floor (before sweeps the bridge measured p95 ≈ 0.95·P s plus up to a minute behind routine polls).`,
      `The RSS row reads this whole process (engine, emulator with every run, fake GitHub with every comment), an upper bound of what the App alone holds; bench/memory.ts measures the App process alone.`,
      ...outcomes.map(
        (o) =>
          `${o.workload.runs} runs${o.workload.list ? "" : " without the list"}: watched for ${formatNumber(o.spanS, 0)} s (unscaled); event-loop delay p99 ${formatNumber(o.loopDelayMs.p99, 0)} ms, max ${formatNumber(o.loopDelayMs.max, 0)} ms (real); requests by route ${JSON.stringify(o.byRoute)}.`,
      ),
    ],
    rows: outcomes.flatMap(rowsOf),
  };
}

/** The workloads named on the command line (`300`, `1000`, `300-nolist`), or all of them. */
function workloadsFromArgs(args: readonly string[]): Workload[] | undefined {
  if (args.length === 0) return undefined;
  const nameOf = (w: Workload) => `${w.runs}${w.list ? "" : "-nolist"}`;
  return args.map((arg) => {
    const found = DEFAULT_WORKLOADS.find((w) => nameOf(w) === arg);
    if (!found) throw new Error(`unknown workload ${arg}: use ${DEFAULT_WORKLOADS.map(nameOf).join(", ")}`);
    return found;
  });
}

if (isMainModule(import.meta.url)) {
  const workloads = workloadsFromArgs(process.argv.slice(2));
  runAsScript(() => runWatchScaleBenchmark(workloads ? { workloads } : {}));
}

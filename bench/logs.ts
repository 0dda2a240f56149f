/**
 * Logs benchmark: 10,000 log entries of one finished run read through `client.iterateLogs`.
 * Requests made vs the minimum ceil(N/100), and time vs what the token's shared budget allows.
 *
 * `npx tsx bench/logs.ts`
 */
import { LOGS_PAGE_MAX, RATE_LIMITS } from "../src/service/index.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult } from "./lib/report.js";
import { createRunsAtOnce, startBenchEmulator, watcherClient } from "./lib/service.js";

export interface LogsBenchOptions {
  entries?: number;
  /** One factor for the emulator clock and every rate window (the client's budget included). */
  scale?: number;
}

const NAME = "logs";

/**
 * The least time a burst of `requests` can take under a sliding window of `points` per `windowS`
 * starting empty: the first `points` go at once, each further batch waits for a whole window.
 */
function budgetFloorSeconds(requests: number, points: number, windowS: number): number {
  return Math.floor(Math.max(0, requests - 1) / points) * windowS;
}

export async function runLogsBenchmark(options: LogsBenchOptions = {}): Promise<BenchResult> {
  const entries = options.entries ?? 10_000;
  const scale = options.scale ?? 0.25;
  const bench = await startBenchEmulator({ timeScale: scale, setupRuns: 1 });
  try {
    bench.control.script({ match: "[bench-logs]", durationMs: 60_000, logSteps: entries, outcome: "completed" });
    const [run] = await createRunsAtOnce(bench, ["[bench-logs] a long trace"], scale);
    // Finish the run at once: every entry is visible before the first page is asked for.
    bench.control.advanceTime(60_000);
    bench.control.resetStats();

    const { client, observed } = watcherClient(bench, scale);
    let read = 0;
    const started = performance.now();
    for await (const _entry of client.iterateLogs(run!.id, { deadline: Date.now() + 120_000 })) read++;
    const elapsedRealMs = performance.now() - started;
    const stats = bench.control.stats();

    if (read !== entries) throw new Error(`iterateLogs returned ${read} entries, the run has ${entries}`);
    const minimumRequests = Math.ceil(entries / LOGS_PAGE_MAX);
    const shared = RATE_LIMITS.sharedStrict;
    const floorS = budgetFloorSeconds(minimumRequests, shared.points, shared.durationSeconds);
    const steadyS = (minimumRequests / shared.points) * shared.durationSeconds;
    const roundTripS = observed.roundTripMs.total / 1000;
    const unscaledS = elapsedRealMs / 1000 / scale;
    // Pages answered after the first window are paced by the emulator's real answer time, which ÷ scale stretches.
    const pagesAfterWindow = Math.max(0, stats.requests - RATE_LIMITS.sharedStrict.points);
    const stretchS = pagesAfterWindow * (roundTripS / Math.max(1, stats.requests)) * (1 / scale - 1);

    return {
      benchmark: NAME,
      scale,
      notes: [
        `One run scripted with logSteps ${entries}, finished before reading; read by a fresh token (its budget starts empty) with pages of ${LOGS_PAGE_MAX}.`,
        `Requests and 429s are counted by the emulator. Time = wall time of the whole iteration ÷ scale (${formatNumber(elapsedRealMs / 1000)} s real). ` +
          `The emulator takes ${formatNumber((roundTripS * 1000) / Math.max(1, stats.requests), 1)} ms (real) to build a page of a 10,000-entry run; ` +
          `on the ${pagesAfterWindow} pages after the first window that answer time is on the critical path and ÷ scale stretches it by about ${formatNumber(stretchS, 1)} s.`,
        `Budget floor: an empty ${shared.points}-per-${shared.durationSeconds} s window admits ${shared.points} requests at once and the rest a window later: ` +
          `${minimumRequests} requests need ≥ ${floorS} s. At the steady rate (1 per ${shared.durationSeconds / shared.points} s) they would take ${steadyS} s.`,
        `The client's budget adds a safety margin of 2% per window (requests are counted when sent, the service counts on arrival).`,
      ],
      rows: [
        {
          benchmark: NAME,
          figure: `requests for ${formatNumber(entries)} entries`,
          value: String(stats.requests),
          baseline: `${minimumRequests} (ceil(N/${LOGS_PAGE_MAX}))`,
          ratio: ratioOf(stats.requests, minimumRequests),
          target: `= ${minimumRequests}`,
          met: yesNo(stats.requests === minimumRequests),
        },
        {
          benchmark: NAME,
          figure: "429 responses",
          value: String(stats.rateLimited),
          baseline: "0",
          ratio: "—",
          target: "0",
          met: yesNo(stats.rateLimited === 0),
        },
        {
          benchmark: NAME,
          figure: "time, unscaled",
          value: `${formatNumber(unscaledS, 1)} s`,
          baseline: `${floorS} s (budget floor)`,
          ratio: ratioOf(unscaledS, floorS),
          target: "budget-bound (≈ floor)",
          met: "n/a",
        },
      ],
    };
  } finally {
    await bench.close();
  }
}

if (isMainModule(import.meta.url)) runAsScript(() => runLogsBenchmark());

/**
 * Creates after an unclean restart: a process spends the service's whole creation window (10
 * creates), is killed with SIGKILL, and its successor on the same data file fires 20 more at once.
 * The successor's budget is kept the way the embedded App keeps it (SQLite, bench/lib/restart-child.ts);
 * the baseline, measured in the same run, is the same successor with an in-memory budget (what the
 * App did before): it cannot know what its predecessor spent. Reported: the 429s the emulator
 * answered after the restart, and when the 30th create was answered against the floor that 10
 * creates per 60 s set (create n cannot be counted before ⌊(n−1)/10⌋ × 60 s after the first).
 *
 * Time: the emulator and the budgets run `scale` times faster; times are reported ÷ scale.
 *
 * `npx tsx bench/restart.ts`
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RATE_LIMITS } from "../src/service/index.js";
import { ROOT } from "./lib/app.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { BENCH_ORG_ID, WATCHER_TOKEN, startBenchEmulator } from "./lib/service.js";

const NAME = "restart";
/** Within this multiple of the floor. */
const FLOOR_TARGET = 1.1;
/**
 * The budget's latency allowance, in real ms: the App's at real scale (2% of the 60 s window). The
 * App scales it with the clock (never under 250 ms), but latency does not shrink with the clock:
 * on a loaded two-core machine a request took up to 500 ms to arrive.
 */
const MARGIN_MS = 1_200;

export interface RestartBenchOptions {
  scale?: number;
  /** Creates after the restart (the first process always fills one window). */
  after?: number;
}

interface Child {
  created: number[];
  done: Promise<void>;
  kill(): Promise<void>;
}

function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench", "lib", "restart-child.ts"), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const created: number[] = [];
  let buffered = "";
  let resolveDone: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith("created ")) created.push(Number(line.slice(8)));
      if (line === "done") resolveDone();
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    created,
    done: Promise.race([
      done,
      exited.then(() => Promise.reject(new Error("a restart-bench process exited before its creates were answered"))),
    ]),
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

interface ShapeFigures {
  rateLimitedAfterRestart: number;
  /** Emulated seconds from the first create's answer to the last's. */
  lastCreateS: number;
  creates: number;
}

async function playRestart(backend: "sqlite" | "memory", scale: number, after: number): Promise<ShapeFigures> {
  const bench = await startBenchEmulator({ timeScale: scale });
  const dir = mkdtempSync(join(tmpdir(), "arb-bench-restart-"));
  try {
    const common = [bench.url, WATCHER_TOKEN, String(BENCH_ORG_ID), String(scale), String(MARGIN_MS), join(dir, "bridge.sqlite"), backend];
    const first = startChild([...common, String(RATE_LIMITS.create.points), "--stay"]);
    await first.done;
    await first.kill();
    const refusedBefore = bench.control.stats().rateLimited;
    const second = startChild([...common, String(after)]);
    await second.done;
    const times = [...first.created, ...second.created].sort((a, b) => a - b);
    return {
      rateLimitedAfterRestart: bench.control.stats().rateLimited - refusedBefore,
      lastCreateS: (times.at(-1)! - times[0]!) / 1000 / scale,
      creates: times.length,
    };
  } finally {
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runRestartBenchmark(options: RestartBenchOptions = {}): Promise<BenchResult> {
  const scale = options.scale ?? 0.25;
  const after = options.after ?? 20;
  const kept = await playRestart("sqlite", scale, after);
  const forgotten = await playRestart("memory", scale, after);
  const total = RATE_LIMITS.create.points + after;
  const floorS = Math.floor((total - 1) / RATE_LIMITS.create.points) * RATE_LIMITS.create.durationSeconds;
  const s = (v: number) => `${formatNumber(v, 1)} s`;
  const rows: BenchRow[] = [
    {
      benchmark: NAME,
      figure: `429s after kill -9, ${after} creates at once (budget in SQLite)`,
      value: String(kept.rateLimitedAfterRestart),
      baseline: `${forgotten.rateLimitedAfterRestart} (budget in memory, as before)`,
      ratio: "—",
      target: "0",
      met: yesNo(kept.rateLimitedAfterRestart === 0 && kept.creates === total),
    },
    {
      benchmark: NAME,
      figure: `${total} creates across the restart: last answered (budget in SQLite)`,
      value: s(kept.lastCreateS),
      baseline: `${s(floorS)} (floor: ${RATE_LIMITS.create.points} per ${RATE_LIMITS.create.durationSeconds} s)`,
      ratio: ratioOf(kept.lastCreateS, floorS),
      target: `≤ ${FLOOR_TARGET}× floor`,
      met: yesNo(kept.creates === total && kept.lastCreateS <= floorS * FLOOR_TARGET),
    },
    {
      benchmark: NAME,
      figure: `${total} creates across the restart: last answered (budget in memory, as before)`,
      value: s(forgotten.lastCreateS),
      baseline: `${s(floorS)} (floor)`,
      ratio: ratioOf(forgotten.lastCreateS, floorS),
      target: "—",
      met: "n/a",
    },
  ];
  return {
    benchmark: NAME,
    scale,
    notes: [
      `A first process fires ${RATE_LIMITS.create.points} creates, is killed with SIGKILL once they are answered, and a second on the same SQLite file fires ${after} at once. ` +
        `Both use the service client with the budget the embedded App uses (its takes written to SQLite before each request) or, for the baseline, one in memory. ` +
        `The 429s are the emulator's own count (its rate limits are real, on its time scale); a refused create is retried after a jittered backoff. ` +
        `The budgets allow ${MARGIN_MS} ms (real) for latency in each window, which the floor does not include. Times ÷ scale.`,
    ],
    rows,
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runRestartBenchmark());

/**
 * Runs every benchmark one after the other and prints one Markdown table; with `--write`, also
 * writes it to BENCHMARKS.md with the command, the date and the machine it ran on.
 *
 *   npm run bench               print the table
 *   npm run bench -- --write    print it and update BENCHMARKS.md
 *   npm run bench -- logs memory   only these (by name: cold-start, import, polling, burst, replicas, restart, logs, log-tail, memory, store, pacing, attachments, quotes, unsigned-post, malformed, tracing)
 *   npm run bench -- --write cold-start   re-run only these and replace their rows and sections in BENCHMARKS.md
 *                                         (the others stay as their last full run wrote them; the header says which were re-run, when)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { runAttachmentsBenchmark } from "./attachments.js";
import { runBurstBenchmark } from "./burst.js";
import { runColdStartBenchmark } from "./cold-start.js";
import { runImportBenchmark } from "./import.js";
import { ROOT } from "./lib/app.js";
import { formatNumber, markdownTable, printResult, type BenchResult, type BenchRow } from "./lib/report.js";
import { runLogTailBenchmark } from "./log-tail.js";
import { runLogsBenchmark } from "./logs.js";
import { runMalformedBenchmark } from "./malformed.js";
import { runMemoryBenchmark } from "./memory.js";
import { runPacingBenchmark } from "./pacing.js";
import { runPollingBenchmark } from "./polling.js";
import { runQuotesBenchmark } from "./quotes.js";
import { runReplicasBenchmark } from "./replicas.js";
import { runRestartBenchmark } from "./restart.js";
import { runStoreBenchmark } from "./store.js";
import { runTracingBenchmark } from "./tracing.js";
import { runWatchScaleBenchmark } from "./watch-scale.js";
import { runUnsignedPostBenchmark } from "./unsigned-post.js";

const BENCHMARKS: ReadonlyArray<{ name: string; title: string; run: () => Promise<BenchResult> }> = [
  { name: "cold-start", title: "cold start", run: () => runColdStartBenchmark() },
  { name: "import", title: "import", run: () => runImportBenchmark() },
  { name: "polling", title: "polling", run: () => runPollingBenchmark() },
  { name: "watch-scale", title: "watching an organization", run: () => runWatchScaleBenchmark() },
  { name: "burst", title: "burst", run: () => runBurstBenchmark() },
  { name: "replicas", title: "replicas", run: () => runReplicasBenchmark() },
  { name: "restart", title: "restart", run: () => runRestartBenchmark() },
  { name: "logs", title: "logs", run: () => runLogsBenchmark() },
  { name: "log-tail", title: "log tail", run: () => runLogTailBenchmark() },
  { name: "memory", title: "memory", run: () => runMemoryBenchmark() },
  { name: "store", title: "store", run: () => runStoreBenchmark() },
  { name: "pacing", title: "GitHub pacing", run: () => runPacingBenchmark() },
  { name: "attachments", title: "image attachments on hostile input", run: () => runAttachmentsBenchmark() },
  { name: "quotes", title: "trigger quotes on hostile input", run: () => runQuotesBenchmark() },
  { name: "unsigned-post", title: "unsigned POST", run: () => runUnsignedPostBenchmark() },
  { name: "malformed", title: "malformed deliveries", run: () => runMalformedBenchmark() },
  { name: "tracing", title: "tracing off and on", run: () => runTracingBenchmark() },
];

interface Machine {
  node: string;
  cpu: string;
  cores: number;
  memoryGiB: string;
  platform: string;
}

function machine(): Machine {
  const list = cpus();
  return {
    node: process.version,
    cpu: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memoryGiB: formatNumber(totalmem() / 1024 ** 3, 1),
    platform: `${process.platform} ${process.arch}`,
  };
}

function parseArguments(argv: readonly string[]): { write: boolean; only: string[] } {
  const names = new Set(BENCHMARKS.map((b) => b.name));
  const only: string[] = [];
  let write = false;
  for (const arg of argv) {
    if (arg === "--write") write = true;
    else if (names.has(arg)) only.push(arg);
    else throw new Error(`unknown argument "${arg}": use --write and/or benchmark names (${[...names].join(", ")})`);
  }
  return { write, only };
}

function failedResult(title: string, error: unknown): BenchResult {
  const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  const row: BenchRow = {
    benchmark: title,
    figure: "(did not complete)",
    value: `error: ${message}`,
    baseline: "—",
    ratio: "—",
    target: "—",
    met: "n/a",
  };
  return { benchmark: title, scale: null, notes: [`Failed: ${message}`], rows: [row] };
}

function renderDocument(results: readonly BenchResult[], command: string, startedAt: Date, seconds: number, host: Machine): string {
  const rows = results.flatMap((r) => r.rows);
  const sections = results.map((r) => {
    const scale =
      r.scale === null ? "no time scaling" : `time scale ${r.scale} (1 emulated second = ${formatNumber(r.scale * 1000)} ms real)`;
    return [`### ${r.benchmark} — ${scale}`, "", ...r.notes.map((n) => `- ${n}`)].join("\n");
  });
  return [
    "# Benchmarks",
    "",
    "Each figure is printed beside a baseline measured in the same run. Where the service's clock and rate windows are",
    "compressed (the emulator, the client's budget, the App's intervals and GitHub write pacing, all by one factor),",
    "times are converted back to real-world seconds. Targets are for reading, never asserted in tests.",
    "",
    `Command: \`${command}\` — ${startedAt.toISOString()}, ${formatNumber(seconds, 0)} s in all.`,
    `Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB, ${host.platform}, Node ${host.node}.`,
    "",
    markdownTable(rows),
    "",
    "## How each figure is measured",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

/**
 * The document with the re-run benchmarks' rows and "How each figure is measured" sections taken
 * from `fresh` (in place of their old ones), everything else as it was, and one header line saying
 * what was re-run, when and on what.
 */
function replaceBenchmarks(
  current: string,
  fresh: string,
  results: readonly BenchResult[],
  command: string,
  startedAt: Date,
  host: Machine,
): string {
  const titles = new Set(results.map((r) => r.benchmark));
  const rowOf = (line: string) => /^\| ([^|]+?) \|/.exec(line)?.[1];
  const freshRows = fresh.split("\n").filter((line) => titles.has(rowOf(line) ?? ""));
  const lines = current.split("\n");
  const firstOld = lines.findIndex((line) => titles.has(rowOf(line) ?? ""));
  const tableEnd = lines.findIndex((line, i) => i > lines.indexOf("|---|---|---|---|---|---|---|") && !line.startsWith("|"));
  const kept = lines.filter((line) => !titles.has(rowOf(line) ?? ""));
  // New rows where the old ones were, or at the end of the table for a benchmark it did not have.
  const at = firstOld >= 0 ? firstOld : tableEnd - (lines.length - kept.length);
  kept.splice(at, 0, ...freshRows);
  let document = kept.join("\n");
  for (const result of results) {
    const heading = new RegExp(`^### ${escapeRegExp(result.benchmark)} — .*$`, "m");
    const section = (text: string) => {
      const start = text.search(heading);
      if (start < 0) return null;
      // Up to the next heading after this one's own line.
      const body = text.indexOf("\n", start) + 1;
      const rest = text.slice(body).search(/^##/m);
      return { start, end: rest < 0 ? text.length : body + rest };
    };
    const next = section(fresh);
    if (!next) continue;
    const body = fresh.slice(next.start, next.end).trimEnd() + "\n\n";
    const old = section(document);
    document = old ? document.slice(0, old.start) + body + document.slice(old.end) : `${document.trimEnd()}\n\n${body}`;
  }
  const note = `Re-run alone: ${[...titles].join(", ")} with \`${command}\` — ${startedAt.toISOString()}, Node ${host.node} (the rest from the command above).`;
  return document.replace(/^Re-run alone: .*\n/m, "").replace(/^(Machine: .*)$/m, `$1\n${note}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function runAll(argv: readonly string[]): Promise<BenchResult[]> {
  const { write, only } = parseArguments(argv);
  const selected = only.length > 0 ? BENCHMARKS.filter((b) => only.includes(b.name)) : BENCHMARKS;
  const startedAt = new Date();
  const began = performance.now();
  const results: BenchResult[] = [];
  for (const bench of selected) {
    const t = performance.now();
    console.error(`running ${bench.name}…`);
    let result: BenchResult;
    try {
      result = await bench.run();
    } catch (error) {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      result = failedResult(bench.title, error);
      process.exitCode = 1;
    }
    results.push(result);
    printResult(result);
    console.error(`${bench.name}: ${formatNumber((performance.now() - t) / 1000, 1)} s`);
  }
  const seconds = (performance.now() - began) / 1000;
  const host = machine();
  console.log(`\n# All benchmarks (${formatNumber(seconds, 0)} s; ${host.cpu}, ${host.cores} cores, Node ${host.node})\n`);
  console.log(markdownTable(results.flatMap((r) => r.rows)));
  if (write) {
    const command = `npm run bench -- ${["--write", ...only].join(" ")}`;
    const file = join(ROOT, "BENCHMARKS.md");
    const fresh = renderDocument(results, command, startedAt, seconds, host);
    writeFileSync(file, only.length > 0 ? replaceBenchmarks(readFileSync(file, "utf8"), fresh, results, command, startedAt, host) : fresh);
    console.log(`\nwrote ${file}`);
  }
  return results;
}

runAll(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});

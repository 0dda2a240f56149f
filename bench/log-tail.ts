/**
 * Reading a failing job's log for a CI-fix prompt: peak memory of a process that reads a 256 MiB
 * log against one that reads a 1 MiB log, both through the fake GitHub's 302 to a signed download
 * that makes the log as it sends it. The download serves byte ranges as GitHub's blob storage does,
 * so the read asks for the tail alone (src/github/job-log.ts); then the same reads from a download
 * that ignores ranges, where the log is read as a stream that keeps its tail. Each read runs in a
 * child process of its own (plain node, the Action's client bundled by esbuild) and reports its own
 * peak RSS (`process.resourceUsage().maxRSS`). Beside them, in the same run: Node's floor for
 * receiving that many bytes over HTTP at all (node:http dropping every chunk), the streamed read of
 * a 1 GiB log, and the former read (the body read whole, then its tail cut).
 *
 * `npx tsx bench/log-tail.ts`
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { startFakeGitHub } from "../test/helpers/fake-github/index.js";
import { DEFAULT_MAX_LOG_BYTES } from "../src/github/checks.js";
import { ROOT } from "./lib/app.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";

const NAME = "log tail";
const MIB = 1024 * 1024;
/** Job ids of the fake's failing jobs, by the size of their log. */
const JOBS = { small: { id: 11, bytes: 1 * MIB }, large: { id: 12, bytes: 256 * MIB }, huge: { id: 13, bytes: 1024 * MIB } } as const;
const LAST_LINE = "##[error]Process completed with exit code 1.";
/** The Action's tail for its default prompt limits (logExcerptChars × 2). */
const MAX_BYTES = DEFAULT_MAX_LOG_BYTES;
const TARGET_RATIO = 1.2;

/** read: `readFailedJobLogs` (ranged or streamed, as the download answers); whole: the former read; floor: node:http dropping every byte. */
type Mode = "read" | "whole" | "floor";

interface ChildReport {
  maxRssBytes: number;
  tailEnd: string;
}

/** `bytes` of build output in 64 KiB chunks made as they are sent, then the failure. */
async function* failingLog(bytes: number): AsyncGenerator<Uint8Array> {
  const chunk = Buffer.from("ok   compiled a module of the project without a problem\n".repeat(1170).padEnd(64 * 1024, "."));
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
  yield Buffer.from(`\nFAIL src/dates.test.ts\n${LAST_LINE}\n`);
}

async function bundleChild(dir: string): Promise<string> {
  const outfile = join(dir, "log-tail-child.mjs");
  await build({
    entryPoints: [join(ROOT, "bench", "lib", "log-tail-child.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "silent",
    banner: {
      js: 'import { createRequire as __bundleCreateRequire } from "node:module";\nconst require = __bundleCreateRequire(import.meta.url);',
    },
  });
  return outfile;
}

async function peakRss(child: string, apiUrl: string, jobId: number, mode: Mode): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [child, apiUrl, String(jobId), String(MAX_BYTES), mode], {
    maxBuffer: MIB,
  });
  const report = JSON.parse(stdout) as ChildReport;
  if (!report.tailEnd.includes(LAST_LINE))
    throw new Error(`the ${mode} read of job ${jobId} did not end with the log's last line: ${report.tailEnd}`);
  return report.maxRssBytes;
}

const mb = (bytes: number) => `${formatNumber(bytes / 1e6, 1)} MB`;

/** The row for one way of reading the tail: its peak RSS on the 256 MiB log against the same read of the 1 MiB log. */
const tailRow = (how: string, read: { small: number; large: number }): BenchRow => ({
  benchmark: NAME,
  figure: `peak RSS reading a 256 MiB job log for its last ${formatNumber(MAX_BYTES)} bytes (${how})`,
  value: mb(read.large),
  baseline: `${mb(read.small)} (a 1 MiB log, same read)`,
  ratio: ratioOf(read.large, read.small),
  target: `≤ ${TARGET_RATIO}×`,
  met: yesNo(read.large / read.small <= TARGET_RATIO),
});

export async function runLogTailBenchmark(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), "bench-log-tail-"));
  const github = await startFakeGitHub({
    seed: {
      repositories: [{ owner: "acme", name: "widgets" }],
      workflowRuns: [
        {
          id: 10,
          head_branch: "main",
          head_sha: "a".repeat(40),
          jobs: Object.entries(JOBS).map(([name, job]) => ({
            id: job.id,
            name,
            conclusion: "failure" as const,
            log: () => failingLog(job.bytes),
          })),
        },
      ],
    },
  });
  try {
    const child = await bundleChild(dir);
    const read = (job: keyof typeof JOBS, mode: Mode) => peakRss(child, github.url, JOBS[job].id, mode);
    /** The log bytes the download sent for the reads since `from`. */
    const bytesSentSince = (from: number) => github.state.jobLogDownloads.slice(from).reduce((sum, d) => sum + d.bytesSent, 0);
    github.state.jobLogRanges = true;
    const sentBefore = github.state.jobLogDownloads.length;
    const ranged = { small: await read("small", "read"), large: await read("large", "read") };
    const rangedSent = bytesSentSince(sentBefore);
    github.state.jobLogRanges = false;
    const stream = { small: await read("small", "read"), large: await read("large", "read"), huge: await read("huge", "read") };
    const floor = { large: await read("large", "floor") };
    const whole = { small: await read("small", "whole"), large: await read("large", "whole") };
    const rows: BenchRow[] = [
      tailRow("ranged: the download serves ranges, as GitHub's does", ranged),
      {
        benchmark: NAME,
        figure: "log bytes the download sent for those two ranged reads (size probe + tail, each)",
        value: `${formatNumber(rangedSent, 0)} B`,
        baseline: `${formatNumber(JOBS.small.bytes + JOBS.large.bytes, 0)} B (the two logs)`,
        ratio: ratioOf(rangedSent, JOBS.small.bytes + JOBS.large.bytes, 6),
        target: `≤ 2 × (${formatNumber(MAX_BYTES)} + 1) B`,
        met: yesNo(rangedSent <= 2 * (MAX_BYTES + 1)),
      },
      tailRow("streamed: the download ignores ranges", stream),
      {
        benchmark: NAME,
        figure: "the same streamed read of 256 MiB against Node's floor for receiving 256 MiB over HTTP (node:http dropping every chunk)",
        value: mb(stream.large),
        baseline: `${mb(floor.large)} (floor)`,
        ratio: ratioOf(stream.large, floor.large),
        target: `≤ ${TARGET_RATIO}× (the reader adds nothing that grows)`,
        met: yesNo(stream.large / floor.large <= TARGET_RATIO),
      },
      {
        benchmark: NAME,
        figure: "peak RSS reading a 1 GiB job log (streamed)",
        value: mb(stream.huge),
        baseline: `${mb(stream.large)} (256 MiB)`,
        ratio: ratioOf(stream.huge, stream.large),
        target: `≤ ${TARGET_RATIO}× (flat)`,
        met: yesNo(stream.huge / stream.large <= TARGET_RATIO),
      },
      {
        benchmark: NAME,
        figure: "peak RSS reading a 256 MiB job log, the body read whole first (before; over Node's fetch)",
        value: mb(whole.large),
        baseline: `${mb(whole.small)} (a 1 MiB log, same read)`,
        ratio: ratioOf(whole.large, whole.small),
        target: "—",
        met: "n/a",
      },
    ];
    return {
      benchmark: NAME,
      scale: null,
      notes: [
        "The fake GitHub answers the job-log request with a 302 to a signed download on loopback, which makes the log as it sends it (64 KiB chunks of build output, then the failure's lines); every read checks that its tail ends with the log's last line.",
        "Ranged: the download honours byte ranges as Azure Blob Storage (where GitHub's job logs live) does; the reader asks for byte 0 (its answer's Content-Range gives the log's size), then for the last bytes it keeps. Streamed: the same download with ranges ignored (200, the whole log), the fallback for a server without ranges.",
        `Each read is one child process (plain node; bench/lib/log-tail-child.ts bundled by esbuild: @octokit/core over src/http/node-fetch.ts, as the Action), reporting its own peak RSS; the tail kept is ${formatNumber(MAX_BYTES)} bytes (the Action's default).`,
        "What rises from 1 MiB to 256 MiB when streamed is Node's own: every socket read allocates a fresh buffer, and the dead ones wait for the next collection (V8 collects on external-memory pressure, about every 10 MB here), so the floor row measures node:http alone receiving the same bytes and dropping them. The reader holds its tail and nothing else: beyond the floor it stays flat up to 1 GiB.",
      ],
      rows,
    };
  } finally {
    await github.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (isMainModule(import.meta.url)) runAsScript(runLogTailBenchmark);

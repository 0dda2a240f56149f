/**
 * Malformed deliveries: resident memory (RSS) of the App process after 1,500 correctly signed
 * deliveries with malformed payloads (test/helpers/malformed-payloads.ts: real payloads of every
 * subscribed event with the installation, repository or sender dropped or mistyped, numbers as text,
 * nulls, lists for objects, nesting up to 5,000 levels, huge strings, bodies that are not an object
 * or not JSON), each against well-formed deliveries of the same body sizes that the App takes and
 * ignores, measured in the same run. Two pairs: huge strings up to 64 KiB (what malformation itself
 * costs) and up to 2 MiB (what large bodies cost, malformed or not). Each batch goes to a fresh App
 * process, logging at info and with V8's heap flags as deployed; RSS is read after a full
 * collection, before the batch and once the App has settled after it. Issue 34 measured 77 MB more
 * after its malformed batch (and 32 answers of 500) before the App refused such deliveries at intake.
 *
 * `npx tsx bench/malformed.ts`
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_EVENTS } from "../src/app/probot-app.js";
import { everyExample } from "../test/helpers/app-payloads.js";
import { startFakeGitHub } from "../test/helpers/fake-github/index.js";
import { malformedDeliveries, type MalformedDelivery } from "../test/helpers/malformed-payloads.js";
import { postDelivery } from "../test/helpers/app-harness.js";
import { OWNER, REPO, REPO_ID, WEBHOOK_SECRET, appAvailable, appEnvAsDeployed, buildAppProcess, startAppProcess } from "./lib/app.js";
import { formatNumber, isMainModule, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { startBenchEmulator } from "./lib/service.js";
import type { MemorySample } from "./lib/app-process.js";
import { sleep } from "./lib/stats.js";

const NAME = "malformed deliveries";
const COUNT = 1_500;
const SEED = 20_261_128;
const CONCURRENCY = 4;
/** What an idle App settles to before the first reading, and what it needs after a batch (its queue drained). */
const SETTLE_MS = 3_000;
const TARGET_RISE_BYTES = 40e6;
/** As deployed (`npm start`, docs/operations.md "Memory"): without them V8 grows its young generation under a burst. */
const APP_NODE_ARGS = ["--max-semi-space-size=4", "--max-old-space-size=512"];

const mb = (bytes: number) => `${formatNumber(bytes / 1e6, 1)} MB`;

/** Strings up to 64 KiB: what the malformations themselves cost, apart from the size of the bodies. */
const SMALL_STRINGS = [64 * 1024];

/**
 * The unchanged examples of every subscribed event, in turn: deliveries the App takes and ignores (none
 * is a trigger). With `padding`, the i-th carries a string of that many bytes in a field the App does not
 * read: as large as the i-th malformed delivery's huge strings, well formed.
 */
function* wellFormed(count: number, padding: readonly number[] = []): Generator<MalformedDelivery> {
  const examples = APP_EVENTS.map((event) => ({ event, payloads: everyExample(event) }));
  for (let i = 0; i < count; i++) {
    const { event, payloads } = examples[i % examples.length]!;
    const payload = payloads[Math.floor(i / examples.length) % payloads.length]!;
    const bytes = padding[i] ?? 0;
    const body = JSON.stringify(bytes > 0 ? { ...payload, padding: "x".repeat(bytes) } : payload);
    yield { event, body, mutations: [], hugeStringBytes: bytes };
  }
}

/** The answer's status, or "no answer" when the connection failed (the App crashed, say). */
async function post(webhookUrl: string, delivery: MalformedDelivery, id: string): Promise<number | "no answer"> {
  return postDelivery(webhookUrl, delivery.event, delivery.body, id, WEBHOOK_SECRET).catch(() => "no answer" as const);
}

interface BatchFigure {
  before: MemorySample;
  after: MemorySample;
  statuses: Record<string, number>;
  seconds: number;
}

/** A fresh App process: its RSS after a full collection, the batch, then its RSS again once settled. */
async function measureBatch(bundle: string, batch: Iterable<MalformedDelivery>, label: string): Promise<BatchFigure> {
  const github = await startFakeGitHub({ seed: { repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }] } });
  const emulator = await startBenchEmulator({ timeScale: 1 });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-bench-malformed-"));
  const app = await startAppProcess(bundle, appEnvAsDeployed({ githubUrl: github.url, serviceUrl: emulator.url, dataDir }), APP_NODE_ARGS);
  try {
    await sleep(SETTLE_MS);
    const before = (await app.memory({ afterGc: true })).afterGc!;
    const statuses: Record<string, number> = {};
    const deliveries = batch[Symbol.iterator]();
    let index = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let next = deliveries.next(); !next.done; next = deliveries.next()) {
          const status = await post(app.webhookUrl, next.value, `${label}-${index++}`);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await sleep(SETTLE_MS);
    const after = (await app.memory({ afterGc: true })).afterGc!;
    return { before, after, statuses, seconds };
  } finally {
    await app.stop();
    await emulator.close();
    await github.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The rise split the way the OS and V8 see it. */
function composition({ before, after }: BatchFigure): string {
  const delta = (read: (sample: MemorySample) => number | null) => {
    const a = read(after);
    const b = read(before);
    return a === null || b === null ? "n/a" : mb(a - b);
  };
  return `heap used ${delta((s) => s.heapUsed)}, external ${delta((s) => s.external)}, new space ${delta((s) => s.newSpace)}, old space ${delta((s) => s.oldSpace)}, anonymous RSS ${delta((s) => s.anonRss)}, file RSS ${delta((s) => s.fileRss)}`;
}

const answers = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${count}× ${status}`)
    .join(", ");

const signed = (rise: number) => `${rise >= 0 ? "+" : ""}${mb(rise)}`;
const riseOf = (batch: BatchFigure) => batch.after.rss - batch.before.rss;

/** One row: a malformed batch against the well-formed one of the same body sizes. */
function row(figure: string, malformed: BatchFigure, baseline: BatchFigure, baselineWhat: string): BenchRow {
  const rise = riseOf(malformed);
  const serverErrors = Object.keys(malformed.statuses).filter((status) => !(Number(status) < 500)).length;
  return {
    benchmark: NAME,
    figure,
    value: `${mb(malformed.after.rss)} (${signed(rise)} from ${mb(malformed.before.rss)}; ${answers(malformed.statuses)})`,
    baseline: `${signed(riseOf(baseline))} after ${formatNumber(COUNT, 0)} ${baselineWhat} (${answers(baseline.statuses)})`,
    ratio: "—",
    target: `rise ≤ ${mb(TARGET_RISE_BYTES)}, no 5xx`,
    met: yesNo(rise <= TARGET_RISE_BYTES && serverErrors === 0),
  };
}

export async function runMalformedBenchmark(): Promise<BenchResult> {
  const figure = `App RSS after ${formatNumber(COUNT, 0)} signed malformed deliveries`;
  if (!appAvailable())
    return {
      benchmark: NAME,
      scale: null,
      rows: [unavailableRow(NAME, figure, "the App is not built", `rise ≤ ${mb(TARGET_RISE_BYTES)}, no 5xx`)],
      notes: [],
    };
  const bundle = await buildAppProcess();
  const malformed = (hugeSizes?: readonly number[]) =>
    malformedDeliveries({ seed: SEED, count: COUNT, events: APP_EVENTS, ...(hugeSizes ? { hugeSizes } : {}) });
  // The same deliveries' huge strings, for a well-formed batch of the same body sizes.
  const padding = [...malformed()].map((delivery) => delivery.hugeStringBytes);
  const plain = await measureBatch(bundle, wellFormed(COUNT), "well-formed");
  const small = await measureBatch(bundle, malformed(SMALL_STRINGS), "malformed-small");
  const padded = await measureBatch(bundle, wellFormed(COUNT, padding), "well-formed-padded");
  const large = await measureBatch(bundle, malformed(), "malformed");
  const largeBytes = padding.reduce((sum, bytes) => sum + bytes, 0);
  const rows = [
    row(`${figure}, strings up to 64 KiB`, small, plain, "well-formed ignored"),
    row(`${figure}, strings up to 2 MiB`, large, padded, "well-formed ignored carrying the same strings"),
  ];
  const notes = [
    `Each batch goes to a fresh App process (bench/lib/app-process.ts, bundled, embedded store, ${APP_NODE_ARGS.join(" ")} as npm start passes them), logging at info; ${CONCURRENCY} deliveries in flight at a time. RSS is read after a full collection ${SETTLE_MS / 1000} s after start, and again ${SETTLE_MS / 1000} s after the batch's last answer.`,
    `The malformed batches are test/helpers/malformed-payloads.ts with seed ${SEED} (the fuzz test's generator): real payloads of ${APP_EVENTS.join(", ")} with one to three mutations each, the same mutations in both, the huge strings up to 64 KiB in the first and up to 2 MiB in the second (${mb(largeBytes)} of them in all). The well-formed batches are the unchanged examples, which the App takes and ignores; the second carries, in a field the App does not read, a string as long as the same delivery's in the malformed batch.`,
    `Batch times: malformed ${formatNumber(small.seconds, 1)} s and ${formatNumber(large.seconds, 1)} s, well-formed ${formatNumber(plain.seconds, 1)} s and ${formatNumber(padded.seconds, 1)} s.`,
    `Where it went (after − before, after a full collection): malformed, strings up to 64 KiB: ${composition(small)}; up to 2 MiB: ${composition(large)}; well-formed: ${composition(plain)}; well-formed with the same strings: ${composition(padded)}.`,
    'Issue 34 measured +77 MB and 32 answers of 500 for 1,500 such deliveries before the App refused them at intake (a 2,000-level payload logged "Maximum copy depth of 1000 exceeded").',
  ];
  return { benchmark: NAME, scale: null, rows, notes };
}

if (isMainModule(import.meta.url)) runAsScript(() => runMalformedBenchmark());

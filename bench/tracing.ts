/**
 * What tracing costs a step of the App: `withSpan` around an async function with tracing off (what
 * every seam pays by default) and on (the SDK, batching to an OTLP/HTTP receiver on loopback), against
 * calling the function directly, in the same run; and how many modules a process loads to import the
 * App with tracing off against the modules it loads once the SDK is imported too.
 *
 * `npx tsx bench/tracing.ts`
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { moduleLoadsOf } from "../test/helpers/module-loads.js";
import { installTracing, withSpan } from "../src/app/ops/tracing.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult } from "./lib/report.js";
import { median } from "./lib/stats.js";

const NAME = "tracing";
const CALLS = 200_000;
const ROUNDS = 5;
const ROOT = fileURLToPath(new URL("../", import.meta.url));

const step = async (n: number) => n + 1;

/** Nanoseconds per call of `call`, the median of ROUNDS rounds of CALLS sequential awaits. */
async function nsPerCall(call: (n: number) => Promise<number>): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    let n = 0;
    for (let i = 0; i < CALLS; i++) n = await call(n);
    rounds.push(Number(process.hrtime.bigint() - started) / CALLS);
  }
  return median(rounds);
}

export async function runTracingBenchmark(): Promise<BenchResult> {
  const direct = await nsPerCall(step);
  const off = await nsPerCall((n) => withSpan("bench", { "bridge.task.id": n }, () => step(n)));

  // Tracing on: every span exported (always_on) to a receiver that answers 200 and drops them.
  const receiver = createServer((req, res) => req.resume().on("end", () => res.writeHead(200).end("{}")));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { startTracing } = await import("../src/app/ops/otel.js");
  const stop = installTracing(
    startTracing({
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`,
      headers: {},
      serviceName: "bench",
      resourceAttributes: {},
      sampler: "always_on",
      samplerRatio: 1,
    }),
  );
  const on = await nsPerCall((n) => withSpan("bench", { "bridge.task.id": n }, () => step(n)));
  await stop();
  receiver.close();

  const importOff = await moduleLoadsOf('await import("./src/app/main.ts");', ROOT, { NODE_OPTIONS: "--import tsx" });
  const importOn = await moduleLoadsOf('await import("./src/app/main.ts"); await import("./src/app/ops/otel.ts");', ROOT, {
    NODE_OPTIONS: "--import tsx",
  });
  const otelOff = importOff.packages.filter((name) => name.startsWith("@opentelemetry/")).length;

  return {
    benchmark: NAME,
    scale: null,
    notes: [
      `${CALLS.toLocaleString("en-US")} sequential awaits of an async step, median of ${ROUNDS} rounds; baseline: the step called directly.`,
      "On: the SDK with always_on, batching spans to an OTLP/HTTP receiver on loopback.",
      "Modules: what `import('./src/app/main.ts')` loads (under tsx) with tracing off; baseline: with ops/otel.ts imported too, as OTEL_TRACES_EXPORTER=otlp does.",
    ],
    rows: [
      {
        benchmark: NAME,
        figure: "a step in withSpan, tracing off (ns/call)",
        value: formatNumber(off),
        baseline: formatNumber(direct),
        ratio: ratioOf(off, direct),
        // A step awaits GitHub, Redis or the service (milliseconds): under a microsecond per seam is nothing beside it.
        target: "< 1,000 ns more than direct",
        met: yesNo(off - direct < 1_000),
      },
      {
        benchmark: NAME,
        figure: "a step in withSpan, tracing on (ns/call)",
        value: formatNumber(on),
        baseline: formatNumber(direct),
        ratio: ratioOf(on, direct),
        target: "—",
        met: "n/a",
      },
      {
        benchmark: NAME,
        figure: "@opentelemetry packages loaded by the App with tracing off",
        value: String(otelOff),
        baseline: String(importOn.packages.filter((name) => name.startsWith("@opentelemetry/")).length),
        ratio: "—",
        target: "0",
        met: yesNo(otelOff === 0),
      },
      {
        benchmark: NAME,
        figure: "modules loaded by the App, tracing off",
        value: formatNumber(importOff.modules.length),
        baseline: formatNumber(importOn.modules.length),
        ratio: ratioOf(importOff.modules.length, importOn.modules.length),
        target: "—",
        met: "n/a",
      },
    ],
  };
}

if (isMainModule(import.meta.url)) runAsScript(runTracingBenchmark);

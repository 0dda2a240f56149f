/**
 * Lists the functions the Action's start calls before its create request, for the build's compile
 * hints (scripts/compile-hints.mjs says what they do and why): one start of dist/index.js as
 * bench/cold-start.ts times it, on Node 24 as on a runner, with V8's precise coverage taken when the
 * create request starts. Every called function a hint can apply to is written to
 * scripts/compile-hints.json by where it starts in the sources; `npm run build:action` then applies them.
 *
 *   npx tsx bench/compile-hints.ts     (after changing what a start runs; a stale hint only misses)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { preloadAtCreate } from "../test/helpers/create-preload.js";
import { ensureNode24, startActionOnce } from "./cold-start.js";
import { hintableFunctions, parseModule, sourceKeys } from "../scripts/compile-hints.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const HINTS_FILE = join(ROOT, "scripts", "compile-hints.json");

interface ScriptCoverage {
  url: string;
  functions: Array<{ ranges: Array<{ startOffset: number; count: number }> }>;
}

/** A preload that starts V8's precise coverage and writes it to `file` when the create request starts. */
function coveragePreload(file: string): string {
  return [
    'const inspector = require("node:inspector");',
    "const session = new inspector.Session();",
    "session.connect();",
    'session.post("Profiler.enable");',
    'session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });',
    preloadAtCreate(
      `session.post("Profiler.takePreciseCoverage", (error, taken) => { if (!error) require("node:fs").writeFileSync(${JSON.stringify(file)}, JSON.stringify(taken.result.filter((s) => s.url.startsWith("file:")))); });`,
    ),
  ].join("\n");
}

/** The source keys of the functions each bundle file ran before the create. */
function calledFunctions(coverage: ScriptCoverage[]): string[] {
  const keys = new Set<string>();
  for (const script of coverage) {
    const file = fileURLToPath(script.url);
    if (!file.startsWith(join(ROOT, "dist"))) continue;
    const code = readFileSync(file, "utf8");
    const keyAt = sourceKeys(code, JSON.parse(readFileSync(`${file}.map`, "utf8")) as object);
    const called = new Set(script.functions.filter((f) => f.ranges[0]!.count > 0).map((f) => f.ranges[0]!.startOffset));
    for (const { node } of hintableFunctions(parseModule(code))) {
      const key = called.has(node.start) ? keyAt(node.start) : null;
      if (key) keys.add(key);
    }
  }
  return [...keys].sort();
}

const workdir = mkdtempSync(join(tmpdir(), "arb-compile-hints-"));
try {
  const coverageFile = join(workdir, "coverage.json");
  const preload = join(workdir, "coverage-at-create.cjs");
  writeFileSync(preload, coveragePreload(coverageFile));
  await startActionOnce(ensureNode24(), join(ROOT, "dist", "index.js"), ["--require", preload]);
  const keys = calledFunctions(JSON.parse(readFileSync(coverageFile, "utf8")) as ScriptCoverage[]);
  writeFileSync(HINTS_FILE, `${JSON.stringify(keys, null, 2)}\n`);
  console.log(`${keys.length} functions called before the create request → ${HINTS_FILE}; rebuild with npm run build:action`);
} finally {
  rmSync(workdir, { recursive: true, force: true });
}

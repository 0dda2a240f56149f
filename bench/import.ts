/**
 * What importing the package costs: `node -e "import('agent-run-bridge')"` (and `…/emulator`) from
 * spawn to exit, against `node -e ""` on the same machine, spawns interleaved; and how many packages
 * each import loads (one more start under test/helpers/record-loads.mjs, not timed).
 *
 * `npx tsx bench/import.ts`                      this checkout's lib/ (npm run build:lib first)
 * `npx tsx bench/import.ts --root <dir>`         another build: a directory with package.json, lib/ and node_modules
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { moduleLoadsOf } from "../test/helpers/module-loads.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { median } from "./lib/stats.js";

export interface ImportBenchOptions {
  /** Measured spawns of each kind (after one warm-up of each). */
  samples?: number;
  /** The package directory whose lib/ is imported (by name, through its package.json's exports); default this checkout. */
  root?: string;
}

const NAME = "import";
const ENTRIES = ["agent-run-bridge", "agent-run-bridge/emulator"] as const;
/** What the client and an emulator not yet started must not load: the App's and the emulator's server stack. */
const SERVER_STACK = ["probot", "better-sqlite3", "ioredis", "bullmq", "fastify", "pino", "prom-client"];
/** A spawn that takes longer than this is broken, not slow. */
const SPAWN_TIMEOUT_MS = 30_000;

/** Spawn → exit of `node -e <code>` in `cwd`, in ms. */
function timedNode(code: string, cwd: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", code], { cwd, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node -e ${JSON.stringify(code)} did not exit within ${SPAWN_TIMEOUT_MS} ms`));
    }, SPAWN_TIMEOUT_MS);
    child.once("error", reject);
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      if (exitCode === 0) resolvePromise(performance.now() - started);
      else reject(new Error(`node -e ${JSON.stringify(code)} exited with ${exitCode}: ${stderr}`));
    });
  });
}

const importCode = (entry: string) => `import(${JSON.stringify(entry)})`;
const ms = (value: number) => `${formatNumber(value, 1)} ms`;

export async function runImportBenchmark(options: ImportBenchOptions = {}): Promise<BenchResult> {
  const samples = options.samples ?? 30;
  const root = resolve(options.root ?? join(import.meta.dirname, ".."));
  if (!existsSync(join(root, "lib", "index.js"))) {
    return {
      benchmark: NAME,
      scale: null,
      notes: [`${join(root, "lib")} is not built: run \`npm run build:lib\` first.`],
      rows: ENTRIES.map((entry) =>
        unavailableRow(NAME, `import("${entry}"): spawn → exit (median)`, "lib/ is missing (npm run build:lib)", "—"),
      ),
    };
  }

  const kinds = [{ label: 'node -e ""', code: "" }, ...ENTRIES.map((entry) => ({ label: entry, code: importCode(entry) }))];
  for (const kind of kinds) await timedNode(kind.code, root);
  const times = new Map<string, number[]>(kinds.map((kind) => [kind.label, []]));
  // Interleaved, so that whatever else the machine does falls on every kind alike.
  for (let i = 0; i < samples; i++) for (const kind of kinds) times.get(kind.label)!.push(await timedNode(kind.code, root));
  const bare = median(times.get('node -e ""')!);

  const rows: BenchRow[] = [];
  const notes = [
    `${samples} spawns of each kind after one warm-up, interleaved; spawn → exit, median. Each imports the package by name from ${root} (self-reference through its package.json's exports, as a user's import resolves), Node ${process.version}.`,
    "Packages loaded: one more start of each under test/helpers/record-loads.mjs (a resolve hook for ES modules, the require cache for CommonJS), counting the distinct node_modules packages.",
  ];
  for (const entry of ENTRIES) {
    const value = median(times.get(entry)!);
    const { packages } = await moduleLoadsOf(`await ${importCode(entry)};`, root);
    const heavy = packages.filter((name) => SERVER_STACK.includes(name));
    notes.push(`import("${entry}") loads ${packages.length} package${packages.length === 1 ? "" : "s"}: ${packages.join(", ") || "none"}.`);
    rows.push({
      benchmark: NAME,
      figure: `import("${entry}"): spawn → exit (median)`,
      value: ms(value),
      baseline: `${ms(bare)} (node -e "")`,
      ratio: ratioOf(value, bare),
      target: "—",
      met: "n/a",
    });
    rows.push({
      benchmark: NAME,
      figure: `import("${entry}"): packages loaded`,
      value: String(packages.length),
      baseline: '0 (node -e "")',
      ratio: "—",
      target: `none of ${SERVER_STACK.join(", ")}`,
      met: yesNo(heavy.length === 0),
    });
  }
  return { benchmark: NAME, scale: null, notes, rows };
}

function argumentsOf(argv: readonly string[]): ImportBenchOptions {
  const options: ImportBenchOptions = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--root" && argv[i + 1]) options.root = argv[++i];
    else if (argv[i] === "--samples" && argv[i + 1]) options.samples = Number(argv[++i]);
    else throw new Error(`unknown argument "${argv[i]}": use --root <dir> and/or --samples <n>`);
  }
  return options;
}

if (isMainModule(import.meta.url)) runAsScript(() => runImportBenchmark(argumentsOf(process.argv.slice(2))));

/**
 * What a `node` child process loads while it runs some code: every module (test/helpers/record-loads.mjs
 * records them) and the packages they belong to. For the tests and the benchmark that keep the
 * package's entry points light.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const RECORD_LOADS = fileURLToPath(new URL("./record-loads.mjs", import.meta.url));

export interface ModuleLoads {
  /** Every module URL (ES modules) or path (CommonJS and native addons), once each. */
  modules: string[];
  /** The packages those modules belong to (the innermost node_modules/<name>), sorted. */
  packages: string[];
}

/** `…/node_modules/a/node_modules/@s/b/x.js` → `@s/b`; null outside node_modules. */
export function packageOf(module: string): string | null {
  const matches = [...module.matchAll(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)];
  return matches.at(-1)?.[1] ?? null;
}

/** Runs `code` as an ES module (`node --input-type=module -e`) in `cwd` and reports what it loaded. */
export async function moduleLoadsOf(code: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<ModuleLoads> {
  const dir = mkdtempSync(join(tmpdir(), "arb-loads-"));
  const file = join(dir, "loads.txt");
  try {
    await run(process.execPath, ["--import", RECORD_LOADS, "--input-type=module", "-e", code], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env, RECORD_LOADS_FILE: file },
      timeout: 30_000,
    });
    const modules = [...new Set(readFileSync(file, "utf8").split("\n").filter(Boolean))];
    const packages = [...new Set(modules.flatMap((module) => packageOf(module) ?? []))].sort();
    return { modules, packages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

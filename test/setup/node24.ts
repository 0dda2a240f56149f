/**
 * Vitest's global setup for the runtime the App's end-to-end tests start the App on: Node 24, the
 * image's and the Action's runtime, whatever Node runs vitest. Node 24 comes from the npm registry
 * (scripts/ensure-node24.mjs) and better-sqlite3's binding is compiled for it once
 * (scripts/ensure-sqlite-node24.mjs, a minute or two on a fresh clone; cached in .cache/ after).
 * test/helpers/app-process.ts reads both with `inject`.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Node 24 binary the App's child processes run on. */
    appNode: string;
    /** better-sqlite3's binding compiled for it (AGENT_RUN_TEST_SQLITE_BINDING of test/helpers/node24/preload.mjs). */
    appSqliteBinding: string;
  }
}

/** Runs one of the scripts the way CI does, and returns the path it prints. */
async function pathFrom(script: string): Promise<string> {
  const file = fileURLToPath(new URL(`../../scripts/${script}`, import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 600_000 });
  return stdout.trim();
}

export default async function setupNode24(project: TestProject): Promise<void> {
  project.provide("appNode", await pathFrom("ensure-node24.mjs"));
  project.provide("appSqliteBinding", await pathFrom("ensure-sqlite-node24.mjs"));
}

/**
 * The App's end-to-end tests run the App on Node 24, the container image's and the Action's runtime,
 * whatever Node runs vitest: the child process is Node 24 (read from the kernel, not from how it was
 * started), and the embedded backend opens its SQLite file there, with better-sqlite3 compiled for it
 * (scripts/ensure-sqlite-node24.mjs, loaded by test/helpers/node24/preload.mjs).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAppChildWorld } from "../../helpers/app-child-world.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(process.platform === "linux")("the App under test runs on Node 24", () => {
  it("its process is Node 24, and its SQLite store works there", async () => {
    const { app } = await startAppChildWorld({ seed: {}, cleanups });
    const binary = readlinkSync(`/proc/${app.pid}/exe`);
    expect(execFileSync(binary, ["--version"], { encoding: "utf8" })).toMatch(/^v24\./);
    // Listening means the store opened: the embedded backend's database file is in DATA_DIR.
    const environ = readFileSync(`/proc/${app.pid}/environ`, "utf8");
    const dataDir = /(?:^|\0)DATA_DIR=([^\0]+)/.exec(environ)?.[1];
    expect(dataDir).toBeDefined();
    expect(existsSync(join(dataDir!, "bridge.sqlite"))).toBe(true);
    expect(app.stderr()).not.toMatch(/NODE_MODULE_VERSION|ExperimentalWarning/);
  });
});

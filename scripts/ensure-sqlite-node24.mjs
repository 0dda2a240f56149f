#!/usr/bin/env node
/**
 * Prints the path of a `better-sqlite3` native binding compiled for Node 24, compiling it once into
 * .cache/ (about a minute on two cores), so that the App's end-to-end tests can run the App on Node 24
 * (the image's and the Action's runtime) while node_modules holds the binding of the Node that ran
 * `npm ci`. The App's child processes load it through test/helpers/node24/preload.mjs
 * (better-sqlite3's `nativeBinding` option); node_modules is never touched.
 *
 *   node scripts/ensure-sqlite-node24.mjs   → /…/.cache/node24-sqlite/<version>-abi<N>/better_sqlite3.node
 *
 * It compiles the installed package's own sources (binding.gyp, src/, deps/: the same version as the
 * lockfile's) with node-gyp against the headers inside the Node 24 package from the npm registry
 * (`include/node`, as `--nodedir`): no download from nodejs.org, nothing from GitHub's prebuilt
 * releases. It needs python3, make and a C++ compiler, as `npm ci` does where no prebuilt binary fits.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureNode24 } from "./ensure-node24.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE = join(ROOT, "node_modules", "better-sqlite3");
const LOCK_STALE_MS = 15 * 60_000;

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** node-gyp as npm ships it (what `npm rebuild` would run), or one installed beside the project. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"),
  ];
  try {
    const npmCli = execFileSync(process.platform === "win32" ? "where" : "which", ["npm"], { encoding: "utf8" })
      .split("\n")[0]
      .trim();
    candidates.push(join(dirname(npmCli), "..", "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  } catch {
    // No npm on the PATH: the other candidates, or node-gyp from the project.
  }
  try {
    candidates.push(createRequire(join(ROOT, "package.json")).resolve("node-gyp/bin/node-gyp.js"));
  } catch {
    // Not installed in the project.
  }
  const found = candidates.find((candidate) => candidate && existsSync(candidate));
  if (!found) throw new Error("node-gyp was not found (npm ships it): install npm, or `npm install -g node-gyp`.");
  return found;
}

/** The ABI version (`process.versions.modules`) a Node binary loads addons for. */
function abiOf(binary) {
  return execFileSync(binary, ["-p", "process.versions.modules"], { encoding: "utf8" }).trim();
}

async function withLock(lock, work) {
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      // A crashed build leaves its lock behind: take it over after a while.
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The path of a better_sqlite3.node that Node 24 loads (compiled under .cache/ on first use). */
async function ensureSqliteNode24() {
  const node24 = await ensureNode24();
  const version = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version;
  const abi = abiOf(node24);
  const folder = join(ROOT, ".cache", "node24-sqlite", `${version}-abi${abi}`);
  const binding = join(folder, "better_sqlite3.node");
  const loads = () => {
    if (!existsSync(binding)) return false;
    try {
      execFileSync(node24, ["-e", `require(${JSON.stringify(binding)})`], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  if (loads()) return binding;
  return withLock(`${folder}.building`, async () => {
    if (loads()) return binding;
    const build = join(dirname(folder), `build-${version}-abi${abi}`);
    rmSync(build, { recursive: true, force: true });
    mkdirSync(build, { recursive: true });
    for (const part of ["binding.gyp", "package.json", "src", "deps"]) cpSync(join(PACKAGE, part), join(build, part), { recursive: true });
    // The Node 24 package keeps its headers in include/node, the layout node-gyp reads from --nodedir.
    const nodedir = resolve(dirname(node24), "..");
    execFileSync(node24, [nodeGyp(), "rebuild", "--release", `--nodedir=${nodedir}`, `--jobs=${process.env.JOBS ?? "2"}`], {
      cwd: build,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, npm_config_nodedir: nodedir },
    });
    mkdirSync(folder, { recursive: true });
    renameSync(join(build, "build", "Release", "better_sqlite3.node"), binding);
    rmSync(build, { recursive: true, force: true });
    if (!loads()) throw new Error(`Compiled ${binding}, but Node 24 (${node24}) cannot load it.`);
    return binding;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${await ensureSqliteNode24()}\n`);
  } catch (error) {
    process.stderr.write(`ensure-sqlite-node24: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

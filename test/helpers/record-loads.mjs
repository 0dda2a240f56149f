/**
 * Preloaded with `node --import`: appends every module the process loads to the file named by
 * RECORD_LOADS_FILE, one URL or path a line. ES modules are seen by a resolve hook (module.register);
 * CommonJS files that packages require() never pass through it, so the require cache is added at exit.
 */
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { isMainThread } from "node:worker_threads";

/** @type {string} */
let target = "";

/** @param {{ file: string }} data */
export function initialize(data) {
  target = data.file;
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(target, `${resolved.url}\n`);
  return resolved;
}

// The hooks run in a thread of their own that loads this file again: only the main thread registers.
const file = process.env.RECORD_LOADS_FILE;
if (isMainThread && file) {
  register(import.meta.url, { data: { file } });
  process.on("exit", () => appendFileSync(file, Object.keys(createRequire(import.meta.url).cache).join("\n") + "\n"));
}

/**
 * better-sqlite3 as the App imports it, with the native binding compiled for this Node (see
 * preload.mjs): its own `nativeBinding` option, given to every database the App opens.
 */
import { createRequire } from "node:module";

const binding = process.env.AGENT_RUN_TEST_SQLITE_BINDING;
if (!binding) throw new Error("AGENT_RUN_TEST_SQLITE_BINDING is not set: run scripts/ensure-sqlite-node24.mjs and pass its path.");

const Database = createRequire(import.meta.url)("better-sqlite3");

export default class Node24Database extends Database {
  constructor(filename, options = {}) {
    super(filename, { nativeBinding: binding, ...options });
  }
}

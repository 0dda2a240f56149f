/**
 * Preloaded (`--import`) into the App's child processes on Node 24 by the end-to-end tests: the
 * project's node_modules holds a better-sqlite3 binding compiled for the Node that ran `npm ci`, so
 * `better-sqlite3` resolves to a stand-in that opens every database with the binding compiled for
 * Node 24 (AGENT_RUN_TEST_SQLITE_BINDING, from scripts/ensure-sqlite-node24.mjs). Nothing else changes.
 */
import { registerHooks } from "node:module";

const STAND_IN = new URL("./better-sqlite3.mjs", import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    // The stand-in itself loads the real package.
    if (specifier === "better-sqlite3" && context.parentURL !== STAND_IN) return { url: STAND_IN, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

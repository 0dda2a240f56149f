/**
 * `crypto` as @actions/core sees it in the bundle (scripts/build-action.mjs points its import here).
 * Core needs one function of it, to write a multi-line output; an `import` of node:crypto loads
 * and compiles the whole module (about 3 ms on a runner) before the step's first request.
 */
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

export function randomUUID(): string {
  return (load("node:crypto") as typeof import("node:crypto")).randomUUID();
}

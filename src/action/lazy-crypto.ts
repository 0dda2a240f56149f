/**
 * `crypto` as @actions/core sees it in the bundle (scripts/build-action.mjs points its import here).
 * Core needs one function of it, to write a multi-line output; an `import` of node:crypto loads
 * and compiles the whole module (about 3 ms on a runner) before the step's first request.
 */
export function randomUUID(): string {
  return process.getBuiltinModule("node:crypto").randomUUID();
}

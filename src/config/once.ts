/**
 * A value built on first use, then kept. The configuration's zod schemas are built this way: building
 * them is most of what loading the module costs, and a step whose repository has no configuration
 * file needs none of them (about 3 ms of the Action's cold start on Node 24, `npx tsx bench/cold-start.ts`).
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

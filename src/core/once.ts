/**
 * A value built on first use, then kept: what a start may well not need, such as the configuration's
 * zod schemas (a repository with no file needs none; building them is most of what loading
 * config/schema.ts costs, about 1 ms of the Action's cold start: `npx tsx bench/cold-start.ts`).
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * The committed bundle is the build of the committed sources: rebuild into a temporary directory
 * (dist/ is never touched here) and compare bytes. Run `npm run build:action` and commit dist/
 * when this fails.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/action-runner.js";
import { hintableFunctions, parseModule, sourceKeys } from "../../../scripts/compile-hints.mjs";

const run = promisify(execFile);
const fresh = mkdtempSync(join(tmpdir(), "action-dist-"));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

const jsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".js"))
    .sort();
/** The bundle is minified; its source map (beside each file) names every module in it: `../node_modules/<package>/…`. */
const sourcesOf = (name: string): string[] =>
  (JSON.parse(readFileSync(join(ROOT, "dist", `${name}.map`), "utf8")) as { sources: string[] }).sources;
const packagesIn = (name: string) =>
  new Set(sourcesOf(name).flatMap((source) => /^\.\.\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1] ?? []));

/** The chunks `name` imports statically (loaded with it). */
const staticImports = (name: string) =>
  [...readFileSync(join(ROOT, "dist", name), "utf8").matchAll(/\b(?:from|import)\s*"\.\/([^"]+)"/g)].map((m) => m[1]!);
/** The chunks `name` loads with `import()`, when it asks for them. */
const dynamicImports = (name: string) =>
  [...readFileSync(join(ROOT, "dist", name), "utf8").matchAll(/\bimport\("\.\/([^"]+)"\)/g)].map((m) => m[1]!);
/** Every file loaded with `roots`: they and what they import statically, transitively. */
function closure(roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of staticImports(name)) visit(next);
  };
  roots.forEach(visit);
  return [...seen];
}
/**
 * Fails for each of `sources` that the start path (what a step loads before its first request and
 * with the runner) compiles; returns the start path's files.
 */
function expectOffStartPath(sources: readonly string[]): string[] {
  const files = closure(["index.js", ...dynamicImports("index.js")]);
  const loaded = new Set(files.flatMap((name) => sourcesOf(name)));
  for (const source of sources) expect(loaded.has(source), source).toBe(false);
  return files;
}

describe("dist/", () => {
  it("is byte for byte what scripts/build-action.mjs builds from the current sources", async () => {
    await run(process.execPath, [join(ROOT, "scripts", "build-action.mjs"), "--out", fresh], { cwd: ROOT, timeout: 60_000 });
    const built = readdirSync(fresh).sort();
    expect(built).toContain("index.js");
    expect(built).toContain("package.json");
    expect(
      readdirSync(join(ROOT, "dist")).sort(),
      "dist/ holds exactly the entry, its chunks and package.json: run `npm run build:action` and commit dist/",
    ).toEqual(built);
    for (const name of built) {
      const committed = readFileSync(join(ROOT, "dist", name));
      expect(
        committed.equals(readFileSync(join(fresh, name))),
        `dist/${name} is stale: run \`npm run build:action\` and commit dist/`,
      ).toBe(true);
    }
  });

  it("is self-contained ESM: no native addon, no server stack, no path of the machine that built it", () => {
    expect(JSON.parse(readFileSync(join(ROOT, "dist", "package.json"), "utf8"))).toEqual({ type: "module" });
    const all = new Set<string>();
    for (const name of jsFiles(join(ROOT, "dist"))) {
      const code = readFileSync(join(ROOT, "dist", name), "utf8");
      // Only the proxy client's dependencies call `require`; the steps' files have none to call (scripts/build-action.mjs).
      const declaresRequire = code.startsWith('import { createRequire as __bundleCreateRequire } from "node:module";');
      expect(declaresRequire, name).toBe(name === "proxy-client.js");
      // Nor esbuild's stand-in, which calls the file's `require` when there is one.
      if (!declaresRequire) expect(code, name).not.toMatch(/(?<![\w$.])require\(|\btypeof require\b/);
      for (const found of packagesIn(name)) all.add(found);
      expect(code, name).not.toMatch(/\.node["']\)/);
      expect(code, name).not.toContain(ROOT);
      // The map sits beside its file, holds no source text and only paths relative to dist/.
      expect(code.trimEnd().endsWith(`//# sourceMappingURL=${name}.map`), name).toBe(true);
      const map = readFileSync(join(ROOT, "dist", `${name}.map`), "utf8");
      expect(map, `${name}.map`).not.toContain(ROOT);
      expect(JSON.parse(map) as { sourcesContent?: unknown }, `${name}.map`).not.toHaveProperty("sourcesContent");
      for (const source of sourcesOf(name))
        expect(
          source.startsWith("../src/") || source.startsWith("../node_modules/") || /^builtin(-require)?:[a-z_/]+$/.test(source),
          source,
        ).toBe(true);
      // Chunks are loaded by relative path from the entry: nothing may reach outside dist/.
      for (const [, target] of code.matchAll(/\bfrom\s*"(\.[^"]+)"|\bimport\("(\.[^"]+)"\)/g))
        if (target) expect(target.startsWith("./"), `${name} imports ${target}`).toBe(true);
    }
    expect(all.size).toBeGreaterThan(10);
    for (const forbidden of ["better-sqlite3", "ioredis", "probot", "fastify", "commander", "bindings"])
      expect(all.has(forbidden), forbidden).toBe(false);
  });

  it("sends the head start's GitHub reads before loading the rest: no zod up front, the runner next, undici and the YAML parser in chunks", () => {
    const headStart = closure(["index.js"]);
    const headSources = headStart.flatMap((name) => sourcesOf(name));
    expect(headSources).toContain("../src/action/head-start.ts");
    expect(
      headSources.filter((source) => source.includes("/zod/")),
      "the head start loads no zod",
    ).toEqual([]);
    // Of the configuration, only where its file lives (config/path.ts, which imports nothing): no schema.
    expect(
      headSources.filter((source) => source.includes("/src/config/")),
      "the head start loads no schema",
    ).toEqual(["../src/config/path.ts"]);
    expect(headStart.flatMap((name) => [...packagesIn(name)])).toContain("@octokit/core");

    // The entry's one dynamic import: the runner, with zod (its functional API only, zod/mini: the
    // classic one attaches dozens of methods to every schema and cannot be tree-shaken) and @actions/core.
    const [runner, ...others] = dynamicImports("index.js");
    expect(others).toEqual([]);
    const upFront = closure(["index.js", runner!]);
    const upFrontSources = upFront.flatMap((name) => sourcesOf(name));
    expect(upFrontSources).toContain("../src/action/runner.ts");
    expect(upFrontSources.filter((source) => source.includes("/zod/"))).not.toHaveLength(0);
    expect(upFrontSources.filter((source) => source.includes("/zod/v4/classic/"))).toEqual([]);
    const upFrontPackages = upFront.flatMap((name) => [...packagesIn(name)]);
    expect(upFrontPackages).toContain("@actions/core");
    for (const later of ["undici", "yaml", "@actions/github"]) expect(upFrontPackages, later).not.toContain(later);
    // node:crypto is required when @actions/core first writes an output, not imported before the first request.
    for (const name of upFront) expect(readFileSync(join(ROOT, "dist", name), "utf8"), name).not.toMatch(/\bfrom\s*"(?:node:)?crypto"/);
    const onDemand = jsFiles(join(ROOT, "dist"))
      .filter((name) => !upFront.includes(name))
      .flatMap((name) => [...packagesIn(name)]);
    expect(onDemand).toContain("undici");
    expect(onDemand).toContain("yaml");
  });

  it("loads review mode's posting code only at the end of a review run: in chunks the start path does not load", () => {
    const posting = [
      "../src/action/review.ts",
      "../src/flows/review.ts",
      "../src/github/reviews.ts",
      "../src/core/review/anchor.ts",
      "../src/core/review/parse.ts",
    ];
    const upFront = expectOffStartPath(posting);
    const later = jsFiles(join(ROOT, "dist"))
      .filter((name) => !upFront.includes(name))
      .flatMap((name) => sourcesOf(name));
    for (const source of posting) expect(later, source).toContain(source);
  });

  it("loads what follows the create in one chunk, at the step's end: watching, the result, the outputs and the job summary", () => {
    // step-end.ts itself only re-exports (no code of its own in the maps).
    const ending = [
      "../src/action/steps/finish.ts",
      "../src/action/steps/watch.ts",
      "../src/action/report.ts",
      "../src/core/render/result.ts",
      "../src/core/trace.ts",
      "../src/core/review/render.ts",
    ];
    const upFront = expectOffStartPath(ending);
    // One chunk asked for by every `import()` of it: a start path that needs none of it compiles none of it.
    const asked = new Set(
      upFront.flatMap((name) => dynamicImports(name)).filter((name) => sourcesOf(name).includes("../src/action/steps/finish.ts")),
    );
    expect([...asked]).toHaveLength(1);
    const [stepEnd] = [...asked];
    const withIt = new Set(closure([stepEnd!]).flatMap((name) => sourcesOf(name)));
    for (const source of ending) expect(withIt.has(source), source).toBe(true);
  });

  it("compiles the functions a start calls with their file: every compile hint names a function of the bundle, in parentheses", () => {
    // Stale after a change to what a start runs: `npx tsx bench/compile-hints.ts`, then `npm run build:action`.
    const hints = new Set(JSON.parse(readFileSync(join(ROOT, "scripts", "compile-hints.json"), "utf8")) as string[]);
    const found = new Set<string>();
    const hoisted: string[] = [];
    for (const name of jsFiles(join(ROOT, "dist"))) {
      const code = readFileSync(join(ROOT, "dist", name), "utf8");
      const keyAt = sourceKeys(code, JSON.parse(readFileSync(join(ROOT, "dist", `${name}.map`), "utf8")) as object);
      for (const { node, declaration } of hintableFunctions(parseModule(code))) {
        const key = keyAt(node.start);
        if (key === null || !hints.has(key)) continue;
        found.add(key);
        if (declaration) hoisted.push(key);
        else expect(code[node.start - 1], key).toBe("(");
      }
    }
    const stale = [...hints].filter((key) => !found.has(key));
    expect(stale, "compile hints that name no function: run `npx tsx bench/compile-hints.ts`, then `npm run build:action`").toEqual([]);
    // Only declarations that code running at load reaches first stay hoisted (scripts/compile-hints.mjs).
    expect(hoisted.length).toBeLessThan(hints.size / 20);
  });
});

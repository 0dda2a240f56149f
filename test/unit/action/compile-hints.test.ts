/**
 * The build's compile hints (scripts/compile-hints.mjs): the hinted functions of a bundled module are
 * put in parentheses, a hinted top-level declaration becomes a `var` only where nothing that runs while
 * the module loads can reach it first, the module does what it did, and its source map still says where
 * each function starts in the sources. The modules are bundled by esbuild as the Action's are, then
 * imported from a temporary folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { applyCompileHints, hintableFunctions, parseModule, sourceKeys } from "../../../scripts/compile-hints.mjs";

const dir = mkdtempSync(join(tmpdir(), "compile-hints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Bundled {
  code: string;
  map: { mappings: string };
}

/** `source` (one TypeScript module) bundled and minified as scripts/build-action.mjs does, with its source map. */
async function bundle(name: string, source: string): Promise<Bundled> {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(entry, source);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    minify: true,
    sourcemap: "external",
    sourcesContent: false,
    outfile: join(dir, `${name}.js`),
    write: false,
    logLevel: "silent",
  });
  const file = (suffix: string) => result.outputFiles.find((output) => output.path.endsWith(suffix))!.text;
  return { code: file(".js"), map: JSON.parse(file(".js.map")) as { mappings: string } };
}

/** Each hintable function of `bundled` by the name it has in the sources (as the map says), with its source key. */
function functionsOf(bundled: Bundled): Map<string, string> {
  const keyAt = sourceKeys(bundled.code, bundled.map);
  const lines = SOURCE.split("\n");
  const named = new Map<string, string>();
  for (const { node } of hintableFunctions(parseModule(bundled.code))) {
    const key = keyAt(node.start)!;
    // One function per line of SOURCE: the line names it.
    const line = Number(/:(\d+):\d+$/.exec(key)![1]);
    const name = /(?:function\s+|const\s+)(\w+)/.exec(lines[line - 1]!)?.[1];
    if (name) named.set(name, key);
  }
  return named;
}

let imported = 0;
async function load(code: string): Promise<Record<string, unknown>> {
  const file = join(dir, `module-${++imported}.mjs`);
  writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

const SOURCE = [
  "export function total(values: number[]): number {",
  "  return values.reduce(add, 0);",
  "}",
  "function add(a: number, b: number): number {",
  "  return a + b;",
  "}",
  "const double = (value: number): number => value * 2;",
  "export function doubledTotal(values: number[]): number {",
  "  return total(values.map(double));",
  "}",
  "// Runs while the module loads: `early` is reached through `setUp` before its own line.",
  "export const ready = setUp();",
  "function setUp(): string {",
  "  return early();",
  "}",
  "function early(): string {",
  '  return "ready";',
  "}",
  "export function later(): string {",
  '  return "later";',
  "}",
  "export class Counter {",
  "  count = 0;",
  "  increment(): number {",
  "    return ++this.count;",
  "  }",
  "}",
  "export const labelled = { get text(): string { return later(); } };",
  "",
].join("\n");

describe("compile hints", () => {
  it("puts the hinted functions in parentheses, moves a declaration nothing reaches early to a var, and the module does what it did", async () => {
    const bundled = await bundle("plain", SOURCE);
    const keys = functionsOf(bundled);
    const hints = new Set(["add", "double", "total", "later", "setUp", "early"].map((name) => keys.get(name)!));
    const hinted = applyCompileHints(bundled.code, bundled.map, hints);

    // `total`, `add`, `later` become vars; `setUp` and `early` are reached by `ready` before their lines and stay declarations.
    expect(hinted.declarations).toBe(3);
    expect(hinted.expressions).toBe(1);
    expect(hinted.code).toMatch(/var \w+=\(function \w+\(/);
    expect(hinted.code).toMatch(/=\(\w+=>\w+\*2\)/);
    const before = await load(bundled.code);
    const after = await load(hinted.code);
    expect(after.ready).toBe("ready");
    expect((after.doubledTotal as (v: number[]) => number)([1, 2, 3])).toBe((before.doubledTotal as (v: number[]) => number)([1, 2, 3]));
    expect((after.later as () => string)()).toBe("later");
  });

  it("never moves a declaration that code running at load reaches first: forced, the module would not load", async () => {
    const bundled = await bundle("early", SOURCE);
    const keys = functionsOf(bundled);
    const hints = new Set([keys.get("setUp")!, keys.get("early")!]);
    expect(applyCompileHints(bundled.code, bundled.map, hints).declarations).toBe(0);
    // What the check prevents: the same move without it leaves `ready = setUp()` calling an unset var.
    const program = parseModule(bundled.code);
    const forced = hintableFunctions(program)
      .filter(({ node, declaration }) => declaration && hints.has(sourceKeys(bundled.code, bundled.map)(node.start)!))
      .sort((a, b) => b.node.start - a.node.start)
      .reduce(
        (code, { node }) =>
          `${code.slice(0, node.start)}var ${node.id!.name}=(${code.slice(node.start, node.end)});${code.slice(node.end)}`,
        bundled.code,
      );
    await expect(load(forced)).rejects.toThrow(TypeError);
  });

  it("never puts a method or a getter in parentheses, whatever the hints say: the module still parses and works", async () => {
    const bundled = await bundle("methods", SOURCE);
    // Every function in the file, methods and getters included, named by a hint.
    const keyAt = sourceKeys(bundled.code, bundled.map);
    const everyStart: number[] = [];
    const visit = (node: unknown): void => {
      if (!node || typeof node !== "object") return;
      const { type, start } = node as { type?: unknown; start?: unknown };
      if ((type === "FunctionExpression" || type === "ArrowFunctionExpression") && typeof start === "number") everyStart.push(start);
      for (const value of Object.values(node)) (Array.isArray(value) ? value : [value]).forEach(visit);
    };
    visit(parseModule(bundled.code));
    const hints = new Set(everyStart.map((start) => keyAt(start)!).filter(Boolean));
    const hinted = applyCompileHints(bundled.code, bundled.map, hints);
    expect(() => parseModule(hinted.code)).not.toThrow();
    const after = await load(hinted.code);
    const counter = new (after.Counter as new () => { increment(): number })();
    expect(counter.increment()).toBe(1);
    expect((after.labelled as { text: string }).text).toBe("later");
  });

  it("keeps a declaration whose name is assigned hoisted: inside a function expression its own name cannot be", async () => {
    const source = [
      "export function next(): number {",
      "  next = () => 2;",
      "  return 1;",
      "}",
      "export function call(): number {",
      "  return next();",
      "}",
      "",
    ].join("\n");
    const bundled = await bundle("assigned", source);
    const keyAt = sourceKeys(bundled.code, bundled.map);
    const hints = new Set(hintableFunctions(parseModule(bundled.code)).map(({ node }) => keyAt(node.start)!));
    const hinted = applyCompileHints(bundled.code, bundled.map, hints);
    // `call` moves; `next`, which reassigns itself, stays a declaration (as a named function expression it would throw).
    expect(hinted.declarations).toBe(1);
    const after = await load(hinted.code);
    expect([(after.call as () => number)(), (after.call as () => number)()]).toEqual([1, 2]);
  });

  it("keeps the source map true: each function still maps to where it starts in the sources", async () => {
    const bundled = await bundle("mapped", SOURCE);
    const keys = functionsOf(bundled);
    const hinted = applyCompileHints(bundled.code, bundled.map, new Set(keys.values()));
    expect(hinted.declarations + hinted.expressions).toBeGreaterThan(0);
    expect(functionsOf({ code: hinted.code, map: hinted.map })).toEqual(keys);
  });
});

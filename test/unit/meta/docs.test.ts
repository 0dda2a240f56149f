/**
 * The documentation cannot drift from the code: its generated blocks are fresh, every setting the App
 * reads, every configuration key, every Action input and output and every metric has its row, the
 * README stays short and leads with the two set-up commands, and the App's environment example names
 * exactly the settings the App reads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { applySections, docSections, readDoc } from "../../../scripts/doc-sections.js";
import { settingDocsDrift, settingsTheAppReads } from "../../../scripts/docs/app-settings.js";
import { appMetrics } from "../../../scripts/docs/metrics.js";
import { renderConfigJsonSchema } from "../../../src/config/index.js";
import { BRIDGE_VERSION } from "../../../src/version.js";

/** The rows of a page's tables, by the backquoted name in their first cell. */
function rowNames(file: string): Set<string> {
  return new Set([...readDoc(file).matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!));
}

interface JsonSchemaNode {
  properties?: Record<string, JsonSchemaNode>;
}

/** Every configuration key as a dotted path, leaves only (as the reference lists them). */
function configKeys(node: JsonSchemaNode, prefix = ""): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) =>
    child.properties ? configKeys(child, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe("documentation and metadata stay true", () => {
  it.each(Object.entries(docSections()))("the generated blocks of %s are fresh (run `npm run docs`)", (file, build) => {
    const text = readDoc(file);
    expect(applySections(file, text, build())).toBe(text);
  });

  it("every setting the App reads is described, and nothing else is (scripts/docs/app-settings.ts)", () => {
    expect(settingDocsDrift()).toEqual({ undocumented: [], stale: [] });
    expect([...rowNames("docs/operations.md")]).toEqual(expect.arrayContaining(settingsTheAppReads()));
  });

  it("every configuration key has its row in docs/configuration.md", () => {
    const keys = configKeys(JSON.parse(renderConfigJsonSchema()) as JsonSchemaNode).filter((key) => key !== "_extends");
    expect(keys.length).toBeGreaterThan(10);
    expect([...rowNames("docs/configuration.md")]).toEqual(expect.arrayContaining(keys));
  });

  it("every Action input and output has its row in docs/action.md", () => {
    const manifest = parseYaml(readDoc("action.yml")) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
    const rows = [...rowNames("docs/action.md")];
    expect(rows).toEqual(expect.arrayContaining([...Object.keys(manifest.inputs), ...Object.keys(manifest.outputs)]));
  });

  it("every metric has its row in docs/operations.md", () => {
    expect([...rowNames("docs/operations.md")]).toEqual(expect.arrayContaining(appMetrics().map((metric) => metric.name)));
  });

  it("examples/app.env names exactly the settings the App reads", () => {
    const named = [...readDoc("examples/app.env").matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual(settingsTheAppReads().sort());
  });

  it("the README leads with the two set-up commands", () => {
    const readme = readDoc("README.md");
    const firstBlock = readme.slice(readme.indexOf("```sh"), readme.indexOf("```", readme.indexOf("```sh") + 5));
    expect(firstBlock).toContain("npm ci && npm run demo");
    expect(firstBlock).toContain("npm test");
  });

  it("the README says why each dependency is there: every package of package.json has its row", () => {
    const pkg = JSON.parse(readDoc("package.json")) as Record<
      "dependencies" | "peerDependencies" | "devDependencies" | "overrides",
      object
    >;
    const readme = readDoc("README.md");
    const section = readme.slice(
      readme.indexOf("## Why each dependency is there"),
      readme.indexOf("\n## ", readme.indexOf("## Why each dependency")),
    );
    // The first cell of each row names its packages in backquotes, a pinned one with its version (`msgpackr-extract@3.0.4`).
    const firstCells = [...section.matchAll(/^\|([^|]*)\|/gm)].map((row) => row[1]!);
    const named = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/@\d[^@]*$/, ""))));
    const packages = [pkg.dependencies, pkg.peerDependencies, pkg.devDependencies, pkg.overrides].flatMap((group) => Object.keys(group));
    expect(packages.filter((name) => !named.has(name))).toEqual([]);
  });

  it("the README is a five-minute read (at most 200 lines) and each docs page stays under 400", () => {
    expect(readDoc("README.md").split("\n").length).toBeLessThanOrEqual(200);
    const long = readdirSync(new URL("../../../docs/", import.meta.url))
      .filter((name) => name.endsWith(".md"))
      .map((name) => [name, readDoc(`docs/${name}`).split("\n").length] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it("the version baked into bundles equals package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(BRIDGE_VERSION).toBe(pkg.version);
  });
});

/**
 * A delivery goes down through the layers and returns without climbing back: the shell (app, action,
 * cli) calls flows, flows call github and service I/O and ask core, core decides from what it is given.
 * Each rule names a layer and what it may not import; a file that breaks one is listed with the import.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SRC, bareImportsOf, importsOf, tsFiles } from "./imports.js";

interface LayerRule {
  /** Files under this folder of src/ (relative, with a trailing slash)… */
  layer: string;
  /** …may import only files under src/ whose path starts with one of these (their own layer included)… */
  allowed?: readonly string[];
  /** …and none whose path starts with one of these. */
  forbidden?: readonly string[];
}

const SHELL = ["app/", "action/", "cli/", "emulator/"];

const LAYER_RULES: readonly LayerRule[] = [
  // Pure decisions: the wire's values, errors and status classes, and the config schema, nothing that does I/O.
  { layer: "core/", allowed: ["core/", "config/", "service/wire.ts", "service/errors.ts", "service/status.ts"] },
  // Thin I/O and the config schema never reach up to the flows or the shell.
  { layer: "config/", forbidden: ["flows/", "github/", ...SHELL] },
  { layer: "service/", forbidden: ["core/", "flows/", "github/", ...SHELL] },
  { layer: "github/", forbidden: ["flows/", ...SHELL] },
  // The flows are shared by the App and the Action: they never reach into either.
  { layer: "flows/", forbidden: SHELL },
  // The engine carries out what the handlers handed it; it never calls back into them.
  { layer: "app/engine/", forbidden: ["app/handlers/"] },
  { layer: "app/engine.ts", forbidden: ["app/handlers/"] },
  // The App and the Action are two shells over the same flows: neither reaches into the other.
  { layer: "app/", forbidden: ["action/"] },
  { layer: "action/", forbidden: ["app/"] },
];

/**
 * The packages core/ may import: schemas and types, nothing that reads a file, a socket, a clock or the
 * environment. No `node:` built-in at all, so a decision in core/ provably does no I/O.
 */
const CORE_PACKAGES: readonly string[] = ["zod/mini", "@octokit/webhooks-types"];

/** "file → package" for each package or built-in a core/ file imports beyond CORE_PACKAGES. */
function coreIoImports(root: string): string[] {
  const found: string[] = [];
  for (const file of tsFiles(join(root, "core"))) {
    for (const specifier of bareImportsOf(file)) {
      if (!CORE_PACKAGES.includes(specifier)) found.push(`${relative(root, file)} → ${specifier}`);
    }
  }
  return found.sort();
}

/** "file → import" for each import under `root` that a rule forbids. */
function layerViolations(root: string, rules: readonly LayerRule[]): string[] {
  const found: string[] = [];
  for (const file of tsFiles(root)) {
    const from = relative(root, file);
    for (const rule of rules.filter((r) => from.startsWith(r.layer))) {
      for (const target of importsOf(file).map((t) => relative(root, t))) {
        const outside = rule.allowed !== undefined && !rule.allowed.some((prefix) => target.startsWith(prefix));
        const banned = rule.forbidden?.some((prefix) => target.startsWith(prefix)) ?? false;
        if (outside || banned) found.push(`${from} → ${target}`);
      }
    }
  }
  return found.sort();
}

describe("layers", () => {
  const scratch = mkdtempSync(join(tmpdir(), "layers-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  };

  it("the walk lists a core file that reads GitHub, a flow that reaches the App and an engine that calls a handler", () => {
    write(
      "core/plan.ts",
      'import { readThread } from "../github/thread.js";\nimport { SOURCE } from "../service/wire.js";\nexport const p = [readThread, SOURCE];\n',
    );
    write("github/thread.ts", "export const readThread = 1;\n");
    write("service/wire.ts", "export const SOURCE = 1;\n");
    write("flows/prepare.ts", 'import type { Task } from "../app/store/types.js";\nexport type T = Task;\n');
    write("app/store/types.ts", "export type Task = number;\n");
    write("app/engine/stopping.ts", 'import { handleStop } from "../handlers/stop.js";\nexport const s = handleStop;\n');
    write("app/handlers/stop.ts", 'import { s } from "../engine/stopping.js";\nexport const handleStop = s;\n');
    expect(layerViolations(scratch, LAYER_RULES)).toEqual([
      "app/engine/stopping.ts → app/handlers/stop.ts",
      "core/plan.ts → github/thread.ts",
      "flows/prepare.ts → app/store/types.ts",
    ]);
  });

  it("the walk lists a core file that imports a built-in or a package that does I/O, statically or dynamically", () => {
    write(
      "core/clock.ts",
      'import { readFileSync } from "node:fs";\nimport type { Schema } from "zod/mini";\nexport const c = readFileSync;\n',
    );
    write("core/fetcher.ts", 'export async function load() {\n  return import("undici");\n}\n');
    write("action/main.ts", 'import { startApp } from "../app/main.js";\nexport const m = startApp;\n');
    write("app/main.ts", "export const startApp = 1;\n");
    expect(coreIoImports(scratch)).toEqual(["core/clock.ts → node:fs", "core/fetcher.ts → undici"]);
    expect(layerViolations(scratch, LAYER_RULES)).toContain("action/main.ts → app/main.ts");
  });

  it("src/ keeps every rule", () => {
    expect(layerViolations(SRC, LAYER_RULES)).toEqual([]);
  });

  it("core/ imports no built-in and no package but schemas and types", () => {
    expect(coreIoImports(SRC)).toEqual([]);
  });
});

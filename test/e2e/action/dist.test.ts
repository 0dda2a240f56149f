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

const run = promisify(execFile);
const fresh = mkdtempSync(join(tmpdir(), "action-dist-"));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

describe("dist/", () => {
  it("is byte for byte what scripts/build-action.mjs builds from the current sources", async () => {
    await run(process.execPath, [join(ROOT, "scripts", "build-action.mjs"), "--out", fresh], { cwd: ROOT, timeout: 60_000 });
    expect(readdirSync(fresh).sort()).toEqual(["index.js", "package.json"]);
    expect(readdirSync(join(ROOT, "dist")).sort(), "dist/ holds exactly the bundle and its package.json").toEqual(["index.js", "package.json"]);
    for (const name of ["index.js", "package.json"]) {
      const built = readFileSync(join(fresh, name));
      const committed = readFileSync(join(ROOT, "dist", name));
      expect(committed.equals(built), `dist/${name} is stale: run \`npm run build:action\` and commit dist/`).toBe(true);
    }
  });

  it("is one self-contained ESM file: no native addon, no server stack, no path of the machine that built it", () => {
    const bundle = readFileSync(join(ROOT, "dist", "index.js"), "utf8");
    expect(JSON.parse(readFileSync(join(ROOT, "dist", "package.json"), "utf8"))).toEqual({ type: "module" });
    expect(bundle.startsWith('import { createRequire as __bundleCreateRequire } from "node:module";\n')).toBe(true);
    // esbuild heads every bundled module with its path: `// node_modules/<package>/…`.
    const packages = new Set([...bundle.matchAll(/^\/\/ node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\//gm)].map((m) => m[1]));
    expect(packages.size).toBeGreaterThan(10);
    for (const forbidden of ["better-sqlite3", "ioredis", "probot", "fastify", "commander", "bindings"]) expect(packages.has(forbidden), forbidden).toBe(false);
    expect(bundle).not.toMatch(/\.node["']\)/);
    expect(bundle).not.toContain(ROOT);
    expect(bundle).not.toMatch(/sourceMappingURL/);
  });
});

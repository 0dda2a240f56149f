/**
 * The package as npm publishes it and as users import it. lib/ is rebuilt here with `npm run build:lib`
 * (what `npm pack`'s prepare runs: lib/ emptied, then tsc), so the file list is what a publish from this
 * checkout ships, and the imports run the compiled code through package.json's `exports`.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { moduleLoadsOf } from "../../helpers/module-loads.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** What users run: the CLI, the compiled library, the Action's bundle and manifests, the config schema. */
const ALLOWED_DIRECTORIES = ["bin/", "lib/", "dist/", "schema/"];
const ALLOWED_FILES = ["package.json", "README.md", "LICENSE", "action.yml", "app.yml"];
/** Test doubles, benchmarks and the demo stay in the repository. */
const NEVER_SHIPPED = /fake-github|(^|\/)(test|bench|demo)\//;
/** The App's and the emulator's server stack: a client or an emulator not yet started loads none of it. */
const SERVER_STACK = ["probot", "better-sqlite3", "ioredis", "bullmq", "fastify", "pino", "prom-client"];

interface PackageJson {
  bin: Record<string, string>;
  exports: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;

beforeAll(async () => {
  await run("npm", ["run", "build:lib"], { cwd: ROOT, timeout: 180_000 });
}, 200_000);

async function packedFiles(): Promise<string[]> {
  // --ignore-scripts: lib/ was just built; prepare would build it again.
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, timeout: 60_000 });
  const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  return packed!.files.map((file) => file.path);
}

describe("the published package", () => {
  it("lists only what users run: no test double, benchmark or demo, every file under an allowed entry, every entry point present", async () => {
    const files = await packedFiles();
    expect(files.filter((path) => NEVER_SHIPPED.test(path))).toEqual([]);
    expect(files.filter((path) => !ALLOWED_FILES.includes(path) && !ALLOWED_DIRECTORIES.some((dir) => path.startsWith(dir)))).toEqual([]);

    const entryPoints = [...Object.values(manifest.bin), ...Object.values(manifest.exports)].map((target) => target.replace(/^\.\//, ""));
    expect(entryPoints.length).toBeGreaterThanOrEqual(3);
    for (const target of entryPoints) expect(files, target).toContain(target);
    // TypeScript finds an entry's types beside it.
    for (const target of Object.values(manifest.exports)) expect(files).toContain(target.replace(/^\.\//, "").replace(/\.js$/, ".d.ts"));
    expect(files).toContain("dist/index.js");
    expect(files).toContain("schema/agent-run.schema.json");
  });
});

describe("importing the package", () => {
  // Self-reference (`import("agent-run-bridge")` from inside the package) resolves through `exports`, as a user's import does.
  it("the typed client loads no server stack and no native addon", async () => {
    const { modules, packages } = await moduleLoadsOf('const { AgentRunClient } = await import("agent-run-bridge"); new AgentRunClient({ baseUrl: "http://127.0.0.1:9", token: "t", orgId: 1 });', ROOT);
    expect(modules).toContain(pathToFileURL(join(ROOT, "lib", "index.js")).href);
    expect(packages).toContain("zod");
    expect(packages.filter((name) => SERVER_STACK.includes(name))).toEqual([]);
    expect(modules.filter((module) => module.endsWith(".node"))).toEqual([]);
  });

  it("the emulator's entry loads fastify only when an emulator is built", async () => {
    const imported = await moduleLoadsOf('await import("agent-run-bridge/emulator");', ROOT);
    expect(imported.modules).toContain(pathToFileURL(join(ROOT, "lib", "emulator", "index.js")).href);
    expect(imported.packages.filter((name) => SERVER_STACK.includes(name))).toEqual([]);
    expect(imported.modules.filter((module) => module.endsWith(".node"))).toEqual([]);

    // The same probe sees fastify (required from CommonJS) once an emulator exists: the check above can fail.
    const built = await moduleLoadsOf('const { buildEmulator } = await import("agent-run-bridge/emulator"); await buildEmulator().app.ready();', ROOT);
    expect(built.packages).toContain("fastify");
  });
});

/**
 * The package as npm publishes it, as users import it and as they run it without the App's optional
 * packages. lib/ is rebuilt here with `npm run build:lib` (what `npm pack`'s prepare runs: lib/ emptied,
 * then tsc), so the file list is what a publish from this checkout ships, and every child process
 * below runs the compiled code.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { appEnv, baseSeed } from "../../helpers/app-harness.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";
import { moduleLoadsOf } from "../../helpers/module-loads.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** What users run: the CLI, the compiled library, the Action's bundle and manifests, the config schema. */
const ALLOWED_DIRECTORIES = ["bin/", "lib/", "dist/", "schema/"];
const ALLOWED_FILES = ["package.json", "README.md", "LICENSE", "action.yml", "app.yml"];
/** Test doubles, benchmarks and the demo stay in the repository; the Action's sources too (it runs from dist/, dependencies inlined). */
const NEVER_SHIPPED = /fake-github|(^|\/)(test|bench|demo)\/|^lib\/action\//;
/** The App's and the emulator's server stack: a client or an emulator not yet started loads none of it. */
const SERVER_STACK = ["probot", "better-sqlite3", "ioredis", "bullmq", "fastify", "pino", "prom-client"];

interface PackageJson {
  bin: Record<string, string>;
  exports: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
const OPTIONAL_PEERS = Object.keys(manifest.peerDependenciesMeta).filter((name) => manifest.peerDependenciesMeta[name]!.optional);

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
    // So the Action's own dependencies are development dependencies: a user of the package installs none of them.
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith("@actions/"))).toEqual([]);
    expect(files).toContain("schema/agent-run.schema.json");
  });
});

describe("importing the package", () => {
  // Self-reference (`import("agent-run-bridge")` from inside the package) resolves through `exports`, as a user's import does.
  it("the typed client loads no server stack and no native addon", async () => {
    const { modules, packages } = await moduleLoadsOf(
      'const { AgentRunClient } = await import("agent-run-bridge"); new AgentRunClient({ baseUrl: "http://127.0.0.1:9", token: "t", orgId: 1 });',
      ROOT,
    );
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
    const built = await moduleLoadsOf(
      'const { buildEmulator } = await import("agent-run-bridge/emulator"); await buildEmulator().app.ready();',
      ROOT,
    );
    expect(built.packages).toContain("fastify");
  });

  it("the published declarations of the client and the emulator type-check with none of the optional peers installed", async () => {
    expect(OPTIONAL_PEERS).toEqual(expect.arrayContaining(["probot", "better-sqlite3", "ioredis", "bullmq"]));
    const dir = installWithout(OPTIONAL_PEERS);
    try {
      writeFileSync(
        join(dir, "consumer.ts"),
        [
          'import { AgentRunClient, createInProcessBudget } from "agent-run-bridge";',
          'import { DEFAULT_TOKEN, type BuiltEmulator } from "agent-run-bridge/emulator";',
          'export const client = new AgentRunClient({ baseUrl: "http://127.0.0.1:9", token: DEFAULT_TOKEN, orgId: 1, budget: createInProcessBudget() });',
          'export type App = BuiltEmulator["app"];',
        ].join("\n"),
      );
      const program = ts.createProgram([join(dir, "consumer.ts")], {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        types: ["node"],
      });
      // The consumer and every declaration of ours it reaches; checking zod's and Node's own would take 20 s.
      const ours = program
        .getSourceFiles()
        .filter((file) => file.fileName === join(dir, "consumer.ts") || file.fileName.startsWith(join(dir, "lib") + "/"));
      expect(ours.map((file) => file.fileName)).toContain(join(dir, "lib", "service", "budget.d.ts"));
      const diagnostics = [
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
      ];
      const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => dir, getNewLine: () => "\n" };
      expect(ts.formatDiagnostics(diagnostics, host)).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * An install of the built package without some of its optional peers: package.json, bin/ and a copy
 * of lib/ (a link would resolve packages from this repository), and node_modules linking every
 * installed package except `without`.
 */
function installWithout(without: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "arb-install-"));
  cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
  cpSync(join(ROOT, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(ROOT, "lib"), join(dir, "lib"), { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  const link = (name: string) => symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name.startsWith(".") || without.includes(name)) continue;
    if (!name.startsWith("@") || !without.some((left) => left.startsWith(`${name}/`))) link(name);
    else {
      // A scope some of whose packages are left out: its other packages one by one.
      mkdirSync(join(dir, "node_modules", name));
      for (const inner of readdirSync(join(ROOT, "node_modules", name)))
        if (!without.includes(`${name}/${inner}`)) link(`${name}/${inner}`);
    }
  }
  return dir;
}

/** `agent-run app` from the installed bin, with only the given environment, on Node 24 (the image's runtime). */
function agentRunApp(dir: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(inject("appNode"), [join(dir, "bin", "agent-run.js"), "app"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`agent-run app did not exit within 20 s:\n${stderr}`));
    }, 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("agent-run app without an optional package it needs", () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The App's settings, GitHub answered by the fake (the App checks its credentials before it opens its backend). */
  async function settings(extra: Record<string, string>): Promise<Record<string, string>> {
    const github = await startFakeGitHub({ seed: baseSeed() });
    const dataDir = mkdtempSync(join(tmpdir(), "arb-install-data-"));
    cleanups.push(
      () => github.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );
    return appEnv({ url: "http://127.0.0.1:9", token: "t", orgId: 1 }, dataDir, {
      GHE_HOST: new URL(github.url).host,
      GHE_PROTOCOL: "http",
      ...extra,
    });
  }

  const cases: Array<{ name: string; without: string[]; env: () => Promise<Record<string, string>>; message: string }> = [
    {
      name: "probot, before anything else",
      without: ["probot"],
      env: async () => ({}),
      message:
        "The GitHub App (agent-run app) needs probot, an optional peer dependency of agent-run-bridge that is not installed. Install it beside agent-run-bridge: npm install probot",
    },
    {
      name: "better-sqlite3, without REDIS_URL",
      without: ["better-sqlite3"],
      env: () => settings({}),
      message:
        "The App without REDIS_URL (its state in SQLite under DATA_DIR) needs better-sqlite3, an optional peer dependency of agent-run-bridge that is not installed. Install it beside agent-run-bridge: npm install better-sqlite3",
    },
    {
      name: "bullmq (ioredis installed), with REDIS_URL",
      without: ["bullmq"],
      env: () => settings({ REDIS_URL: "redis://127.0.0.1:6379" }),
      message:
        "The App with REDIS_URL needs ioredis and bullmq, optional peer dependencies of agent-run-bridge; bullmq is not installed. Install it beside agent-run-bridge: npm install bullmq",
    },
    {
      name: "prom-client, with METRICS=true (and REDIS_URL: nothing is left open to hold the process)",
      without: ["prom-client"],
      env: () => settings({ METRICS: "true", REDIS_URL: "redis://127.0.0.1:6379" }),
      message:
        "GET /metrics (METRICS or METRICS_TOKEN) needs prom-client, an optional peer dependency of agent-run-bridge that is not installed. Install it beside agent-run-bridge: npm install prom-client",
    },
    {
      name: "the OpenTelemetry SDK, with OTEL_TRACES_EXPORTER=otlp",
      without: ["@opentelemetry/sdk-trace-node", "@opentelemetry/exporter-trace-otlp-http"],
      env: () => settings({ OTEL_TRACES_EXPORTER: "otlp", REDIS_URL: "redis://127.0.0.1:6379" }),
      message:
        "Tracing (OTEL_TRACES_EXPORTER=otlp) needs @opentelemetry/api, @opentelemetry/sdk-trace-node, @opentelemetry/exporter-trace-otlp-http and @opentelemetry/resources, optional peer dependencies of agent-run-bridge; @opentelemetry/sdk-trace-node and @opentelemetry/exporter-trace-otlp-http are not installed. Install them beside agent-run-bridge: npm install @opentelemetry/sdk-trace-node @opentelemetry/exporter-trace-otlp-http",
    },
  ];

  for (const { name, without, env, message } of cases) {
    it(`${name}: one line that says what to install, exit code 2`, async () => {
      const dir = installWithout(without);
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const { code, stderr } = await agentRunApp(dir, await env());
      expect(stderr.trim()).toBe(`agent-run: ${message}`);
      expect(code).toBe(2);
    });
  }
});

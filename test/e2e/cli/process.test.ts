/**
 * The CLI as a real child process, the way a shell runs it: `node --import tsx src/cli/bin.ts …`.
 * Exit codes come from process.exitCode; the emulator command stops cleanly on SIGINT.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { API_PATHS, type AgentRun } from "../../../src/service/index.js";
import { envFor, memoryIo, startTestEmulator } from "./helpers.js";
import { runCli } from "../../../src/cli/main.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function spawnCli(args: string[], env: Record<string, string | undefined>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}

function collectOutput(child: ChildProcessWithoutNullStreams) {
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves with the exported variables once the emulator printed them all. */
function exportsFrom(read: () => string, child: ChildProcessWithoutNullStreams): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = read();
      if (!text.includes("AGENT_RUN_ORG_ID=")) return;
      child.stdout.off("data", check);
      resolve(Object.fromEntries([...text.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])));
    };
    child.stdout.on("data", check);
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code}) before printing its address`)));
  });
}

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

describe("agent-run as a child process", () => {
  it("create --prompt hi --wait --json exits 0 with the completed run as JSON; a failed run exits 1", async () => {
    emulator.control.script({ match: "child failure", outcome: "failed" });
    // Both at once: each child pays Node's and tsx's start-up.
    const ok = collectOutput(spawnCli(["create", "--prompt", "hi", "--wait", "--json"], envFor(emulator)));
    const failed = collectOutput(spawnCli(["create", "--prompt", "child failure", "--wait"], envFor(emulator)));
    const [okExit, failedExit] = await Promise.all([ok.exited, failed.exited]);

    expect(ok.stderr()).toBe("");
    expect(okExit.code).toBe(0);
    const run = JSON.parse(ok.stdout()) as AgentRun;
    expect(run.status).toBe("completed");
    expect(emulator.control.runs().find((r) => r.id === run.id)?.status).toBe("completed");

    // process.exitCode carries a non-zero code out of the launcher.
    expect(failedExit.code).toBe(1);
    expect(failed.stdout()).toMatch(/^status\s+failed$/m);
  });

  it("emulator --port 0 prints paste-ready exports, serves the API, and exits 0 on SIGINT", async () => {
    const child = spawnCli(["emulator", "--port", "0", "--token", "local-demo-token", "--org", "5"], {});
    const output = collectOutput(child);
    const vars = await exportsFrom(output.stdout, child);
    const url = vars.AGENT_RUN_API_URL!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(vars.AGENT_RUN_API_TOKEN).toBe("local-demo-token");
    expect(vars.AGENT_RUN_ORG_ID).toBe("5");
    // Every stdout line is a comment or an export: the block can be pasted into a shell as is.
    expect(
      output
        .stdout()
        .trimEnd()
        .split("\n")
        .every((line) => line.startsWith("# ") || line.startsWith("export ")),
    ).toBe(true);

    const response = await fetch(url + API_PATHS.createRun(5), {
      method: "POST",
      headers: { authorization: `Bearer ${vars.AGENT_RUN_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "hello from the test" }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as AgentRun).id).toBeGreaterThan(0);

    child.kill("SIGINT");
    const { code, signal } = await output.exited;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(output.stderr()).toContain("emulator stopped (SIGINT)");
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe("agent-run emulator in-process", () => {
  it("serves until SIGTERM, then closes and exits 0; a port in use is a usage error", async () => {
    const memory = memoryIo();
    const running = runCli(["emulator", "--port", "0", "--time-scale", "0.01", "--status-vocabulary", "deployment"], memory.io);
    while (!memory.stdout().includes("AGENT_RUN_ORG_ID=")) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = /^export AGENT_RUN_API_URL=(.*)$/m.exec(memory.stdout())![1]!;
    expect(memory.stdout()).toContain("export AGENT_RUN_API_TOKEN=emulator-token");
    expect(memory.stdout()).toContain("not a secret");
    expect(memory.stdout()).toContain("export AGENT_RUN_POLL_INTERVAL=0.1");

    const port = new URL(url).port;
    const clash = memoryIo();
    expect(await runCli(["emulator", "--port", port], clash.io)).toBe(2);
    expect(clash.stderr()).toContain(`port ${port} on 127.0.0.1 is already in use`);

    const created = await fetch(url + API_PATHS.createRun(1), {
      method: "POST",
      headers: { authorization: "Bearer emulator-token", "content-type": "application/json" },
      body: JSON.stringify({ prompt: "deployment words" }),
    });
    expect(((await created.json()) as AgentRun).status).toBe("PENDING");

    expect(memory.signal("SIGTERM")).toBe(true);
    expect(await running).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});

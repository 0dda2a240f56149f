/**
 * The CLI in a pipe (`agent-run logs 1 | head -1`): the real CLI as a child process whose stdout's
 * reader closes after the first line. The command must end quietly (no EPIPE stack trace) with its own
 * exit code so far, not 1 ("the run failed"), and a command still working stops at once.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { AgentRun } from "../../../src/service/index.js";
import { cli, envFor, parseJson, startTestEmulator } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface PipeResult {
  firstLine: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the CLI like `agent-run ARGS | head -1`: the reader takes one line, then closes its end. */
function runIntoHead(args: string[], env: Record<string, string | undefined>): Promise<PipeResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/bin.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  let closed = false;
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!closed && stdout.includes("\n")) {
      closed = true;
      child.stdout.destroy();
    }
  });
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ firstLine: stdout.split("\n")[0]!, code, signal, stderr })));
}

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
});
afterAll(async () => {
  await emulator.close();
});

describe("agent-run in a pipe whose reader closes after one line", () => {
  it("logs of a finished run with many pages: exit 0, nothing on stderr", async () => {
    // 50 pages: far more than a pipe's buffer, so the CLI is still writing when the reader leaves.
    emulator.control.script({ match: "huge trace", logSteps: 5_000 });
    const created = await cli(["create", "--prompt", "a huge trace", "--wait", "--json"], { env });
    expect(created.code).toBe(0);
    const run = parseJson<AgentRun>(created.stdout);

    const result = await runIntoHead(["logs", String(run.id)], env);
    expect(result.firstLine).not.toBe("");
    expect(result.stderr).toBe("");
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
  });

  it("logs --follow of a run still working stops at once with its code so far (0), the run untouched", async () => {
    // Ten hours emulated (36 s here, far past a loaded machine's start-up of the child), an entry every 3.6 ms
    // here: the follow would write for the whole run.
    emulator.control.script({ match: "long follow", durationMs: 36_000_000, logSteps: 10_000 });
    const created = await cli(["create", "--prompt", "a long follow", "--json"], { env });
    expect(created.code).toBe(0);
    const run = parseJson<AgentRun>(created.stdout);

    // Polled every 250 ms, not 10: the run is queued for its first 3.6 s, and 10 ms polls would spend the client's
    // 60 calls a minute before its first entry, then wait out the minute (on a quiet machine; a loaded one polls slower).
    const result = await runIntoHead(["logs", String(run.id), "--follow", "--json"], { ...env, AGENT_RUN_POLL_INTERVAL: "0.25" });
    expect(JSON.parse(result.firstLine)).toMatchObject({ agent_run_id: run.id });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // It stopped because nobody reads, not because the run ended: the run is still working.
    expect(emulator.control.runs().find((r) => r.id === run.id)?.status).not.toMatch(/complete|fail/i);
  });
});

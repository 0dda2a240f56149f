/**
 * `agent-run create / get / wait / resume` in-process against the real emulator over loopback:
 * exit codes, JSON checked against the emulator's own state, human blocks, progress, timeouts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { AgentRun } from "../../../src/service/index.js";
import { cli, envFor, memoryIo, parseJson, startTestEmulator } from "./helpers.js";
import { runCli } from "../../../src/cli/main.js";

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
});
afterAll(async () => {
  await emulator.close();
});

function emulatorRun(id: number): AgentRun {
  const run = emulator.control.runs().find((r) => r.id === id);
  if (!run) throw new Error(`the emulator has no run ${id}`);
  return run;
}

/** A run that stays in progress for `seconds` of real time at the test's time scale (1/1000). */
function scriptLongRun(match: string, seconds: number): void {
  emulator.control.script({ match, durationMs: seconds * 1000 * 1000 });
}

describe("agent-run create", () => {
  it("--json prints exactly the run the emulator created, with the CLI's source_type", async () => {
    const result = await cli(["create", "--prompt", "Add a health check", "--json"], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const run = parseJson<AgentRun>(result.stdout);
    const stored = emulatorRun(run.id);
    expect(run.id).toBe(stored.id);
    expect(run.web_url).toBe(stored.web_url);
    // The id of its own a create carries, so that a lost answer can be found in the runs list.
    expect(run.metadata).toEqual({ source_type: "API", bridge_task_id: expect.stringMatching(/^cli-[0-9a-f-]{36}$/) });
    expect(stored.metadata).toEqual(run.metadata);
  });

  it("--wait follows the run to completed and prints summary and pull requests", async () => {
    const result = await cli(["create", "--prompt", "Fix the login redirect", "--wait"], { env });
    expect(result.code).toBe(0);
    const id = Number(/created run (\d+)/.exec(result.stdout)?.[1]);
    const stored = emulatorRun(id);
    expect(stored.status).toBe("completed");
    const pr = stored.git_host_pull_requests?.[0];
    expect(pr?.url).toBeTruthy();
    expect(result.stdout).toMatch(new RegExp(`^run\\s+${id}$`, "m"));
    expect(result.stdout).toMatch(/^status\s+completed$/m);
    expect(result.stdout).toContain(stored.web_url!);
    expect(result.stdout).toContain(stored.summary!.split("\n")[0]!);
    expect(result.stdout).toContain(pr!.url!);
    expect(result.stdout).toContain(pr!.title!);
    expect(result.stdout).toContain(`branch ${pr!.head_branch_name}`);
    // Not a terminal: no progress line.
    expect(result.stdout).not.toContain("\r");
  });

  it("--wait --json prints only the final run, equal to the emulator's state", async () => {
    const result = await cli(["create", "--prompt", "Bump dependencies", "--wait", "--json"], { env });
    expect(result.code).toBe(0);
    const run = parseJson<AgentRun>(result.stdout);
    expect(run.status).toBe("completed");
    expect(run).toEqual(emulatorRun(run.id));
    expect(run.git_host_pull_requests).toHaveLength(1);
  });

  it("exits 1 when the watched run ends failed", async () => {
    emulator.control.script({ match: "doomed task", outcome: "failed", errorMessage: "tests kept failing" });
    const result = await cli(["create", "--prompt", "a doomed task", "--wait", "--json"], { env });
    expect(result.code).toBe(1);
    const run = parseJson<AgentRun>(result.stdout);
    expect(run.status).toBe("failed");
    expect(emulatorRun(run.id).status).toBe("failed");
  });

  it("exits 1 for a deployment-style failure status too (TIMEOUT)", async () => {
    emulator.control.script({ match: "too slow", outcome: "failed", finalStatus: "TIMEOUT" });
    const result = await cli(["create", "--prompt", "too slow to finish", "--wait"], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^status\s+TIMEOUT$/m);
  });

  it("draws a live progress line on a terminal, then clears it for the final block", async () => {
    scriptLongRun("progress please", 0.3);
    const result = await cli(["create", "--prompt", "progress please", "--wait"], { env, isTTY: true });
    expect(result.code).toBe(0);
    const id = Number(/created run (\d+)/.exec(result.stdout)?.[1]);
    expect(result.stdout).toMatch(new RegExp(`\\rrun ${id}  (queued|running)  \\d+s\\x1b\\[K`));
    // The block comes after the line was cleared.
    const block = result.stdout.slice(result.stdout.lastIndexOf("\r\x1b[K") + 4);
    expect(block).toMatch(/^run\s+\d+\nstatus\s+completed\n/);
  });

  it("--json on a terminal still prints nothing but the run on stdout", async () => {
    const result = await cli(["create", "--prompt", "quiet please", "--wait", "--json"], { env, isTTY: true });
    expect(result.code).toBe(0);
    expect(parseJson<AgentRun>(result.stdout).status).toBe("completed");
  });

  it("--prompt - reads the prompt from stdin", async () => {
    emulator.control.script({ match: "prompt from a pipe", outcome: "failed" });
    const result = await cli(["create", "--prompt", "-", "--wait", "--json"], { env, stdin: "a prompt from a pipe\n" });
    // Only the piped text can have matched the failing script.
    expect(result.code).toBe(1);
  });

  it("--timeout stops watching with exit 3, names the run's page, and leaves the run going", async () => {
    scriptLongRun("marathon", 30);
    const result = await cli(["create", "--prompt", "a marathon", "--wait", "--timeout", "0.2", "--json"], { env });
    expect(result.code).toBe(3);
    const last = parseJson<AgentRun>(result.stdout);
    expect(last.status).toMatch(/queued|running/);
    expect(result.stderr).toContain(`agent-run: run ${last.id} is still ${last.status}`);
    expect(result.stderr).toContain("--timeout");
    expect(result.stderr).toContain(last.web_url!);
    expect(emulatorRun(last.id).status).toMatch(/queued|running/);
  });
});

describe("agent-run get", () => {
  it("--json equals the emulator's run; the human block names id, status, link and PR", async () => {
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "Document the API", "--wait", "--json"], { env })).stdout);
    const json = await cli(["get", String(created.id), "--json"], { env });
    expect(json.code).toBe(0);
    expect(parseJson<AgentRun>(json.stdout)).toEqual(emulatorRun(created.id));

    const human = await cli(["get", String(created.id)], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^run\\s+${created.id}$`, "m"));
    expect(human.stdout).toMatch(/^status\s+completed$/m);
    expect(human.stdout).toContain(created.web_url!);
    expect(human.stdout).toContain(created.git_host_pull_requests![0]!.url!);
  });

  it("exits 3 with the service's hint for a run that does not exist", async () => {
    const result = await cli(["get", "999999"], { env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^agent-run: Not found \(404\)/);
  });
});

describe("agent-run wait", () => {
  it("waits for a run created earlier and exits with its outcome", async () => {
    scriptLongRun("slow and steady", 0.15);
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "slow and steady", "--json"], { env })).stdout);
    const result = await cli(["wait", String(created.id), "--json"], { env });
    expect(result.code).toBe(0);
    expect(parseJson<AgentRun>(result.stdout).status).toBe("completed");
  });

  it("Ctrl-C stops watching with exit 130 and says where the run keeps going", async () => {
    scriptLongRun("endless", 30);
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "endless", "--json"], { env })).stdout);
    const memory = memoryIo({ env });
    const running = runCli(["wait", String(created.id)], memory.io);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(memory.signal("SIGINT")).toBe(true);
    expect(await running).toBe(130);
    expect(memory.stderr()).toContain(`stopped watching run ${created.id}; it keeps going: follow it at ${created.web_url}`);
    expect(memory.stdout()).toMatch(new RegExp(`^run\\s+${created.id}$`, "m"));
  });
});

describe("agent-run resume", () => {
  it("continues a finished run and follows it to completed", async () => {
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "Write the changelog", "--wait", "--json"], { env })).stdout);
    const before = emulator.control.stats().runsResumed;
    const result = await cli(["resume", String(created.id), "--prompt", "Also mention the CLI", "--wait", "--json"], { env });
    expect(result.code).toBe(0);
    const run = parseJson<AgentRun>(result.stdout);
    expect(run.id).toBe(created.id);
    expect(run.status).toBe("completed");
    expect(emulator.control.stats().runsResumed).toBe(before + 1);
  });

  it("exits 3 when the service refuses (the run is still going)", async () => {
    scriptLongRun("busy bee", 30);
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "busy bee", "--json"], { env })).stdout);
    const result = await cli(["resume", String(created.id), "--prompt", "more"], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("409");
    expect(result.stderr).toContain("still running");
  });
});

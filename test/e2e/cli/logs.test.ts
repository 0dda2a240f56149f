/** `agent-run logs`: pagination through `skip`, JSON lines, and `--follow` until the run is final. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { AgentRunClient, type AgentRun, type LogEntry } from "../../../src/service/index.js";
import { runCli } from "../../../src/cli/main.js";
import { cli, envFor, memoryIo, parseJson, startTestEmulator } from "./helpers.js";

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;
let client: AgentRunClient;

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
  client = new AgentRunClient({ baseUrl: emulator.url, token: emulator.token, orgId: emulator.orgId });
});
afterAll(async () => {
  await emulator.close();
});

function jsonLines(stdout: string): LogEntry[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LogEntry);
}

async function createFinishedRun(prompt: string): Promise<AgentRun> {
  const result = await cli(["create", "--prompt", prompt, "--wait", "--json"], { env });
  expect(result.code).toBe(0);
  return parseJson<AgentRun>(result.stdout);
}

describe("agent-run logs", () => {
  it("--json pages through a 250-entry trace: one line per entry, as many as total_logs, in order", async () => {
    emulator.control.script({ match: "long trace", logSteps: 250 });
    const run = await createFinishedRun("a long trace");
    const before = emulator.control.stats().byRoute.runLogs ?? 0;

    const result = await cli(["logs", String(run.id), "--json"], { env });
    expect(result.code).toBe(0);
    const entries = jsonLines(result.stdout);
    const page = await client.listLogs(run.id, { limit: 1 });
    expect(page.total_logs).toBe(250);
    expect(entries).toHaveLength(page.total_logs!);
    expect(entries.every((e) => e.agent_run_id === run.id)).toBe(true);
    const direct: LogEntry[] = [];
    for await (const entry of client.iterateLogs(run.id)) direct.push(entry);
    expect(entries).toEqual(direct);
    // Three pages of at most 100: 100 + 100 + 50.
    expect((emulator.control.stats().byRoute.runLogs ?? 0) - before - 1 /* the listLogs above */ - 3 /* iterateLogs */).toBe(3);
  });

  it("prints one readable line per entry by default", async () => {
    emulator.control.script({ match: "short trace", logSteps: 7 });
    const run = await createFinishedRun("a short trace");
    const result = await cli(["logs", String(run.id)], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatch(/^\d{2}:\d{2}:\d{2} {2}[A-Z_]+/);
    expect(result.stdout).toContain("ripgrep_search");
  });

  it("--follow prints entries as they appear and exits 0 once the run completed", async () => {
    // 0.4 s of real time: the follower sees the trace grow over several polls.
    emulator.control.script({ match: "growing trace", logSteps: 40, durationMs: 400_000 });
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "a growing trace", "--json"], { env })).stdout);
    const before = emulator.control.stats().byRoute.runLogs ?? 0;

    const result = await cli(["logs", String(created.id), "--follow", "--json", "--poll-interval", "0.02"], { env });
    expect(result.code).toBe(0);
    const entries = jsonLines(result.stdout);
    expect(entries).toHaveLength(40);
    expect(new Set(entries.map((e) => e.created_at + JSON.stringify(e))).size).toBe(40);
    const final = await client.getRun(created.id);
    expect(final.status).toBe("completed");
    expect((emulator.control.stats().byRoute.runLogs ?? 0) - before).toBeGreaterThan(3);
  });

  it("--follow on a failed run exits 1 and says how it ended", async () => {
    emulator.control.script({ match: "broken trace", outcome: "failed", logSteps: 5, durationMs: 100_000 });
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "a broken trace", "--json"], { env })).stdout);
    const result = await cli(["logs", String(created.id), "--follow"], { env });
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe(`run ${created.id} ended: failed`);
    expect(result.stdout).toContain("ERROR");
  });

  it("--follow on a finished run prints everything once and exits", async () => {
    emulator.control.script({ match: "done already", logSteps: 120 });
    const run = await createFinishedRun("done already");
    const result = await cli(["logs", String(run.id), "--follow", "--json"], { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toHaveLength(120);
  });

  it("--follow stops on Ctrl-C with exit 130, keeping what it printed", async () => {
    emulator.control.script({ match: "never ending trace", logSteps: 1000, durationMs: 60_000_000 });
    const created = parseJson<AgentRun>((await cli(["create", "--prompt", "a never ending trace", "--json"], { env })).stdout);
    const memory = memoryIo({ env });
    const following = runCli(["logs", String(created.id), "--follow", "--json"], memory.io);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(memory.signal("SIGINT")).toBe(true);
    expect(await following).toBe(130);
    expect(memory.stderr()).toContain(`stopped following run ${created.id}; it keeps going: follow it at ${created.web_url}`);
    expect(jsonLines(memory.stdout()).every((e) => e.agent_run_id === created.id)).toBe(true);
  });

  it("exits 3 for a run that does not exist", async () => {
    const result = await cli(["logs", "424242"], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("404");
  });
});

describe("agent-run logs against a deployment that serves the logs under /v1/alpha/ only", () => {
  let alphaOnly: RunningEmulator;
  beforeAll(async () => {
    alphaOnly = await startTestEmulator({ endpoints: { logs: ["alpha"] } });
  });
  afterAll(async () => {
    await alphaOnly.close();
  });

  it("finds the path by itself and says so once; --logs-path alpha goes there directly", async () => {
    alphaOnly.control.script({ match: "alpha trace", logSteps: 5 });
    const alphaEnv = envFor(alphaOnly);
    const run = parseJson<AgentRun>((await cli(["create", "--prompt", "an alpha trace", "--wait", "--json"], { env: alphaEnv })).stdout);

    const found = await cli(["logs", String(run.id), "--json"], { env: alphaEnv });
    expect(found.code).toBe(0);
    expect(jsonLines(found.stdout)).toHaveLength(5);
    expect(found.stderr).toBe(
      "agent-run: The logs endpoint answers at /v1/alpha/organizations/{org_id}/agent/run/{id}/logs (not the spec's path): this client uses that path from now on.\n",
    );

    const before = alphaOnly.control.stats().byRoute;
    const pinned = await cli(["logs", String(run.id), "--json", "--logs-path", "alpha"], { env: alphaEnv });
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toBe("");
    expect(alphaOnly.control.stats().byRoute.runLogs).toBe(before.runLogs);
  });

  it("AGENT_RUN_LOGS_PATH=spec pins the spec's path: 404, exit 3; a bad value is a usage error", async () => {
    const run = parseJson<AgentRun>((await cli(["create", "--prompt", "pinned", "--wait", "--json"], { env: envFor(alphaOnly) })).stdout);
    const pinned = await cli(["logs", String(run.id)], { env: envFor(alphaOnly, { AGENT_RUN_LOGS_PATH: "spec" }) });
    expect(pinned.code).toBe(3);
    expect(pinned.stderr).toContain("404");
    const bad = await cli(["logs", String(run.id), "--logs-path", "beta"], { env: envFor(alphaOnly) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--logs-path must be one of auto, spec, alpha, got 'beta'");
  });
});

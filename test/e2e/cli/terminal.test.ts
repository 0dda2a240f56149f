/**
 * What a run says cannot drive the operator's terminal: against the emulator, a run whose prompt,
 * summary, result and pull request carry OSC 52 (clipboard), OSC 0/8 (title, hidden link), CSI,
 * their 8-bit C1 forms, BEL, DEL, backspace, a line-overwriting carriage return and bidi overrides.
 * Every command's stdout and stderr hold none of those characters raw, the human output shows them
 * escaped, and `--json` still parses back to exactly the service's values. A service error body and
 * a repository's config file carry the same attack to stderr.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { AgentRun, LogEntry } from "../../../src/service/index.js";
import { startScriptedServer } from "../../helpers/scripted-server.js";
import { cli, envFor, parseJson, startTestEmulator, type CliResult } from "./helpers.js";

const ATTACK = [
  "\x1b]52;c;cm0gLXJmIH4K\x07", // OSC 52: writes "rm -rf ~" into the clipboard
  "\x1b]0;innocent title\x1b\\", // OSC 0: the window title, ended by ST
  "\x1b]8;;https://evil.example\x07docs\x1b]8;;\x07", // OSC 8: a link hidden behind other text
  "\x1b[2J\x1b[31m", // CSI: clear the screen, turn red
  "\x9b2J\x9d0;c1 title\x9c", // the same in 8-bit C1 (U+009B CSI, U+009D OSC, U+009C ST)
  "tests passed\rtests FAILED", // a carriage return that overwrites the line
  "\u202eevil\u202c \u2066isolated\u2069", // right-to-left override, isolate
  "bell\x07 del\x7f back\b\b",
].join(" ");

/** Every character the terminal would act on; tab and newline are the text's own layout. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function expectNoRawControl(result: CliResult): void {
  expect(result.stdout).not.toMatch(RAW_CONTROL);
  expect(result.stderr).not.toMatch(RAW_CONTROL);
}

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;
let run: AgentRun;
let created: CliResult;

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
  emulator.control.script({
    match: "hostile",
    summary: `summary ${ATTACK}`,
    result: `result ${ATTACK}`,
    pullRequests: [{ title: `title ${ATTACK}`, head_branch_name: "fix\x1b[8mhidden" }],
  });
  created = await cli(["create", "--prompt", `a hostile task ${ATTACK}`, "--wait"], { env });
  expect(created.code).toBe(0);
  const id = Number(/created run (\d+)/.exec(created.stdout)?.[1]);
  run = emulator.control.runs().find((r) => r.id === id) as AgentRun;
});
afterAll(async () => {
  await emulator.close();
});

describe("the CLI's output of text from the service", () => {
  it("create --wait: the human block shows every control escaped and none raw", () => {
    expectNoRawControl(created);
    expect(created.stdout).toContain(
      "summary  summary \\x1b]52;c;cm0gLXJmIH4K\\x07 \\x1b]0;innocent title\\x1b\\ \\x1b]8;;https://evil.example\\x07docs\\x1b]8;;\\x07 " +
        "\\x1b[2J\\x1b[31m \\x9b2J\\x9d0;c1 title\\x9c tests passed\\x0dtests FAILED \\u202eevil\\u202c \\u2066isolated\\u2069 bell\\x07 del\\x7f back\\x08\\x08",
    );
    expect(created.stdout).toContain("branch fix\\x1b[8mhidden");
  });

  it("get, wait and resume: human output escaped, --json the service's exact values", async () => {
    const id = String(run.id);
    const human = [await cli(["get", id], { env }), await cli(["wait", id], { env })];
    for (const result of human) {
      expectNoRawControl(result);
      expect(result.stdout).toContain("result   result \\x1b]52;c;");
    }
    for (const argv of [
      ["get", id, "--json"],
      ["wait", id, "--json"],
    ]) {
      const result = await cli(argv, { env });
      expect(result.code).toBe(0);
      expectNoRawControl(result);
      const printed = parseJson<AgentRun>(result.stdout);
      expect(printed.summary).toBe(`summary ${ATTACK}`);
      expect(printed.result).toBe(`result ${ATTACK}`);
      expect(printed.git_host_pull_requests?.[0]?.title).toBe(`title ${ATTACK}`);
      expect(printed).toEqual(emulator.control.runs().find((r) => r.id === run.id));
    }
    const resumed = await cli(["resume", id, "--prompt", "hostile again", "--wait", "--json"], { env });
    expect(resumed.code).toBe(0);
    expectNoRawControl(resumed);
    expect(parseJson<AgentRun>(resumed.stdout).summary).toBe(`summary ${ATTACK}`);
  });

  it("logs, logs --follow and logs --json: the prompt the trace repeats is escaped, JSON lines exact", async () => {
    const id = String(run.id);
    for (const argv of [
      ["logs", id],
      ["logs", id, "--follow"],
    ]) {
      const result = await cli(argv, { env });
      expect(result.code).toBe(0);
      expectNoRawControl(result);
      expect(result.stdout).toContain("a hostile task \\x1b]52;c;cm0gLXJmIH4K\\x07");
    }
    const json = await cli(["logs", id, "--json"], { env });
    expectNoRawControl(json);
    const entries = json.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as LogEntry);
    expect(entries).toEqual(emulator.control.logs(run.id));
    expect(entries.some((entry) => entry.thought?.includes("a hostile task \x1b]52;c;cm0gLXJmIH4K\x07"))).toBe(true);
  });
});

describe("the live progress line on a terminal", () => {
  it("carries the CLI's own carriage return and erase-line only; a status from the service is escaped in it", async () => {
    emulator.control.script({ match: "odd status", finalStatus: `DONE\x1b]52;c;cm0gLXJmIH4K\x07` });
    const result = await cli(["create", "--prompt", "odd status", "--wait", "--timeout", "0.5"], { env, isTTY: true });
    // An unknown status is watched until --timeout.
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("\r");
    expect(result.stdout).toContain("DONE\\x1b]52;c;cm0gLXJmIH4K\\x07");
    expect(result.stdout.replaceAll("\r", "").replaceAll("\x1b[K", "")).not.toMatch(RAW_CONTROL);
    expectNoRawControl({ ...result, stdout: "" });
  });
});

describe("stderr", () => {
  it("a service error body is escaped in the message", async () => {
    const server = await startScriptedServer([{ status: 404, body: { message: `Agent run not found. ${ATTACK}`, status_code: 404 } }]);
    try {
      const result = await cli(["get", "7", "--api-url", server.url, "--token", "t0ken-for-test", "--org-id", "1"]);
      expect(result.code).toBe(3);
      expectNoRawControl(result);
      expect(result.stderr).toContain("Agent run not found. \\x1b]52;c;cm0gLXJmIH4K\\x07");
    } finally {
      await server.close();
    }
  });

  it("config check: a key named with controls in a repository's file is escaped in the problem line", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agent-run-terminal-"));
    try {
      await writeFile(join(dir, "hostile.yml"), `"trigger\x1b]52;c;cm0gLXJmIH4K\x07": /bot\n`);
      const result = await cli(["config", "check", "hostile.yml"], { cwd: dir });
      expect(result.code).toBe(2);
      expectNoRawControl(result);
      expect(result.stderr).toContain("trigger\\x1b]52;c;cm0gLXJmIH4K\\x07");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

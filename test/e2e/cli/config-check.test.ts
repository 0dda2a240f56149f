/**
 * `agent-run config check [FILE]`: the CLI in-process on real files in a temporary repository.
 * Valid → exit 0 and one summary line; invalid → exit 2 and every problem with its line, column
 * and path, unknown keys with a suggestion; nothing is sent anywhere.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, cliProcess } from "./helpers.js";

let repo: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), "agent-run-config-"));
  await mkdir(join(repo, ".github"));
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

const write = (path: string, text: string) => writeFile(join(repo, path), text);

describe("agent-run config check", () => {
  it("a valid file at the default path: exit 0 and one line saying what it turns on", async () => {
    await write(
      ".github/agent-run.yml",
      "trigger_phrase: /bot\ncheck_suite:\n  enabled: true\n  max_attempts: 2\nlimits:\n  runs_per_repo_per_hour: 10\nkill_switch_label: bot:off\n",
    );
    const result = await cli(["config", "check"], { cwd: repo });
    expect(result).toEqual({
      code: 0,
      stderr: "",
      stdout:
        ".github/agent-run.yml is valid: trigger `/bot` or a mention, label `agent` on, reviews on, CI auto-fix on (2 attempts per pull request), limits 20 runs/thread/day, 10 runs/repo/hour, 20 CI fixes/repo/day, kill switch `bot:off`.\n",
    });
  });

  it("the issue's example: `check_suite: { auto_fix: true }` → exit 2, the line, the path and `enabled` suggested", async () => {
    await write("typo.yml", "# CI fixes\ncheck_suite:\n  auto_fix: true\n");
    const result = await cli(["config", "check", "typo.yml"], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([
      "typo.yml:3:3: `check_suite.auto_fix`: unknown key (a typo?). Did you mean `enabled`? Allowed keys here: enabled, max_attempts, branches, ignore_checks, allow_forks.",
      "agent-run: typo.yml is invalid (1 problem): the bridge would not act on it.",
      "",
    ]);
  });

  it("every problem at once, each at its own line", async () => {
    await write(
      "many.yml",
      [
        "trigger_phrse: /bot",
        "check_suite:",
        "  max_attempts: 50",
        "limits:",
        "  runs_per_repo_per_hour: 0",
        "permissions:",
        "  minimum: read",
        "follow_up: later",
      ].join("\n"),
    );
    const result = await cli(["config", "check", "many.yml"], { cwd: repo });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^many\.yml:1:1: `trigger_phrse`: unknown key \(a typo\?\)\. Did you mean `trigger_phrase`\?/),
        "many.yml:3:17: `check_suite.max_attempts`: must be an integer between 1 and 20 (got 50)",
        "many.yml:5:27: `limits.runs_per_repo_per_hour`: must be an integer between 1 and 10000 (got 0)",
        'many.yml:7:12: `permissions.minimum`: must be one of: write, maintain, admin (got "read")',
        'many.yml:8:12: `follow_up`: must be one of: queue, new, interrupt (got "later")',
      ]),
    );
    expect(lines.at(-1)).toBe("agent-run: many.yml is invalid (5 problems): the bridge would not act on it.");
  });

  it("YAML that does not parse, and duplicate keys, point at the spot", async () => {
    await write("broken.yml", "check_suite:\n  enabled: true\n  enabled: false\n");
    const duplicate = await cli(["config", "check", "broken.yml"], { cwd: repo });
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/^broken\.yml:3:3: not valid YAML: Map keys must be unique\n/);

    const unclosed = await cli(["config", "check", "-"], { cwd: repo, stdin: "label: [agent,\n" });
    expect(unclosed.code).toBe(2);
    expect(unclosed.stderr).toMatch(/^<stdin>:\d+:\d+: not valid YAML: /);
  });

  it("`_extends` is accepted (the App resolves it) and said so; a non-string one is a problem", async () => {
    const ok = await cli(["config", "check", "-"], { cwd: repo, stdin: "_extends: octo-org/.github\nmention: false\n" });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^<stdin> is valid: trigger `\/agent`, .*; it extends `octo-org\/\.github`, which the App merges in when it reads the file if it is a file of this repository or of the owner's `\.github` repository, no more private than this one \(not checked here\)\.\n$/,
    );

    const bad = await cli(["config", "check", "-"], { cwd: repo, stdin: "_extends: [a, b]\n" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^<stdin>:1:11: `_extends`: must be the file to inherit from/);
  });

  it("an empty file is valid: every default", async () => {
    await write("empty.yml", "# nothing yet\n");
    const result = await cli(["config", "check", "empty.yml"], { cwd: repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^empty\.yml is valid \(empty: every default applies\): trigger `\/agent`/);
  });

  it("a missing file is a usage error that says where it looked", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), "agent-run-config-none-"));
    try {
      const result = await cli(["config", "check"], { cwd: elsewhere });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "agent-run: config check: .github/agent-run.yml does not exist. Run the command in the repository's root, or pass the file's path. (Without the file every default applies.)\n",
      );
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("agent-run config check, as a real process on a broken file", () => {
  it("lists the problems in line order, each with the value the user wrote (automations too), controls escaped", async () => {
    await write(
      "order.yml",
      [
        "automations:", // 1
        "  - name: nightly", // 2
        "    on: schedule.daily_fun", // 3
        "    prompt: 12", // 4
        "label:", // 5
        "  name: 5", // 6
        '  enabled: "yes please ok"', // 7
        "follow_up: later", // 8
        "check_suite:", // 9
        "  max_attempts: 50", // 10
        '  branches: "main\u001b[2Jbranch"', // 11: a terminal control in the user's own value
        "trigger_phrse: /bot", // 12
      ].join("\n"),
    );
    const result = await cliProcess(["config", "check", "order.yml"], { cwd: repo });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      'order.yml:3:9: `automations[0].on`: must be one of issues.opened, pull_request.opened, pull_request.ready_for_review (got "schedule.daily_fun")',
      "order.yml:4:13: `automations[0].prompt`: must be the instruction for the agent (text) (got 12)",
      'order.yml:6:9: `label.name`: must be a label name such as "agent" (got 5)',
      'order.yml:7:12: `label.enabled`: must be true or false (got "yes please ok")',
      'order.yml:8:12: `follow_up`: must be one of: queue, new, interrupt (got "later")',
      "order.yml:10:17: `check_suite.max_attempts`: must be an integer between 1 and 20 (got 50)",
      // JSON quoting shows the control as \u001b: the terminal never receives ESC.
      'order.yml:11:13: `check_suite.branches`: must be a list of glob patterns such as ["main", "feature/**"] (got "main\\u001b[2Jbranch")',
      expect.stringMatching(/^order\.yml:12:1: `trigger_phrse`: unknown key \(a typo\?\)\. Did you mean `trigger_phrase`\?/),
      "agent-run: order.yml is invalid (8 problems): the bridge would not act on it.",
    ]);
    expect(result.stderr).not.toContain("\x1b");
    expect(result.stderr).not.toMatch(/got text of|got an integer/);
  });

  it("a YAML error shows the offending line with a caret under the column; several come in line order", async () => {
    await write(
      "yaml.yml",
      ["check_suite:", "  enabled: true", "  enabled: false", "label:", "\tname: x\u001b]0;pwned\u0007", ""].join("\n"),
    );
    const [duplicate, unclosed] = await Promise.all([
      cliProcess(["config", "check", "yaml.yml"], { cwd: repo }),
      cliProcess(["config", "check", "-"], { cwd: repo, stdin: "mention: false\nlabel: [agent,\n" }),
    ]);
    expect(duplicate.code).toBe(2);
    const lines = duplicate.stderr.split("\n");
    expect(lines.slice(0, 3)).toEqual(["yaml.yml:3:3: not valid YAML: Map keys must be unique", "    3 |   enabled: false", "      |   ^"]);
    // The tab-indented line: shown with its tab, the caret under its column, the OSC sequence escaped.
    expect(lines[3]).toMatch(/^yaml\.yml:5:1: not valid YAML: /);
    expect(lines[4]).toBe("    5 | \tname: x\\x1b]0;pwned\\x07");
    expect(lines[5]).toBe("      | ^");
    expect(lines.at(-2)).toMatch(/^agent-run: yaml\.yml is invalid \(\d problems\)/);

    expect(unclosed.code).toBe(2);
    expect(unclosed.stderr).toMatch(/^<stdin>:3:1: not valid YAML: .*\n {4}3 \| \(the end of the file\)\n {6}\| \^\n/);
  });
});

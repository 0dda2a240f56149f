/**
 * The Action's inputs: action.yml and the reader agree, and bad inputs are refused with a message
 * naming each input (the token's value never shows).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { INPUT_NAMES, InputError, readInputs } from "../../../src/action/inputs.js";
import { inputVariable } from "../../../src/action/raw-inputs.js";
import { classifyActor } from "../../../src/core/actors.js";
import { OUTPUT_NAMES } from "../../../src/action/report.js";

interface ActionYml {
  runs: { using: string; main: string };
  inputs: Record<string, { required?: boolean; default?: string; description: string }>;
  outputs: Record<string, { description: string }>;
}
const actionYml = parseYaml(readFileSync(new URL("../../../action.yml", import.meta.url), "utf8")) as ActionYml;

const required = { "INPUT_API-URL": "http://127.0.0.1:4010", "INPUT_API-TOKEN": "s3cret-token", "INPUT_ORG-ID": "7" };

function problems(env: Record<string, string>): string[] {
  try {
    readInputs(env);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error("expected an InputError");
}

describe("action.yml", () => {
  it("runs the committed bundle on node24 and declares exactly the inputs and outputs the code reads and writes", () => {
    expect(actionYml.runs).toEqual({ using: "node24", main: "dist/index.js", post: "dist/post.js" });
    expect(Object.keys(actionYml.inputs).sort()).toEqual([...INPUT_NAMES].sort());
    expect(Object.keys(actionYml.outputs).sort()).toEqual([...OUTPUT_NAMES].sort());
    for (const name of ["api-url", "api-token", "org-id"]) expect(actionYml.inputs[name]!.required, name).toBe(true);
    expect(actionYml.inputs["github-token"]!.default).toBe("${{ github.token }}");
    expect(actionYml.inputs.wait!.default).toBe("true");
    expect(actionYml.inputs["timeout-minutes"]!.default).toBe("60");
    expect(actionYml.inputs.comment!.default).toBe("auto");
    expect(actionYml.inputs.mode!.default).toBe("auto");
    expect(actionYml.inputs["fail-on-error"]!.default).toBe("true");
    expect(actionYml.inputs["allowed-bots"]!.default).toBe("");
  });

  it("defaults in action.yml read back as the reader's own defaults", () => {
    const env: Record<string, string> = { ...required };
    for (const [name, input] of Object.entries(actionYml.inputs)) {
      if (input.default !== undefined && !input.default.includes("${{")) env[inputVariable(name)] = input.default;
    }
    expect(readInputs(env)).toEqual(readInputs(required));
  });
});

describe("readInputs", () => {
  it("names the variable the runner sets: upper case, spaces as _, hyphens kept", () => {
    expect(inputVariable("api-url")).toBe("INPUT_API-URL");
    expect(inputVariable("my input")).toBe("INPUT_MY_INPUT");
  });

  it("reads every input into one typed object", () => {
    const inputs = readInputs({
      ...required,
      INPUT_PROMPT: "  Bump the dependencies  ",
      "INPUT_REPO-ID": "12",
      INPUT_MODEL: "big-model",
      "INPUT_AGENT-TYPE": "partner_code",
      INPUT_METADATA: '{"ticket":"ENG-1","nested":{"a":1}}',
      INPUT_IMAGES: "screens/a.png\n\ndata:image/png;base64,iVBORw0KGgo=\n",
      "INPUT_TRIGGER-PHRASE": "/bot",
      INPUT_WAIT: "False",
      "INPUT_TIMEOUT-MINUTES": "2.5",
      INPUT_COMMENT: "TRUE",
      "INPUT_GITHUB-TOKEN": "ghs_abc",
      "INPUT_ALLOWED-BOTS": "renovate[bot], @dependabot\nmy-app[bot]",
      "INPUT_ALLOWED-NON-WRITE-USERS": "octocat,\n@hubot",
      "INPUT_FAIL-ON-ERROR": "false",
      "INPUT_LOGS-PATH": "Alpha",
    });
    expect(inputs).toEqual({
      apiUrl: "http://127.0.0.1:4010",
      apiToken: "s3cret-token",
      orgId: 7,
      prompt: "Bump the dependencies",
      mode: "auto",
      runId: undefined,
      repoId: 12,
      model: "big-model",
      agentType: "partner_code",
      metadata: { ticket: "ENG-1", nested: { a: 1 } },
      images: [
        { kind: "file", path: "screens/a.png" },
        { kind: "data_uri", uri: "data:image/png;base64,iVBORw0KGgo=" },
      ],
      triggerPhrase: "/bot",
      wait: false,
      timeoutMinutes: 2.5,
      comment: "true",
      githubToken: "ghs_abc",
      allowedBots: { all: false, logins: ["renovate[bot]", "dependabot", "my-app[bot]"] },
      allowedNonWriteUsers: { all: false, logins: ["octocat", "hubot"] },
      failOnError: false,
      logsPath: "alpha",
      redactPatterns: [],
    });
  });

  it("fills defaults: no trigger phrase of its own (the file's, else /agent), wait, 60 minutes, comments when there is a thread", () => {
    expect(readInputs(required)).toMatchObject({
      prompt: undefined,
      mode: "auto",
      triggerPhrase: undefined,
      wait: true,
      timeoutMinutes: 60,
      comment: "auto",
      logsPath: "auto",
      allowedBots: { all: false, logins: [] },
      failOnError: true,
      images: [],
      metadata: undefined,
    });
  });

  it("reports missing required inputs together, saying what to pass", () => {
    expect(problems({})).toEqual([
      "`api-url` is required: the service's base URL, such as https://agents.example.com",
      "`api-token` is required: pass the service's API token from a secret, e.g. `api-token: ${{ secrets.AGENT_RUN_API_TOKEN }}`",
      "`org-id` is required: the service's organization id, a positive integer",
    ]);
  });

  it("names each bad input and what it must be", () => {
    expect(
      problems({
        ...required,
        "INPUT_API-URL": "ftp://example.com",
        "INPUT_ORG-ID": "acme",
        "INPUT_AGENT-TYPE": "claude",
        "INPUT_REPO-ID": "0",
        INPUT_WAIT: "yes",
        "INPUT_TIMEOUT-MINUTES": "0",
        INPUT_MODE: "later",
        INPUT_COMMENT: "sometimes",
        "INPUT_TRIGGER-PHRASE": "two\nlines",
        "INPUT_LOGS-PATH": "beta",
      }),
    ).toEqual([
      '`api-url` must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got "ftp://example.com"',
      '`org-id` must be a positive integer (the service\'s organization id), got "acme"',
      '`mode` must be one of: auto, create, resume, got "later"',
      '`repo-id` must be a positive integer (the service\'s repository id), got "0"',
      '`agent-type` must be one of: native, partner_code, got "claude"',
      '`trigger-phrase` must be one line that starts and ends with a non-space character, such as "/agent", got "two\\nlines"',
      '`wait` must be true or false, got "yes"',
      '`timeout-minutes` must be a number of minutes greater than 0 and at most 7200, got "0"',
      '`comment` must be one of: auto, true, false, got "sometimes"',
      '`logs-path` must be one of: auto, spec, alpha, got "beta"',
    ]);
  });

  it("refuses metadata that is not a JSON object", () => {
    expect(problems({ ...required, INPUT_METADATA: "[1,2]" })).toEqual([
      '`metadata` must be a JSON object such as {"ticket":"ENG-1"}, not an array, a string, a number or null',
    ]);
    expect(problems({ ...required, INPUT_METADATA: "null" })).toEqual([
      '`metadata` must be a JSON object such as {"ticket":"ENG-1"}, not an array, a string, a number or null',
    ]);
    expect(problems({ ...required, INPUT_METADATA: "{ticket: 1}" })[0]).toMatch(
      /^`metadata` must be a JSON object such as \{"ticket":"ENG-1"\}, but it is not valid JSON \(/,
    );
  });

  it("refuses metadata that sets a key the bridge writes itself, naming it and listing the reserved keys", () => {
    const [problem] = problems({ ...required, INPUT_METADATA: '{"ticket":"ENG-1","repository":"octo/other","issue_number":2}' });
    expect(problem).toMatch(
      /^`metadata` sets "repository", "issue_number", which the bridge writes itself; rename those keys \(reserved: source_type, /,
    );
    for (const key of ["source_type", "pull_request_number", "delivery_id", "bridge_task_id", "comment_id", "github_actions_run_url"]) {
      expect(problem).toContain(key);
    }
    expect(problems({ ...required, INPUT_METADATA: '{"source_type":"LOCAL"}' })).toEqual([
      expect.stringMatching(/^`metadata` sets "source_type", which the bridge writes itself; rename that key/),
    ]);
  });

  it("checks images, allowed bots and the resume pair", () => {
    expect(problems({ ...required, INPUT_IMAGES: "a.png\ndata:image/png;base64,???" })).toEqual([
      "`images` line 2 is not a base64 data URI such as data:image/png;base64,iVBOR…",
    ]);
    expect(problems({ ...required, INPUT_IMAGES: Array.from({ length: 11 }, (_, i) => `${i}.png`).join("\n") })).toEqual([
      "`images` lists 11 images; at most 10 are accepted",
    ]);
    expect(problems({ ...required, "INPUT_ALLOWED-BOTS": "renovate[bot], not a login" })).toEqual([
      '`allowed-bots` has "not a login", which is not a login such as renovate[bot] (or * for every bot)',
    ]);
    expect(problems({ ...required, INPUT_MODE: "resume" })).toEqual([
      "`run-id` is required with `mode: resume`: the id of the run to continue",
      "`prompt` is required with `mode: resume`: the follow-up instruction for the run",
    ]);
    expect(problems({ ...required, "INPUT_RUN-ID": "5" })).toEqual([
      "`run-id` is only used with `mode: resume` (mode is auto): remove it, or set `mode: resume`",
    ]);
    expect(readInputs({ ...required, INPUT_MODE: "Resume", "INPUT_RUN-ID": "5", INPUT_PROMPT: "go on" })).toMatchObject({
      mode: "resume",
      runId: 5,
      prompt: "go on",
    });
  });

  it("never repeats a token's value in a message", () => {
    const message = (() => {
      try {
        readInputs({ "INPUT_API-TOKEN": "tok-123456", "INPUT_GITHUB-TOKEN": "ghs_secretvalue", "INPUT_ORG-ID": "x" });
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toMatch(/^Invalid inputs: /);
    expect(message).not.toContain("tok-123456");
    expect(message).not.toContain("ghs_secretvalue");
  });
});

describe("allowed-bots", () => {
  it("matches logins with or without [bot], case-insensitively; * lets every bot in; empty lets none", () => {
    const allowedBots = readInputs({ ...required, "INPUT_ALLOWED-BOTS": "renovate[bot], dependabot" }).allowedBots;
    const kind = (login: string, allowed = allowedBots) => classifyActor(login, { botLogins: [], allowedBots: allowed });
    expect(kind("Renovate[bot]")).toBe("allowed_bot");
    expect(kind("dependabot[bot]")).toBe("allowed_bot");
    expect(kind("other[bot]")).toBe("bot");
    expect(kind("other[bot]", readInputs({ ...required, "INPUT_ALLOWED-BOTS": "*" }).allowedBots)).toBe("allowed_bot");
    expect(kind("renovate[bot]", readInputs(required).allowedBots)).toBe("bot");
  });
});

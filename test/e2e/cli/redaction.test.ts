/**
 * The CLI prints run results through the same redaction as the App's and the Action's writes:
 * `agent-run create --wait` and `agent-run get --json` against the emulator, whose run answers with
 * a GitHub token, an AWS key id, URL credentials and the CLI's own API token in its summary.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { AgentRun } from "../../../src/service/index.js";
import { cli, envFor, parseJson, startTestEmulator } from "./helpers.js";

const GITHUB_TOKEN = "ghu_16C7e42F292c6912E7710c838347Ae178B4a";

let emulator: RunningEmulator;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startTestEmulator();
  env = envFor(emulator);
});
afterAll(async () => {
  await emulator.close();
});

describe("agent-run's output of run results", () => {
  it("redacts secrets in the human block and in --json, and says what each was", async () => {
    emulator.control.script({
      match: "leaky",
      summary: `Pushed with ${GITHUB_TOKEN} from https://ci:hunter2-pw@git.example.com; AKIAIOSFODNN7EXAMPLE; token ${emulator.token}`,
    });
    const human = await cli(["create", "--prompt", "a leaky job", "--wait"], { env });
    expect(human.code).toBe(0);
    const id = Number(/created run (\d+)/.exec(human.stdout)?.[1]);
    const json = await cli(["get", String(id), "--json"], { env });
    expect(json.code).toBe(0);
    const expected =
      "Pushed with [redacted GitHub token] from https://[redacted credentials]@git.example.com; [redacted AWS access key id]; token [redacted API token]";
    expect(human.stdout).toContain(expected);
    expect(parseJson<AgentRun>(json.stdout).summary).toBe(expected);
    for (const output of [human.stdout, json.stdout]) {
      for (const secret of [GITHUB_TOKEN, "hunter2-pw", "AKIAIOSFODNN7EXAMPLE", emulator.token]) expect(output).not.toContain(secret);
    }
  });
});

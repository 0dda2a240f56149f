/**
 * `agent-run app` prints the App's log to the terminal: a line that quotes a service error body or a
 * GitHub text carrying escape sequences must not reach it raw. The App's own logger
 * (src/app/logger.ts) runs in a child process writing to its real stdout, in JSON and pretty format.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ATTACK = "Agent run not found. \x1b]52;c;cm0gLXJmIH4K\x07 \x1b[2J \x9b31m \u202eevil\u202c ok\rFAIL";

const CHILD = `
  import { createRedactingLogger } from "./src/app/logger.ts";
  import { createRedactor } from "./src/core/redact.ts";
  const log = await createRedactingLogger({ logLevel: "info", logFormat: process.env.FORMAT }, createRedactor());
  log.warn({ err: new Error(process.env.ATTACK) }, "could not create the run: " + process.env.ATTACK);
`;

async function logged(format: "json" | "pretty"): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
    env: { ...process.env, FORMAT: format, ATTACK, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  return stdout;
}

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe("the App's log on a terminal", () => {
  it("JSON lines: valid JSON, the message's controls shown as text", async () => {
    const stdout = await logged("json");
    expect(stdout).not.toMatch(RAW_CONTROL);
    const line = JSON.parse(stdout.trim().split("\n").at(-1)!) as { msg: string };
    expect(line.msg).toBe(
      "could not create the run: Agent run not found. \\x1b]52;c;cm0gLXJmIH4K\\x07 \\x1b[2J \\x9b31m \\u202eevil\\u202c ok\\x0dFAIL",
    );
  }, 30_000);

  it("pretty lines: the controls shown as text", async () => {
    const stdout = await logged("pretty");
    expect(stdout).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain("could not create the run: Agent run not found. \\x1b]52;c;cm0gLXJmIH4K\\x07");
  }, 30_000);
});

/**
 * The GitHub client's own warnings (a deprecated endpoint, told in GitHub's `Deprecation`, `Sunset`
 * and `Link` headers) reach the job's log through the door, as escaped warnings: over real HTTP,
 * a server whose headers carry workflow commands in both forms the runner reads. Warnings made by
 * the head start's client, before the door opens, wait for it.
 */
import { format } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/redact.js";
import { openDoor } from "../../../src/action/door.js";
import { createActionOctokit } from "../../../src/action/octokit.js";
import { runnerCommandsIn } from "../../helpers/runner-commands.js";
import { startScriptedServer } from "../../helpers/scripted-server.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Everything written to stdout and stderr while `work` runs (console.warn and .error as Node writes them, to stderr). */
async function printedBy(work: () => Promise<void>): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  for (const stream of ["stdout", "stderr"] as const) {
    process[stream].write = ((chunk: string | Uint8Array) => {
      out[stream] += String(chunk);
      return true;
    }) as typeof process.stdout.write;
  }
  const consoleWrites = { warn: console.warn, error: console.error };
  console.warn = console.error = (...args: unknown[]) => (out.stderr += `${format(...args)}\n`);
  try {
    await work();
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    Object.assign(console, consoleWrites);
  }
  return out;
}

describe("the GitHub client's warnings", () => {
  it("are escaped warnings in the step's log, never commands on stderr, even when made before the door opens", async () => {
    const server = await startScriptedServer([
      {
        status: 200,
        body: { id: 5 },
        headers: {
          deprecation: "true",
          sunset: "##[add-mask]the",
          link: '<https://docs.example/::add-mask::a>; rel="deprecation"',
        },
      },
    ]);
    closers.push(server.close);
    const printed = await printedBy(async () => {
      const octokit = await createActionOctokit("ghs_client_token", server.url, "agent-run-bridge/action/test");
      await octokit.request("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner: "acme", repo: "widgets", comment_id: 5 });
      openDoor(createRedactor());
    });
    expect(printed.stderr).toBe("");
    const commands = runnerCommandsIn(printed.stdout + printed.stderr);
    expect(commands.map((c) => c.name)).toEqual(["warning"]);
    expect(commands[0]!.data).toBe(
      `[@octokit/request] "GET ${server.url}/repos/acme/widgets/issues/comments/5" is deprecated. It is scheduled to be removed on ##[add-mask]the. See https://docs.example/::add-mask::a`,
    );
  });
});

/**
 * `agent-run create` when the create's answer is lost: a proxy in front of the emulator passes the
 * create on (the service makes the run) and then answers 504 or drops the connection. The CLI never
 * sends a second create: it finds the run in the runs list by the id its create carried, or, where
 * the service cannot list runs, exits 4 saying the run may have started and how to find it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import type { AgentRun } from "../../../src/service/index.js";
import { losingCreates, startServiceRecorder, type LostAnswer, type ServiceRecorder } from "../../helpers/service-recorder.js";
import { cli, parseJson, startTestEmulator } from "./helpers.js";

let emulator: RunningEmulator | undefined;
let proxy: ServiceRecorder | undefined;
afterEach(async () => {
  await proxy?.close();
  await emulator?.close();
  proxy = emulator = undefined;
});

/** The emulator behind a proxy that loses the answer to the first create as `lost` says; the CLI's environment. */
async function world(lost: LostAnswer, listRuns = true) {
  emulator = await startTestEmulator({ endpoints: { listRuns } });
  proxy = await startServiceRecorder(emulator.url, losingCreates(lost));
  return {
    AGENT_RUN_API_URL: proxy.url,
    AGENT_RUN_API_TOKEN: emulator.token,
    AGENT_RUN_ORG_ID: String(emulator.orgId),
    AGENT_RUN_POLL_INTERVAL: "0.01",
  };
}

describe("agent-run create whose answer is lost", () => {
  it("504 after the service made the run: prints that run (found by its id), exit 0, one create", async () => {
    const env = await world({ forward: true, answer: 504 });
    const result = await cli(["create", "--prompt", "Add a health check", "--json"], { env });

    expect(result.code).toBe(0);
    const [stored] = emulator!.control.runs();
    expect(emulator!.control.runs()).toHaveLength(1);
    expect(emulator!.control.stats().byRoute.createRun).toBe(1);
    expect(parseJson<AgentRun>(result.stdout)).toMatchObject({ id: stored!.id, web_url: stored!.web_url });
    expect(stored!.metadata).toMatchObject({ source_type: "API", bridge_task_id: expect.stringMatching(/^cli-[0-9a-f-]{36}$/) });
    expect(result.stderr).toContain("The answer to the create was lost");
    expect(result.stderr).toContain(`Run ${stored!.id} is the one this create made (found in the runs list by bridge_task_id=cli-`);
  });

  it("a connection reset after sending, with --wait: follows the one run to its end, exit 0", async () => {
    const env = await world({ forward: true, answer: "reset" });
    const result = await cli(["create", "--prompt", "Fix the login redirect", "--wait"], { env });

    expect(result.code).toBe(0);
    expect(emulator!.control.stats().byRoute.createRun).toBe(1);
    const [stored] = emulator!.control.runs();
    expect(result.stdout).toContain(`run ${stored!.id}`);
    expect(result.stdout).toContain("completed");
  });

  it("without the runs list: exit 4, the run may have started, by what to find it; nothing sent again", async () => {
    const env = await world({ forward: true, answer: 504 }, false);
    const result = await cli(["create", "--prompt", "Add a health check", "--json"], { env });

    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    const [stored] = emulator!.control.runs();
    expect(emulator!.control.runs()).toHaveLength(1);
    expect(emulator!.control.stats().byRoute.createRun).toBe(1);
    expect(result.stderr).toContain("The agent run may have started: the create was sent, but a 504 came back instead of the run");
    expect(result.stderr).toContain("the service does not list runs");
    expect(result.stderr).toContain(`bridge_task_id=${String(stored!.metadata!.bridge_task_id)}`);
    expect(result.stderr).not.toContain("could not run");
  });

  it("without the runs list, with AGENT_RUN_RUNS_URL: exit 4 names the service's page of runs", async () => {
    const env = await world({ forward: true, answer: 504 }, false);
    const runsUrl = "https://agents.example.com/runs";
    const result = await cli(["create", "--prompt", "Add a health check"], { env: { ...env, AGENT_RUN_RUNS_URL: runsUrl } });

    expect(result.code).toBe(4);
    expect(emulator!.control.stats().byRoute.createRun).toBe(1);
    expect(result.stderr).toContain(`The organization's runs are on ${runsUrl}.`);
  });

  it("an AGENT_RUN_RUNS_URL that is not https (javascript:): exit 2, nothing sent", async () => {
    const env = await world({ forward: true, answer: 504 }, false);
    const result = await cli(["create", "--prompt", "Add a health check"], { env: { ...env, AGENT_RUN_RUNS_URL: "javascript:alert(1)" } });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("AGENT_RUN_RUNS_URL must be an https:// URL");
    expect(emulator!.control.stats().byRoute.createRun ?? 0).toBe(0);
  });
});

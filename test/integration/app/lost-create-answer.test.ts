/**
 * A create whose answer is lost between the App and the service: a proxy in front of the emulator
 * passes the create on (the run is made) and then answers 504, or drops the connection. The App must
 * neither say the agent could not run (it is working) nor send a second create: it finds the run in
 * the organization's runs list by its own metadata and reports it once. Without the list, the thread
 * says the run may have started, where to look, and how to ask again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { losingCreates } from "../../helpers/service-recorder.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

async function trigger(h: AppHarness): Promise<void> {
  const comment = h.humanComment(ISSUE, "/agent fix the flaky test");
  expect((await h.deliver("issue_comment", comment.payload)).status).toBe(200);
  await h.idle();
}

/** Bodies the App ever wrote in the thread: every version of every comment. */
function everyBody(h: AppHarness): string[] {
  return h.github.writes.flatMap((w) =>
    w.kind === "comment_created" ? [w.comment.body] : w.kind === "comment_updated" ? [w.previousBody, w.comment.body] : [],
  );
}

/** The thread ends with the run's result, written once, and nothing ever said the agent could not run. */
function expectResultOnce(h: AppHarness): void {
  const runs = h.emulator.control.runs();
  expect(runs).toHaveLength(1);
  const comments = h.botComments(1);
  expect(comments).toHaveLength(1);
  expect(parseMarker(comments[0]!.body)).toMatchObject({ runId: runs[0]!.id, state: "done", outcome: "succeeded" });
  // No write replaced a result: it was written once.
  const rewrites = h.github.writes.filter((w) => w.kind === "comment_updated" && parseMarker(w.previousBody)?.state === "done");
  expect(rewrites).toEqual([]);
  for (const body of everyBody(h)) expect(body).not.toContain("could not run");
}

describe("a create whose answer is lost", () => {
  it("504 from a proxy after the service made the run: the run is found in the runs list and reported once", async () => {
    harness = await startAppHarness({ serviceProxy: losingCreates({ forward: true, answer: 504 }) });
    await trigger(harness);

    expect(harness.service.lostAnswers).toMatchObject([{ method: "POST", forwarded: true, status: 200, answer: 504 }]);
    // The create went out once; the runs list was read to find its run by the bridge's own metadata.
    expect(harness.emulator.control.stats().byRoute.createRun).toBe(1);
    expect(harness.emulator.control.stats().byRoute.listRuns).toBeGreaterThanOrEqual(1);
    expect(harness.emulator.control.runs()[0]!.metadata).toMatchObject({ bridge_task_id: expect.stringMatching(/^task-\d+$/) });
    expectResultOnce(harness);
  });

  it("a connection reset after the create was sent: the same, one run and one result", async () => {
    harness = await startAppHarness({ serviceProxy: losingCreates({ forward: true, answer: "reset" }) });
    await trigger(harness);

    expect(harness.service.lostAnswers).toMatchObject([{ forwarded: true, answer: "reset" }]);
    expect(harness.emulator.control.stats().byRoute.createRun).toBe(1);
    expectResultOnce(harness);
  });

  it("a 502 before the create reached the service: the list shows no run, so it is sent again, once", async () => {
    harness = await startAppHarness({ serviceProxy: losingCreates({ forward: false, answer: 502 }) });
    await trigger(harness);

    expect(harness.service.lostAnswers).toMatchObject([{ forwarded: false, answer: 502 }]);
    expect(harness.emulator.control.stats().byRoute.createRun).toBe(1);
    expectResultOnce(harness);
  });

  it("a proxy that never lets a create through: sent at most three times, then the thread says no run was made", async () => {
    harness = await startAppHarness({ serviceProxy: losingCreates({ forward: false, answer: 503 }, 10) });
    await trigger(harness);

    expect(harness.service.lostAnswers).toHaveLength(3);
    expect(harness.emulator.control.runs()).toEqual([]);
    const [reply] = harness.botComments(1);
    expect(reply!.body).toContain("list of runs shows that no run was made");
  });

  it("without the runs list: the thread says the run may have started, where to look and how to ask again; no second create", async () => {
    harness = await startAppHarness({
      emulator: { endpoints: { listRuns: false } },
      serviceProxy: losingCreates({ forward: true, answer: 504 }),
    });
    await trigger(harness);

    const runs = harness.emulator.control.runs();
    expect(runs).toHaveLength(1);
    expect(harness.emulator.control.stats().byRoute.createRun).toBe(1);
    const comments = harness.botComments(1);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain("**The agent run may have started.**");
    expect(body).toContain("a 504 came back instead of the run");
    expect(body).toContain("the service does not list runs");
    expect(body).toContain(`of organization \`${harness.emulator.orgId}\``);
    expect(body).toContain(`\`bridge_task_id\` = \`${String(runs[0]!.metadata!.bridge_task_id)}\``);
    expect(body).toContain("reply `/agent <what to do>` to try again");
    for (const written of everyBody(harness)) expect(written).not.toContain("could not run");
  });

  it("without the runs list, with AGENT_RUN_RUNS_URL: the comment links the service's page of runs as where to look", async () => {
    const runsUrl = "https://agents.example.com/orgs/runs?view=all";
    harness = await startAppHarness({
      emulator: { endpoints: { listRuns: false } },
      serviceProxy: losingCreates({ forward: true, answer: 504 }),
      env: { AGENT_RUN_RUNS_URL: runsUrl },
    });
    await trigger(harness);

    expect(harness.emulator.control.stats().byRoute.createRun).toBe(1);
    const [reply] = harness.botComments(1);
    expect(reply!.body).toContain("**The agent run may have started.**");
    expect(reply!.body).toContain(`- Look through [the Agent Run Service's runs](${runsUrl}) of organization`);
  });

  it("without the runs list and without AGENT_RUN_RUNS_URL: no link, the service is named", async () => {
    harness = await startAppHarness({
      emulator: { endpoints: { listRuns: false } },
      serviceProxy: losingCreates({ forward: true, answer: 504 }),
    });
    await trigger(harness);

    const [reply] = harness.botComments(1);
    expect(reply!.body).toContain("- Look through the Agent Run Service's runs of organization");
    expect(reply!.body).not.toMatch(/\]\(https?:/);
  });
});

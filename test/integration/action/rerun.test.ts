/**
 * A job re-run after it was cancelled mid-create (GITHUB_RUN_ATTEMPT 2), in process against the
 * fake GitHub and the emulator behind a recorder. Attempt 1 is played as GitHub and the service
 * would hold it: its tracking comment (no run id yet) in the thread and, when its create got
 * through, a run carrying its delivery id.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  ACTIONS_BOT,
  placeIn,
  startActionHarness,
  WORKFLOW_RUN_ID,
  type ActionHarness,
  signedByAction,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Attempt `attempt`'s tracking comment as it stood when the job was cancelled: posted, no run id in it. */
function interruptedTrackingComment(attempt: number, runId: number | null = null) {
  const marker = newRunMarker({
    place: placeIn(ISSUE.number),
    runId,
    orgId: 1,
    sourceType: "GIT_HOST",
    requestId: `actions:${WORKFLOW_RUN_ID}:${attempt}`,
  });
  return {
    issue_number: ISSUE.number,
    user: ACTIONS_BOT,
    created_at: secondsAgo(30),
    updated_at: secondsAgo(30),
    body: signedByAction(`${renderMarker(marker)}\n### ⏳ Starting the agent…`),
  };
}

/** What attempt 1's create did when it got through before the cancel: a run with its delivery id. */
async function attemptOnesRun(harness: ActionHarness): Promise<number> {
  const client = new AgentRunClient({ baseUrl: harness.emulator.url, token: harness.emulator.token, orgId: harness.emulator.orgId });
  const run = await client.createRun({
    prompt: "Fix the flaky date test",
    metadata: { source_type: "GIT_HOST", delivery_id: `${WORKFLOW_RUN_ID}-1` },
  });
  return run.id;
}

const botComments = () => h.github.commentsOn(FULL_NAME, ISSUE.number).filter((c) => c.user.login === ACTIONS_BOT);
const rerun = { GITHUB_RUN_ATTEMPT: "2" };

describe("a job re-run after a cancel mid-create", () => {
  it("adopts the run attempt 1's create started: nothing sent again, one tracking comment, its result posted once", async () => {
    h = await startActionHarness();
    h.github.seed({ issueComments: [interruptedTrackingComment(1)] });
    const runId = await attemptOnesRun(h);
    const trigger = h.humanComment(ISSUE, "/agent fix the flaky test");

    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {}, extra: rerun });

    expect(h.service.creates()).toHaveLength(0);
    expect(step.result.outcome).toMatchObject({ kind: "run", watch: "finished", phase: "succeeded", run: { id: runId } });
    expect(step.outputs["run-id"]).toBe(String(runId));
    const comments = botComments();
    expect(comments).toHaveLength(1);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ runId, state: "done" });
    expect(step.outputs["comment-id"]).toBe(String(comments[0]!.id));
  });

  it("sends the create when the run list shows attempt 1 never started one, in the same tracking comment", async () => {
    h = await startActionHarness();
    h.github.seed({ issueComments: [interruptedTrackingComment(1)] });
    const trigger = h.humanComment(ISSUE, "/agent fix the flaky test");

    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {}, extra: rerun });

    expect(h.service.creates()).toHaveLength(1);
    expect(h.service.creates()[0]!.metadata).toMatchObject({ delivery_id: `${WORKFLOW_RUN_ID}-2` });
    expect(step.result.outcome).toMatchObject({ kind: "run", watch: "finished" });
    expect(botComments()).toHaveLength(1);
  });

  it("without a run list, sends the create and warns that attempt 1's run may exist too", async () => {
    h = await startActionHarness({ emulator: { endpoints: { listRuns: false } } });
    h.github.seed({ issueComments: [interruptedTrackingComment(1)] });
    await attemptOnesRun(h);
    const trigger = h.humanComment(ISSUE, "/agent fix the flaky test");
    const warnings: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (String(chunk).startsWith("::warning::")) warnings.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {}, extra: rerun });
    } finally {
      process.stdout.write = write;
    }
    expect(h.service.creates()).toHaveLength(1);
    expect(warnings.join("")).toContain(
      "Attempt 1 of this workflow run was stopped while starting a run, and the service does not list runs: starting one now, so two runs may exist.",
    );
    expect(botComments()).toHaveLength(1);
  });

  it("starts a new run when attempt 1 finished its create (a re-run asks again), and on a first attempt never looks", async () => {
    h = await startActionHarness();
    const earlier = await attemptOnesRun(h);
    h.github.seed({ issueComments: [interruptedTrackingComment(1, earlier)] });
    const again = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "/agent new try again").payload,
      inputs: {},
      extra: rerun,
    });
    expect(h.service.creates()).toHaveLength(1);
    expect(again.result.outcome).toMatchObject({ kind: "run" });
    expect((again.result.outcome as { run: { id: number } }).run.id).not.toBe(earlier);

    const listsBefore = h.service.requests.filter((r) => r.method === "GET" && r.path.endsWith("/agent/runs")).length;
    h.github.seed({ issueComments: [interruptedTrackingComment(1)] });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent new once more").payload, inputs: {} });
    expect(h.service.requests.filter((r) => r.method === "GET" && r.path.endsWith("/agent/runs")).length).toBe(listsBefore);
    expect(h.service.creates()).toHaveLength(2);
  });
});

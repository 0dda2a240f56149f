/**
 * A trigger comment taken back before the App's queued job acts on it: the delivery is stored at
 * once, and the worker that plans the run reads the comment again first (GitHub answers 404 once it
 * is deleted). A deleted or withdrawn request starts nothing and leaves no trace in the thread.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

describe("a trigger comment taken back before the job runs", () => {
  it("deleted: the job creates nothing, posts nothing, reacts to nothing", async () => {
    harness = await startAppHarness();
    const comment = harness.humanComment(ISSUE, "/agent rewrite the billing module");
    harness.github.state.issueComments = harness.github.state.issueComments.filter((c) => c.id !== comment.id);
    const { status } = await harness.deliver("issue_comment", comment.payload);
    expect(status).toBe(200);
    await harness.idle();

    expect(harness.service.requests).toEqual([]);
    expect(harness.github.writes).toEqual([]);
    expect(harness.github.callsTo("GET", `/repos/${FULL_NAME}/issues/comments/${comment.id}`)).toHaveLength(1);
  });

  it("edited so that it no longer asks: nothing starts", async () => {
    harness = await startAppHarness();
    const comment = harness.humanComment(ISSUE, "/agent rewrite the billing module");
    harness.github.state.issueComments.find((c) => c.id === comment.id)!.body = "Never mind.";
    await harness.deliver("issue_comment", comment.payload);
    await harness.idle();

    expect(harness.service.requests).toEqual([]);
    expect(harness.github.writes).toEqual([]);
  });
});

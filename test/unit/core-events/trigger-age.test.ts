/** The trigger's own time, read from real payloads, and the replay window that judges it. */
import { describe, expect, it } from "vitest";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import { judgeTriggerAge, REPLAY_WINDOW_MS, triggerTimeOf } from "../../../src/core/trigger-age.js";
import { hasAction, webhookExample } from "./webhook-examples.js";

const DAY = 24 * 60 * 60_000;

describe("triggerTimeOf", () => {
  it("reads when the trigger happened from each kind of event GitHub sends", () => {
    const comment = webhookExample("issue_comment", hasAction("created"));
    const review = webhookExample("pull_request_review", hasAction("submitted"));
    const reviewComment = webhookExample("pull_request_review_comment", hasAction("created"));
    const labeled = webhookExample("issues", hasAction("labeled"));
    const suite = webhookExample("check_suite", hasAction("completed"));
    const workflowRun = webhookExample("workflow_run", hasAction("completed"));
    const newest = (...stamps: Array<string | null | undefined>) => Math.max(...stamps.map((s) => Date.parse(s!)));
    expect(triggerTimeOf(parseWebhookEvent("issue_comment", comment))).toBe(newest(comment.comment.created_at, comment.comment.updated_at));
    expect(triggerTimeOf(parseWebhookEvent("pull_request_review", review))).toBe(Date.parse(review.review.submitted_at!));
    expect(triggerTimeOf(parseWebhookEvent("pull_request_review_comment", reviewComment))).toBe(
      newest(reviewComment.comment.created_at, reviewComment.comment.updated_at),
    );
    expect(triggerTimeOf(parseWebhookEvent("issues", labeled))).toBe(newest(labeled.issue.created_at, labeled.issue.updated_at));
    expect(triggerTimeOf(parseWebhookEvent("check_suite", suite))).toBe(Date.parse(suite.check_suite.updated_at));
    expect(triggerTimeOf(parseWebhookEvent("workflow_run", workflowRun))).toBe(Date.parse(workflowRun.workflow_run.updated_at));
    expect(triggerTimeOf(parseWebhookEvent("push", webhookExample("push")))).toBeNull();
  });
});

describe("judgeTriggerAge", () => {
  it("ignores a trigger older than the replay window, with a code and the dates, and lets a recent one through", () => {
    const event = parseWebhookEvent("issue_comment", webhookExample("issue_comment", hasAction("created")));
    const at = triggerTimeOf(event)!;
    expect(judgeTriggerAge(event, at + DAY)).toBeNull();
    expect(judgeTriggerAge(event, at + REPLAY_WINDOW_MS)).toBeNull();
    expect(judgeTriggerAge(event, at + REPLAY_WINDOW_MS + 1)).toEqual({
      code: "stale_trigger",
      reason: `The issue_comment trigger happened 8 days ago (${new Date(at).toISOString()}), longer ago than deliveries are remembered (8 days): a replayed delivery starts nothing.`,
    });
    expect(REPLAY_WINDOW_MS).toBe(8 * DAY);
  });
});

/**
 * A captured, validly signed delivery sent again later under a new delivery id: dedupe has never
 * seen the id, but the trigger's own time (signed with the rest) is older than the replay window,
 * so nothing starts, no comment is written and no service call is made.
 */
import { afterEach, describe, expect, it } from "vitest";
import { REPLAY_WINDOW_MS } from "../../../src/core/trigger-age.js";
import { PR_HEAD_SHA, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { reviewSubmittedPayload } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "" };
const DAY = 24 * 60 * 60_000;

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function agedBy<T extends object>(payload: T, part: "comment" | "review", ms: number): T {
  const at = new Date(Date.now() - ms).toISOString();
  const object = (payload as Record<string, Record<string, unknown>>)[part]!;
  for (const stamp of ["created_at", "updated_at", "submitted_at"]) if (stamp in object) object[stamp] = at;
  return payload;
}

describe("a replayed delivery", () => {
  it("starts nothing when its trigger is older than the replay window, under a delivery id never seen", async () => {
    harness = await startAppHarness();
    const old = agedBy(harness.humanComment(ISSUE, "/agent fix it").payload, "comment", REPLAY_WINDOW_MS + DAY);
    expect((await harness.deliver("issue_comment", old, "replayed-delivery-1")).status).toBe(200);
    const review = agedBy(
      reviewSubmittedPayload({
        pr: { number: 7, headRef: "agent-run/1-fix", headSha: PR_HEAD_SHA },
        review: { id: 501, state: "changes_requested", body: "/agent rename it", login: "maintainer" },
      }),
      "review",
      REPLAY_WINDOW_MS + DAY,
    );
    expect((await harness.deliver("pull_request_review", review, "replayed-delivery-2")).status).toBe(200);
    await harness.idle();
    expect(harness.botComments(1)).toEqual([]);
    expect(harness.botComments(7)).toEqual([]);
    expect(harness.service.creates()).toEqual([]);

    // The same comment a day old (well within the window) is a request like any other.
    const recent = agedBy(harness.humanComment(ISSUE, "/agent fix it").payload, "comment", DAY);
    expect((await harness.deliver("issue_comment", recent, "fresh-delivery")).status).toBe(200);
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.botComments(1)).toHaveLength(1);
  });
});

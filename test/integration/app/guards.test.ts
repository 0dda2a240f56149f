/**
 * The decisions of issue #11 that live in the shared layers (core, flows), seen through the App as
 * it runs today: signed webhooks over HTTP, the fake GitHub, the emulator. The App's own wiring of
 * spend limits and `/agent stop` comes with its job queue; these pin what it already gets.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { issueCommentPayload } from "../../helpers/app-payloads.js";
import { PR_HEAD_SHA, baseSeed, failedSuiteOnPullPayload, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function seedWithFailingSuite(labels: string[] = []) {
  const seed = baseSeed();
  seed.pulls = (seed.pulls ?? []).map((pull) => (pull.number === 2 ? { ...pull, labels } : pull));
  seed.checkSuites = [
    {
      id: 700,
      head_sha: PR_HEAD_SHA,
      head_branch: "agent/fix-dates",
      conclusion: "failure" as const,
      check_runs: [{ name: "unit tests", conclusion: "failure" as const }],
    },
  ];
  return seed;
}

describe("a broken configuration is never silent for CI (the issue's example)", () => {
  it("`check_suite: { auto_fix: true }`: the failing pull request gets the config-error reply with `enabled` suggested", async () => {
    harness = await startAppHarness({ seed: seedWithFailingSuite(), config: "check_suite:\n  auto_fix: true\n" });
    await harness.deliver("check_suite", failedSuiteOnPullPayload());
    await harness.idle();
    const replies = harness.botComments(2);
    expect(replies.map((c) => parseCommentKind(c.body))).toEqual(["config_error"]);
    expect(replies[0]!.body).toContain("`check_suite.auto_fix`: unknown key (a typo?). Did you mean `enabled`?");
    expect(harness.service.requests).toEqual([]);
  });

  it("a file that leaves CI auto-fix off stays quiet on CI failures", async () => {
    harness = await startAppHarness({ seed: seedWithFailingSuite(), config: "check_suite:\n  enabled: false\n  max_attemps: 2\n" });
    await harness.deliver("check_suite", failedSuiteOnPullPayload());
    await harness.idle();
    expect(harness.botComments(2)).toEqual([]);
  });
});

describe("the kill switch", () => {
  it("no run on a failing check suite of a pull request labelled `agent:off`", async () => {
    harness = await startAppHarness({ seed: seedWithFailingSuite(["agent:off"]), config: "check_suite:\n  enabled: true\n" });
    await harness.deliver("check_suite", failedSuiteOnPullPayload());
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
    expect(harness.botComments(2)).toEqual([]);
  });

  it("no run for a `/agent` comment on a thread labelled `agent:off`", async () => {
    harness = await startAppHarness();
    const payload = issueCommentPayload({
      thread: { number: 1, labels: ["agent:off"] },
      comment: { id: 777, body: "/agent fix it", login: "maintainer" },
    });
    await harness.deliver("issue_comment", payload);
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
  });
});

describe("/agent stop", () => {
  it("is never sent to the service as a task", async () => {
    harness = await startAppHarness();
    await harness.deliver(
      "issue_comment",
      issueCommentPayload({ thread: { number: 1 }, comment: { id: 778, body: "/agent stop", login: "maintainer" } }),
    );
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
  });
});

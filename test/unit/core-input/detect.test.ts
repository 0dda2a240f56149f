import { describe, expect, it } from "vitest";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import { detectTrigger } from "../../../src/core/detect/index.js";
import { triggerThread } from "../../../src/core/detect/triggers.js";
import { SOURCE } from "../../../src/service/wire.js";
import {
  checkSuiteEvent,
  commentEvent,
  labelEvent,
  repoConfig,
  reviewCommentEvent,
  reviewEvent,
  workflowRunEvent,
} from "../core-events/scenarios.js";
import { webhookExample } from "../core-events/webhook-examples.js";
import { ciOn, ignored, self, triggerOf } from "./detections.js";

describe("detectTrigger: flows and their source types", () => {
  it("an issue comment with the phrase → comment (GIT_HOST)", () => {
    const trigger = triggerOf(commentEvent("/agent fix the typo"));
    expect(trigger).toMatchObject({
      flow: "comment",
      sourceType: SOURCE.gitHost,
      instruction: "fix the typo",
      forceNew: false,
      actor: { login: "Codertocat" },
      dedupeKey: "comment:492700400",
      thread: { kind: "issue", number: 1 },
    });
    expect(triggerThread(trigger)).toEqual({ kind: "issue", number: 1, url: "https://github.com/Codertocat/Hello-World/issues/1" });
  });

  it("a pull request comment → comment (GIT_HOST), on the pull request thread", () => {
    const trigger = triggerOf(commentEvent("@run-bot new please rebase", { onPullRequest: true }));
    expect(trigger).toMatchObject({
      flow: "comment",
      sourceType: "GIT_HOST",
      forceNew: true,
      instruction: "please rebase",
      thread: { kind: "pull_request" },
    });
  });

  it("a label → label (GIT_HOST), case-insensitive", () => {
    const trigger = triggerOf(labelEvent("Agent"));
    expect(trigger).toMatchObject({
      flow: "label",
      sourceType: "GIT_HOST",
      label: "Agent",
      actor: { login: "Codertocat" },
      thread: { kind: "issue", number: 1 },
    });
  });

  it("a review requesting changes → review (GIT_HOST_PR_REVIEW)", () => {
    const trigger = triggerOf(reviewEvent("changes_requested", "Please handle the null case."));
    expect(trigger).toMatchObject({
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      reason: "changes_requested",
      instruction: "",
      review: { id: 237895671, state: "changes_requested" },
      reviewComment: null,
      pullRequest: { number: 2, headRef: "changes" },
      dedupeKey: "review:237895671",
    });
  });

  it("any review with the trigger → review", () => {
    const trigger = triggerOf(reviewEvent("commented", "Nice.\n/agent add a test for this"));
    expect(trigger).toMatchObject({ flow: "review", reason: "trigger", instruction: "add a test for this" });
    expect(triggerOf(reviewEvent("approved", "/agent squash the commits"))).toMatchObject({
      flow: "review",
      instruction: "squash the commits",
    });
  });

  it("a review comment with the trigger → review, keyed by its review", () => {
    const trigger = triggerOf(reviewCommentEvent("/agent use a constant here"));
    expect(trigger).toMatchObject({
      flow: "review",
      sourceType: "GIT_HOST_PR_REVIEW",
      reason: "trigger",
      instruction: "use a constant here",
      review: null,
      reviewComment: { path: "README.md" },
    });
    expect(trigger.dedupeKey).toMatch(/^review:\d+$/);
  });

  it("a failed check suite → check_suite (GIT_HOST_CHECK_SUITE)", () => {
    for (const conclusion of ["failure", "timed_out"]) {
      const trigger = triggerOf(checkSuiteEvent(conclusion), ciOn);
      expect(trigger).toMatchObject({
        flow: "check_suite",
        sourceType: SOURCE.gitHostCheckSuite,
        headSha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        headBranch: "changes",
        pullRequest: { number: 2 },
        dedupeKey: "ci:ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      });
      expect(triggerThread(trigger)).toEqual({ kind: "pull_request", number: 2, url: "https://github.com/Codertocat/Hello-World/pull/2" });
    }
  });

  it("a failed workflow run → workflow_run (GIT_HOST_CHECK_SUITE)", () => {
    const trigger = triggerOf(workflowRunEvent("failure"), ciOn);
    expect(trigger).toMatchObject({
      flow: "workflow_run",
      sourceType: "GIT_HOST_CHECK_SUITE",
      headBranch: "changes",
      workflowRun: { id: 289782451 },
    });
  });

  it("an explicit prompt → dispatch (API), on any event", () => {
    const dispatch = parseWebhookEvent("workflow_dispatch", webhookExample("workflow_dispatch"));
    expect(triggerOf(dispatch, repoConfig(), { explicitPrompt: "  Update the changelog  " })).toMatchObject({
      flow: "dispatch",
      sourceType: SOURCE.api,
      prompt: "Update the changelog",
      forceNew: true,
      thread: null,
    });
    const onIssue = triggerOf(commentEvent("no phrase here"), repoConfig(), { explicitPrompt: "Triage this issue" });
    expect(onIssue).toMatchObject({ flow: "dispatch", thread: { number: 1 } });
    expect(detectTrigger(dispatch, repoConfig(), self, { explicitPrompt: "   " }).kind).toBe("ignore");
  });
});

describe("detectTrigger: every ignore reason", () => {
  it("edited and deleted comments", () => {
    expect(ignored(commentEvent("/agent x", { action: "edited" }))).toEqual({
      code: "unsupported_action",
      reason: "issue_comment.edited: only new comments start runs (`issue_comment.created`).",
    });
    expect(ignored(commentEvent("/agent x", { action: "deleted" })).code).toBe("unsupported_action");
    expect(ignored(reviewCommentEvent("/agent x", { action: "edited" })).code).toBe("unsupported_action");
    expect(ignored(reviewEvent("dismissed", "/agent x", { action: "dismissed" })).code).toBe("unsupported_action");
  });

  it("comments and reviews by bots", () => {
    expect(ignored(commentEvent("/agent x", { login: "dependabot[bot]", type: "Bot" }))).toEqual({
      code: "bot_sender",
      reason: "Comment by the bot account @dependabot[bot]: bots do not start runs (this also prevents loops).",
    });
    expect(ignored(commentEvent("/agent x", { login: "renovate[bot]" })).code).toBe("bot_sender");
    expect(ignored(commentEvent("/agent x", { login: "helper-account" })).code).toBe("bot_sender");
    expect(ignored(commentEvent("/agent x", { login: "some-bot", type: "Bot" })).code).toBe("bot_sender");
    expect(ignored(reviewEvent("changes_requested", "fix", { login: "reviewer[bot]", type: "Bot" })).code).toBe("bot_sender");
    expect(ignored(reviewCommentEvent("/agent x", { login: "run-bot[bot]" })).code).toBe("bot_sender");
    expect(ignored(labelEvent("agent", { login: "run-bot[bot]", type: "Bot" })).code).toBe("bot_sender");
  });

  it("no trigger phrase", () => {
    expect(ignored(commentEvent("Thanks, looks good"))).toEqual({
      code: "no_trigger",
      reason: "The comment has no line starting with `/agent` or a mention of @run-bot.",
    });
    expect(ignored(commentEvent("```\n/agent x\n```")).code).toBe("no_trigger");
    expect(ignored(reviewCommentEvent("just a nit")).code).toBe("no_trigger");
    expect(ignored(reviewEvent("approved", "LGTM"))).toEqual({
      code: "no_trigger",
      reason:
        "The review (state approved) has no line starting with `/agent` or a mention of @run-bot. Only reviews requesting changes start runs without it.",
    });
    expect(ignored(commentEvent("hi @run-bot"), repoConfig({ mention: false })).reason).toBe(
      "The comment has no line starting with `/agent`.",
    );
  });

  it("label not the configured one, or label triggers off", () => {
    expect(ignored(labelEvent("bug"))).toEqual({ code: "other_label", reason: 'The label "bug" is not the configured one ("agent").' });
    expect(ignored(labelEvent("bug"), repoConfig({ label: { name: "bug", enabled: false } }))).toEqual({
      code: "label_disabled",
      reason: "Label triggers are off (`label.enabled: false`).",
    });
    const opened = parseWebhookEvent(
      "issues",
      webhookExample("issues", (p) => p.action === "opened"),
    );
    // A new issue is no label request: only automations act on it (none configured here).
    expect(ignored(opened).code).toBe("no_automation");
  });

  it("reviews disabled", () => {
    const off = repoConfig({ reviews: { enabled: false } });
    expect(ignored(reviewEvent("changes_requested", "fix"), off)).toEqual({
      code: "reviews_disabled",
      reason: "Review triggers are off (`reviews.enabled: false`).",
    });
    expect(ignored(reviewCommentEvent("/agent x"), off).code).toBe("reviews_disabled");
  });

  it("the app's own check suite", () => {
    expect(ignored(checkSuiteEvent("failure", { appSlug: "run-bot" }), ciOn)).toEqual({
      code: "own_check_suite",
      reason: "The check suite belongs to this app.",
    });
  });

  it("events the bridge does not handle", () => {
    const push = parseWebhookEvent("push", webhookExample("push"));
    expect(ignored(push)).toEqual({
      code: "unsupported_event",
      reason: 'The bridge does not act on "push" events unless given an explicit prompt.',
    });
  });
});

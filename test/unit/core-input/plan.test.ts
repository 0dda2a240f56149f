import { describe, expect, it } from "vitest";
import { parseWebhookEvent } from "../../../src/core/events/parse.js";
import type { BridgeEvent } from "../../../src/core/events/types.js";
import {
  detectTrigger,
  isBotActor,
  planRun,
  selectFailedChecks,
  triggerThread,
  type BridgeSelf,
  type IgnoreCode,
  type RunFacts,
  type RunTrigger,
} from "../../../src/core/plan.js";
import { SOURCE } from "../../../src/service/wire.js";
import { checkSuiteEvent, commentEvent, labelEvent, repoConfig, reviewCommentEvent, reviewEvent, workflowRunEvent } from "../core-events/scenarios.js";
import { webhookExample } from "../core-events/webhook-examples.js";

const self: BridgeSelf = { appSlug: "run-bot", botLogins: ["run-bot[bot]", "helper-account"] };
const ciOn = repoConfig({ check_suite: { enabled: true } });

function triggerOf(event: BridgeEvent, config = repoConfig(), options = {}): RunTrigger {
  const detection = detectTrigger(event, config, self, options);
  if (detection.kind !== "trigger") throw new Error(`expected a trigger, got: ${detection.reason}`);
  return detection.trigger;
}

function ignored(event: BridgeEvent, config = repoConfig()): { code: IgnoreCode; reason: string } {
  const detection = detectTrigger(event, config, self);
  if (detection.kind !== "ignore") throw new Error(`expected ignore, got flow ${detection.trigger.flow}`);
  return { code: detection.code, reason: detection.reason };
}

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
    expect(trigger).toMatchObject({ flow: "comment", sourceType: "GIT_HOST", forceNew: true, instruction: "please rebase", thread: { kind: "pull_request" } });
  });

  it("a label → label (GIT_HOST), case-insensitive", () => {
    const trigger = triggerOf(labelEvent("Agent"));
    expect(trigger).toMatchObject({ flow: "label", sourceType: "GIT_HOST", label: "Agent", actor: { login: "Codertocat" }, thread: { kind: "issue", number: 1 } });
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
    expect(triggerOf(reviewEvent("approved", "/agent squash the commits"))).toMatchObject({ flow: "review", instruction: "squash the commits" });
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
    expect(trigger).toMatchObject({ flow: "workflow_run", sourceType: "GIT_HOST_CHECK_SUITE", headBranch: "changes", workflowRun: { id: 289782451 } });
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
      reason: "The review (state approved) has no line starting with `/agent` or a mention of @run-bot. Only reviews requesting changes start runs without it.",
    });
    expect(ignored(commentEvent("hi @run-bot"), repoConfig({ mention: false })).reason).toBe("The comment has no line starting with `/agent`.");
  });

  it("label not the configured one, or label triggers off", () => {
    expect(ignored(labelEvent("bug"))).toEqual({ code: "other_label", reason: 'The label "bug" is not the configured one ("agent").' });
    expect(ignored(labelEvent("bug"), repoConfig({ label: { name: "bug", enabled: false } }))).toEqual({
      code: "label_disabled",
      reason: "Label triggers are off (`label.enabled: false`).",
    });
    const opened = parseWebhookEvent("issues", webhookExample("issues", (p) => p.action === "opened"));
    expect(ignored(opened).code).toBe("unsupported_action");
  });

  it("reviews disabled", () => {
    const off = repoConfig({ reviews: { enabled: false } });
    expect(ignored(reviewEvent("changes_requested", "fix"), off)).toEqual({ code: "reviews_disabled", reason: "Review triggers are off (`reviews.enabled: false`)." });
    expect(ignored(reviewCommentEvent("/agent x"), off).code).toBe("reviews_disabled");
  });

  it("CI auto-fix disabled (the default)", () => {
    expect(ignored(checkSuiteEvent("failure"))).toEqual({ code: "check_suite_disabled", reason: "CI auto-fix is off (`check_suite.enabled: false`)." });
    expect(ignored(workflowRunEvent("failure")).code).toBe("check_suite_disabled");
  });

  it("successful and other non-failing conclusions", () => {
    expect(ignored(checkSuiteEvent("success"), ciOn)).toEqual({
      code: "not_failed",
      reason: 'The check suite concluded "success": only failure or timed_out start a fix.',
    });
    for (const conclusion of ["neutral", "cancelled", "skipped", "action_required", null]) {
      expect(ignored(workflowRunEvent(conclusion), ciOn).code).toBe("not_failed");
    }
  });

  it("check suites still running or re-requested", () => {
    expect(ignored(checkSuiteEvent(null, { action: "rerequested" }), ciOn).code).toBe("unsupported_action");
  });

  it("no pull request attached", () => {
    expect(ignored(checkSuiteEvent("failure", { noPullRequests: true }), ciOn)).toEqual({
      code: "no_pull_request",
      reason: "The check suite belongs to no open pull request of this repository.",
    });
    expect(ignored(workflowRunEvent("failure", { noPullRequests: true }), ciOn).code).toBe("no_pull_request");
  });

  it("fork pull requests, unless allowed", () => {
    expect(ignored(checkSuiteEvent("failure", { forkPullRequest: true }), ciOn).code).toBe("fork");
    expect(ignored(workflowRunEvent("failure", { forkPullRequest: true }), ciOn).code).toBe("fork");
    expect(ignored(workflowRunEvent("failure", { forkRun: true }), ciOn)).toEqual({
      code: "fork",
      reason: 'The workflow run "CI" ran on a fork\'s commit; fixing forks is off (`check_suite.allow_forks: false`).',
    });
    const forksOk = repoConfig({ check_suite: { enabled: true, allow_forks: true } });
    expect(triggerOf(checkSuiteEvent("failure", { forkPullRequest: true }), forksOk).flow).toBe("check_suite");
    expect(triggerOf(workflowRunEvent("failure", { forkRun: true }), forksOk).flow).toBe("workflow_run");
  });

  it("branch not matching check_suite.branches", () => {
    const onlyFeatures = repoConfig({ check_suite: { enabled: true, branches: ["feature/**", "fix-*"] } });
    expect(ignored(checkSuiteEvent("failure", { headRef: "main" }), onlyFeatures)).toEqual({
      code: "branch_not_matched",
      reason: "The branch main matches none of `check_suite.branches` (feature/**, fix-*).",
    });
    expect(triggerOf(checkSuiteEvent("failure", { headRef: "feature/a/b" }), onlyFeatures).flow).toBe("check_suite");
    expect(triggerOf(workflowRunEvent("failure", { headRef: "fix-42" }), onlyFeatures).flow).toBe("workflow_run");
    expect(ignored(workflowRunEvent("failure", { headRef: "fix/42" }), onlyFeatures).code).toBe("branch_not_matched");
  });

  it("the app's own check suite", () => {
    expect(ignored(checkSuiteEvent("failure", { appSlug: "run-bot" }), ciOn)).toEqual({ code: "own_check_suite", reason: "The check suite belongs to this app." });
  });

  it("events the bridge does not handle", () => {
    const push = parseWebhookEvent("push", webhookExample("push"));
    expect(ignored(push)).toEqual({ code: "unsupported_event", reason: 'The bridge does not act on "push" events unless given an explicit prompt.' });
  });
});

it("isBotActor", () => {
  expect(isBotActor({ login: "octocat", type: "User" }, self)).toBe(false);
  expect(isBotActor({ login: "Helper-Account", type: "User" }, self)).toBe(true);
  expect(isBotActor({ login: "github-actions[bot]", type: "Bot" }, { botLogins: [] })).toBe(true);
  expect(isBotActor(null, self)).toBe(false);
});

describe("planRun", () => {
  const allowed = { allowed: true, why: "@Codertocat has the admin role on this repository." };
  const facts = (over: Partial<RunFacts> = {}): RunFacts => ({ permission: allowed, knownRun: null, followUp: "queue", ...over });
  const comment = triggerOf(commentEvent("/agent do it"));
  const fresh = triggerOf(commentEvent("/agent new do it"));

  it("no permission → refuse, with the permission's reason (which the refusal reply quotes)", () => {
    const plan = planRun(comment, facts({ permission: { allowed: false, why: "@Codertocat has the read role and is not listed in `permissions.users`; the write, maintain or admin role is required." } }));
    expect(plan).toEqual({
      action: "refuse",
      reason: "@Codertocat has the read role and is not listed in `permissions.users`; the write, maintain or admin role is required.",
    });
    // Refusal comes first, even for `new` and a known run.
    expect(planRun(fresh, facts({ permission: { allowed: false, why: "no" }, knownRun: { runId: 1, orgId: 2, inProgress: false } })).action).toBe("refuse");
  });

  it("no known run → create with the flow's source type", () => {
    expect(planRun(comment, facts())).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
    expect(planRun(triggerOf(labelEvent("agent")), facts())).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
    expect(planRun(triggerOf(reviewEvent("changes_requested", "x")), facts())).toMatchObject({ action: "create", sourceType: "GIT_HOST_PR_REVIEW" });
  });

  it("forceNew → create, even with a known run", () => {
    expect(planRun(fresh, facts({ knownRun: { runId: 7, orgId: 3, inProgress: false } }))).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
    const dispatch = triggerOf(commentEvent("x"), repoConfig(), { explicitPrompt: "Summarise" });
    expect(planRun(dispatch, facts({ knownRun: { runId: 7, orgId: 3, inProgress: true } }))).toMatchObject({ action: "create", sourceType: "API" });
  });

  it("known run, finished → resume", () => {
    expect(planRun(comment, facts({ knownRun: { runId: 7, orgId: 3, inProgress: false } }))).toMatchObject({ action: "resume", runId: 7, orgId: 3 });
  });

  it("known run in progress → follow-up policy", () => {
    const busy = { runId: 7, orgId: 3, inProgress: true };
    expect(planRun(comment, facts({ knownRun: busy, followUp: "queue" }))).toMatchObject({ action: "queue", runId: 7, orgId: 3 });
    expect(planRun(comment, facts({ knownRun: busy, followUp: "new" }))).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
  });

  describe("the caller's mode (the Action's `mode` input)", () => {
    const busy = { runId: 7, orgId: 3, inProgress: true };
    const dispatch = triggerOf(commentEvent("x"), repoConfig(), { explicitPrompt: "Carry on" });

    it("resume → the named run, whatever the thread knows", () => {
      expect(planRun(dispatch, facts({ mode: { kind: "resume", runId: 42, orgId: 5 }, knownRun: busy }))).toEqual({
        action: "resume",
        runId: 42,
        orgId: 5,
        reason: "Resuming run 42, as asked (`mode: resume`).",
      });
    });

    it("create → a new run, even where auto would resume or queue", () => {
      expect(planRun(comment, facts({ knownRun: { ...busy, inProgress: false } })).action).toBe("resume");
      expect(planRun(comment, facts({ mode: { kind: "create" }, knownRun: { ...busy, inProgress: false } }))).toEqual({
        action: "create",
        sourceType: "GIT_HOST",
        reason: "A new run was asked for (`mode: create`).",
      });
      expect(planRun(comment, facts({ mode: { kind: "create" }, knownRun: busy })).action).toBe("create");
    });

    it("auto (the default) is the event's own plan", () => {
      expect(planRun(comment, facts({ mode: { kind: "auto" }, knownRun: busy }))).toEqual(planRun(comment, facts({ knownRun: busy })));
    });

    it("never overrides a refusal", () => {
      const refused = { permission: { allowed: false, why: "no" } };
      expect(planRun(comment, facts({ ...refused, mode: { kind: "create" } })).action).toBe("refuse");
      expect(planRun(comment, facts({ ...refused, mode: { kind: "resume", runId: 1, orgId: 1 } })).action).toBe("refuse");
    });
  });

  describe("CI flows", () => {
    const suite = triggerOf(checkSuiteEvent("failure"), ciOn);
    const run = triggerOf(workflowRunEvent("failure"), ciOn);
    const ci = (over: Partial<NonNullable<RunFacts["checkSuite"]>> = {}) => ({ attemptsSoFar: 0, headShaAlreadyAttempted: false, maxAttempts: 3, ...over });

    it("need no permission", () => {
      expect(planRun(suite, facts({ permission: { allowed: false, why: "bot" }, checkSuite: ci() }))).toMatchObject({ action: "create", sourceType: "GIT_HOST_CHECK_SUITE" });
      expect(planRun(run, facts({ checkSuite: ci() }))).toMatchObject({ action: "create", sourceType: "GIT_HOST_CHECK_SUITE" });
    });

    it("the same head commit twice → ignore", () => {
      expect(planRun(suite, facts({ checkSuite: ci({ headShaAlreadyAttempted: true }) }))).toEqual({
        action: "ignore",
        reason: "A fix was already started for commit ec26c3e.",
      });
    });

    it("attempts at the cap → hand back, once", () => {
      const plan = planRun(suite, facts({ checkSuite: ci({ attemptsSoFar: 3 }) }));
      expect(plan).toEqual({ action: "hand_back", reason: "3 fix attempts reached the limit of 3 (`check_suite.max_attempts`)." });
      expect(planRun(suite, facts({ checkSuite: ci({ attemptsSoFar: 1, maxAttempts: 1 }) }))).toEqual({
        action: "hand_back",
        reason: "1 fix attempt reached the limit of 1 (`check_suite.max_attempts`).",
      });
      expect(planRun(run, facts({ checkSuite: ci({ attemptsSoFar: 4, maxAttempts: 3, alreadyHandedBack: true }) })).action).toBe("ignore");
      expect(planRun(run, facts({ checkSuite: ci({ attemptsSoFar: 2 }) })).action).toBe("create");
    });

    it("only ignored checks failed → ignore", () => {
      expect(planRun(suite, facts({ checkSuite: ci({ relevantFailures: 0 }) }))).toEqual({
        action: "ignore",
        reason: "Every failing check is listed in `check_suite.ignore_checks`.",
      });
    });

    it("resume the known run, or queue while it works", () => {
      expect(planRun(suite, facts({ checkSuite: ci({ attemptsSoFar: 1 }), knownRun: { runId: 9, orgId: 1, inProgress: false } }))).toMatchObject({ action: "resume", runId: 9 });
      expect(planRun(run, facts({ checkSuite: ci({ attemptsSoFar: 1 }), knownRun: { runId: 9, orgId: 1, inProgress: true }, followUp: "new" }))).toMatchObject({ action: "queue", runId: 9 });
    });

    it("mode create → a new fix run instead of resuming, after the same guards", () => {
      const known = { runId: 9, orgId: 1, inProgress: true };
      expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ attemptsSoFar: 1 }), knownRun: known }))).toMatchObject({ action: "create", sourceType: "GIT_HOST_CHECK_SUITE" });
      expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ headShaAlreadyAttempted: true }) })).action).toBe("ignore");
      expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ attemptsSoFar: 3 }) })).action).toBe("hand_back");
    });

    it("without CI facts it is a programming error", () => {
      expect(() => planRun(suite, facts())).toThrow("facts.checkSuite is required for the check_suite flow");
    });
  });
});

describe("selectFailedChecks", () => {
  it("keeps failing checks not matched by ignore_checks", () => {
    const checks = [
      { name: "build", conclusion: "failure" },
      { name: "Lint / eslint", conclusion: "failure" },
      { name: "test (ubuntu)", conclusion: "timed_out" },
      { name: "deploy", conclusion: "success" },
      { name: "docs", conclusion: "cancelled" },
      { name: "pending", conclusion: null },
    ];
    const { failed, ignored: skipped } = selectFailedChecks(checks, ["lint*"]);
    expect(failed.map((c) => c.name)).toEqual(["build", "test (ubuntu)"]);
    expect(skipped.map((c) => c.name)).toEqual(["Lint / eslint"]);
  });
});

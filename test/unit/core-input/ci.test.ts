import { describe, expect, it } from "vitest";
import { countFixAttempts, selectFailedChecks } from "../../../src/core/ci.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import { renderMarker } from "../../../src/core/markers/write.js";
import { SOURCE } from "../../../src/service/wire.js";
import { APP, bot, human, PLACE, running } from "../core-markers/fixtures.js";
import { planRun, type RunFacts } from "../../../src/core/plan.js";
import { checkSuiteEvent, repoConfig, workflowRunEvent } from "../core-events/scenarios.js";
import { ciOn, ignored, triggerOf } from "./detections.js";

describe("detectTrigger: CI failures not worth a fix", () => {
  it("CI auto-fix disabled (the default)", () => {
    expect(ignored(checkSuiteEvent("failure"))).toEqual({
      code: "check_suite_disabled",
      reason: "CI auto-fix is off (`check_suite.enabled: false`).",
    });
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
});

describe("planRun for CI failures", () => {
  const allowed = { allowed: true, why: "@Codertocat has the admin role on this repository." };
  const facts = (over: Partial<RunFacts> = {}): RunFacts => ({ permission: allowed, knownRun: null, followUp: "queue", ...over });
  const suite = triggerOf(checkSuiteEvent("failure"), ciOn);
  const run = triggerOf(workflowRunEvent("failure"), ciOn);
  const ci = (over: Partial<NonNullable<RunFacts["checkSuite"]>> = {}) => ({
    attemptsSoFar: 0,
    headShaAlreadyAttempted: false,
    maxAttempts: 3,
    ...over,
  });

  it("need no permission", () => {
    expect(planRun(suite, facts({ permission: { allowed: false, why: "bot" }, checkSuite: ci() }))).toMatchObject({
      action: "create",
      sourceType: "GIT_HOST_CHECK_SUITE",
    });
    expect(planRun(run, facts({ checkSuite: ci() }))).toMatchObject({ action: "create", sourceType: "GIT_HOST_CHECK_SUITE" });
  });

  it("the same head commit twice → ignore", () => {
    expect(planRun(suite, facts({ checkSuite: ci({ headShaAlreadyAttempted: true }) }))).toEqual({
      action: "ignore",
      code: "fix_already_started",
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
      code: "checks_ignored",
      reason: "Every failing check is listed in `check_suite.ignore_checks`.",
    });
  });

  it("resume the known run, or queue while it works", () => {
    expect(
      planRun(suite, facts({ checkSuite: ci({ attemptsSoFar: 1 }), knownRun: { runId: 9, orgId: 1, inProgress: false } })),
    ).toMatchObject({ action: "resume", runId: 9 });
    expect(
      planRun(run, facts({ checkSuite: ci({ attemptsSoFar: 1 }), knownRun: { runId: 9, orgId: 1, inProgress: true }, followUp: "new" })),
    ).toMatchObject({ action: "queue", runId: 9 });
  });

  it("mode create → a new fix run instead of resuming, after the same guards", () => {
    const known = { runId: 9, orgId: 1, inProgress: true };
    expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ attemptsSoFar: 1 }), knownRun: known }))).toMatchObject({
      action: "create",
      sourceType: "GIT_HOST_CHECK_SUITE",
    });
    expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ headShaAlreadyAttempted: true }) })).action).toBe("ignore");
    expect(planRun(suite, facts({ mode: { kind: "create" }, checkSuite: ci({ attemptsSoFar: 3 }) })).action).toBe("hand_back");
  });

  it("a stop's pause comes before the attempt cap; the thread's comments are read first, the known run only for a fix that may start", () => {
    const unread: RunFacts = { followUp: "queue" };
    expect(planRun(suite, unread)).toMatchObject({ action: "read", fact: "thread" });
    expect(planRun(suite, { ...unread, killSwitch: "agent:off" })).toMatchObject({ action: "ignore", code: "kill_switch" });
    const paused = { ...unread, checkSuite: ci({ attemptsSoFar: 3 }), ciPausedByStop: true };
    expect(planRun(suite, paused)).toEqual({
      action: "ignore",
      code: "ci_paused",
      reason:
        "CI auto-fix is paused on this pull request: its run was stopped with `/agent stop`, and nobody has asked with `/agent` since.",
    });
    expect(planRun(suite, { ...paused, ciPausedByStop: false }).action).toBe("hand_back");
    expect(planRun(suite, { ...unread, checkSuite: ci({ attemptsSoFar: 1 }) })).toMatchObject({ action: "read", fact: "known_run" });
  });

  it("without CI facts it is a programming error", () => {
    expect(() => planRun(suite, facts())).toThrow("facts.checkSuite is required for the check_suite flow");
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

describe("countFixAttempts", () => {
  const cycle = (id: number, fields: Partial<RunMarker>, login = "my-app[bot]") => bot(id, renderMarker({ ...running, ...fields }), login);

  it("CI fix cycles on the branch and the commits they answered", () => {
    const sha = (c: string) => c.repeat(40);
    const comments = [
      cycle(10, { sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("a") }),
      cycle(20, { sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("b") }),
      cycle(30, { sourceType: SOURCE.gitHostPrReview, branches: ["feature"] }),
      cycle(40, { sourceType: SOURCE.gitHostCheckSuite, branches: ["other"], headSha: sha("c") }),
      human(50, renderMarker({ ...running, sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("d") })),
    ];
    expect(countFixAttempts(comments, "refs/heads/feature", APP, PLACE)).toEqual({ attempts: 2, headShas: [sha("b"), sha("a")] });
  });
});

import { describe, expect, it } from "vitest";
import { planRun, type RunFacts } from "../../../src/core/plan.js";
import { triggerCommentState } from "../../../src/core/trigger.js";
import { commentEvent, labelEvent, repoConfig, reviewEvent } from "../core-events/scenarios.js";
import { triggerOf } from "./detections.js";

describe("planRun", () => {
  const allowed = { allowed: true, why: "@Codertocat has the admin role on this repository." };
  const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
    permission: allowed,
    triggerComment: "standing",
    knownRun: null,
    followUp: "queue",
    ...over,
  });
  const comment = triggerOf(commentEvent("/agent do it"));
  const fresh = triggerOf(commentEvent("/agent new do it"));

  it("no permission → refuse, with the permission's reason (which the refusal reply quotes)", () => {
    const plan = planRun(
      comment,
      facts({
        permission: {
          allowed: false,
          why: "@Codertocat has the read role and is not listed in `permissions.users`; the write, maintain or admin role is required.",
        },
      }),
    );
    expect(plan).toEqual({
      action: "refuse",
      reason: "@Codertocat has the read role and is not listed in `permissions.users`; the write, maintain or admin role is required.",
    });
    // Refusal comes first, even for `new` and a known run.
    expect(
      planRun(fresh, facts({ permission: { allowed: false, why: "no" }, knownRun: { runId: 1, orgId: 2, inProgress: false } })).action,
    ).toBe("refuse");
  });

  it("no known run → create with the flow's source type", () => {
    expect(planRun(comment, facts())).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
    expect(planRun(triggerOf(labelEvent("agent")), facts())).toMatchObject({ action: "create", sourceType: "GIT_HOST" });
    expect(planRun(triggerOf(reviewEvent("changes_requested", "/agent x")), facts())).toMatchObject({
      action: "create",
      sourceType: "GIT_HOST_PR_REVIEW",
    });
  });

  it("changes requested without the trigger: only on a branch a run of the bridge produced, unless widened; never answered to outsiders", () => {
    const review = triggerOf(reviewEvent("changes_requested", "x"));
    expect(planRun(review, facts())).toMatchObject({ action: "ignore", code: "review_not_on_bridge_branch" });
    expect(planRun(review, facts({ branchRun: null, knownRun: { runId: 7, orgId: 3, inProgress: false } }))).toMatchObject({
      action: "ignore",
      code: "review_not_on_bridge_branch",
    });
    expect(
      planRun(review, facts({ branchRun: { runId: 7, orgId: 3 }, knownRun: { runId: 7, orgId: 3, inProgress: false } })),
    ).toMatchObject({ action: "resume", runId: 7 });
    expect(planRun(review, facts({ changesRequested: "base_repository" }))).toMatchObject({
      action: "create",
      sourceType: "GIT_HOST_PR_REVIEW",
    });
    const outsider = facts({ permission: { allowed: false, why: "read role" }, changesRequested: "base_repository" });
    expect(planRun(review, outsider)).toMatchObject({ action: "ignore", code: "review_by_outsider" });
  });

  it("forceNew → create, even with a known run", () => {
    expect(planRun(fresh, facts({ knownRun: { runId: 7, orgId: 3, inProgress: false } }))).toMatchObject({
      action: "create",
      sourceType: "GIT_HOST",
    });
    const dispatch = triggerOf(commentEvent("x"), repoConfig(), { explicitPrompt: "Summarise" });
    expect(planRun(dispatch, facts({ knownRun: { runId: 7, orgId: 3, inProgress: true } }))).toMatchObject({
      action: "create",
      sourceType: "API",
    });
  });

  it("known run, finished → resume", () => {
    expect(planRun(comment, facts({ knownRun: { runId: 7, orgId: 3, inProgress: false } }))).toMatchObject({
      action: "resume",
      runId: 7,
      orgId: 3,
    });
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
});

describe("planRun asks for what it needs, cheapest first", () => {
  const comment = triggerOf(commentEvent("/agent do it"));
  const base: RunFacts = { followUp: "queue" };

  it("the kill switch answers before anything is read; then the permission, then the thread's run", () => {
    expect(planRun(comment, { ...base, killSwitch: "Agent:Off" })).toEqual({
      action: "ignore",
      code: "kill_switch",
      reason: 'The issue carries the kill-switch label "Agent:Off" (`kill_switch_label`): no run starts here until it is removed.',
    });
    expect(planRun(comment, base)).toMatchObject({ action: "read", fact: "permission" });
    expect(planRun(comment, { ...base, permission: { allowed: false, why: "no" } })).toEqual({ action: "refuse", reason: "no" });
    const allowed = { ...base, permission: { allowed: true, why: "yes" } };
    expect(planRun(comment, allowed)).toMatchObject({ action: "read", fact: "trigger_comment" });
    expect(planRun(comment, { ...allowed, triggerComment: "standing" })).toMatchObject({ action: "read", fact: "known_run" });
    expect(planRun(comment, { ...allowed, triggerComment: "standing", knownRun: null })).toMatchObject({ action: "create" });
  });

  it("a trigger comment deleted, or edited so that it no longer asks, before the job acts starts nothing", () => {
    const allowed = { ...base, permission: { allowed: true, why: "yes" }, knownRun: null };
    expect(planRun(comment, { ...allowed, triggerComment: "deleted" })).toMatchObject({ action: "ignore", code: "trigger_deleted" });
    expect(planRun(comment, { ...allowed, triggerComment: "withdrawn" })).toMatchObject({ action: "ignore", code: "trigger_withdrawn" });
    // `mode: resume` sends the workflow's prompt, not the comment's: nothing to read again.
    const named = { ...allowed, mode: { kind: "resume" as const, runId: 5, orgId: 1 } };
    expect(planRun(comment, named)).toMatchObject({ action: "resume", runId: 5 });
  });

  it("triggerCommentState: gone, no longer asking (or asking to stop), or standing whatever else the edit changed", () => {
    const grammar = { phrase: "/agent", appSlug: "my-app", mention: true };
    expect(triggerCommentState(null, grammar)).toBe("deleted");
    expect(triggerCommentState({ body: "never mind" }, grammar)).toBe("withdrawn");
    expect(triggerCommentState({ body: "/agent stop" }, grammar)).toBe("withdrawn");
    expect(triggerCommentState({ body: "/agent do something else" }, grammar)).toBe("standing");
  });
});

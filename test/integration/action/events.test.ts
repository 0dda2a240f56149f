/**
 * The Action on the other events it acts on: labels, reviews, failing workflow runs (CI auto-fix
 * with the App's attempt cap and head-SHA guard), and explicit prompts from any event.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import type { IssueCommentSeed } from "../../helpers/fake-github/index.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  ACTIONS_BOT,
  PR_BRANCH,
  PR_HEAD_SHA,
  SEEDED_PR,
  actionSeed,
  changesRequestedReview,
  failedCiPayload,
  startActionHarness,
  workflowDispatchPayload,
  workflowRunCompletedPayload,
  withFailingCi,
  type ActionHarness,
  signedByAction,
  placeIn,
} from "../../helpers/action-runner.js";
import { FULL_NAME, issuesLabeledPayload, reviewSubmittedPayload } from "../../helpers/app-payloads.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

/** A comment by the Action's own login on the pull request, holding a marker. */
function markerComment(marker: RunMarker, issueNumber = 2): IssueCommentSeed {
  return { issue_number: issueNumber, user: ACTIONS_BOT, body: signedByAction(`${renderMarker(marker)}\nearlier cycle`) };
}

const ciMarker = (runId: number, orgId: number, headSha: string): RunMarker => ({
  ...newRunMarker({ place: placeIn(2), runId, orgId, sourceType: "GIT_HOST_CHECK_SUITE", branches: [PR_BRANCH], headSha }),
  state: "done",
  outcome: "failed",
});

async function finishedRun(harness: ActionHarness): Promise<number> {
  const client = new AgentRunClient({ baseUrl: harness.emulator.url, token: harness.emulator.token, orgId: harness.emulator.orgId });
  const run = await client.createRun({ prompt: "earlier work", metadata: { repository: FULL_NAME } });
  harness.emulator.control.advanceTime(60_000);
  return run.id;
}

describe("issues labeled", () => {
  it("the configured label starts a run from the issue (GIT_HOST), 👀 on the issue", async () => {
    h = await startActionHarness();
    const step = await h.step({
      eventName: "issues",
      payload: issuesLabeledPayload({
        thread: { number: 1, title: "Flaky date test", body: "Fails on Tuesdays." },
        label: "agent",
        sender: "maintainer",
      }),
      inputs: {},
    });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()[0]!.metadata).toMatchObject({
      source_type: "GIT_HOST",
      trigger_flow: "label",
      label: "agent",
      issue_number: 1,
    });
    expect(h.github.writes[0]).toMatchObject({ kind: "reaction_added", reaction: { content: "eyes", target: { kind: "issue", id: 1 } } });
    expect(step.outputs["run-id"]).toBe("1");
  });
});

describe("pull request reviews", () => {
  it("changes requested without the trigger continue only the run that produced the branch (its marker in the thread)", async () => {
    const seed = actionSeed();
    seed.reviews = [8200, 8201].map((id) => ({ id, pull_number: 2, user: "maintainer", state: "CHANGES_REQUESTED", body: "Pin it." }));
    h = await startActionHarness({ seed });
    const review = (id: number) =>
      reviewSubmittedPayload({ pr: SEEDED_PR, review: { id, state: "changes_requested", body: "Pin it.", login: "maintainer" } });
    const ignored = await h.step({ eventName: "pull_request_review", payload: review(8200), inputs: {} });
    expect(ignored.result.outcome).toMatchObject({
      kind: "ignored",
      reason: expect.stringContaining("which no run of the bridge produced"),
    });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);

    const producer = await finishedRun(h);
    const marker: RunMarker = {
      ...newRunMarker({ place: placeIn(2), runId: producer, orgId: h.emulator.orgId, sourceType: "GIT_HOST", branches: [PR_BRANCH] }),
      state: "done",
      outcome: "succeeded",
    };
    h.github.seed({ issueComments: [markerComment(marker)] });
    const resumed = await h.step({ eventName: "pull_request_review", payload: review(8201), inputs: {} });
    expect(resumed.result.failure).toBeNull();
    expect(h.service.resumes().map((r) => r.agent_run_id)).toEqual([producer]);
  });

  it("with `reviews.changes_requested: base_repository`, changes requested start a GIT_HOST_PR_REVIEW run with the inline comments in the prompt", async () => {
    const review = changesRequestedReview();
    h = await startActionHarness({
      seed: { ...actionSeed(), reviews: [review.seed] },
      config: "reviews:\n  changes_requested: base_repository\n",
    });
    const step = await h.step({ eventName: "pull_request_review", payload: review.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    const create = h.service.creates()[0]!;
    expect(create.metadata).toMatchObject({
      source_type: "GIT_HOST_PR_REVIEW",
      review_id: 8100,
      head_branch: PR_BRANCH,
      pull_request_number: 2,
    });
    expect(String(create.prompt)).toContain("Use UTC here.");
    expect(String(create.prompt)).toContain("### Inline comment 1, line 12");
    expect(String(create.prompt)).toContain("file path (access unknown):\n```text\nsrc/dates.ts\n```");
    const comment = h.github.commentsOn(FULL_NAME, 2).find((c) => c.id === Number(step.outputs["comment-id"]))!;
    expect(parseMarker(comment.body)).toMatchObject({ sourceType: "GIT_HOST_PR_REVIEW", branches: expect.arrayContaining([PR_BRANCH]) });
  });
});

describe("failing CI (workflow_run completed)", () => {
  it("a success is ignored quietly; so is a run from a fork", async () => {
    h = await startActionHarness({ seed: withFailingCi() });
    const ok = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ conclusion: "success" }), inputs: {} });
    expect(ok.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining('concluded "success"') });
    const fork = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ forkRun: true }), inputs: {} });
    expect(fork.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("fork") });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);
  });

  it("CI auto-fix is on for a workflow_run workflow unless the configuration turns it off", async () => {
    h = await startActionHarness({ seed: withFailingCi(), config: "check_suite:\n  enabled: false\n" });
    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(step.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("check_suite.enabled: false") });
    expect(h.service.requests).toEqual([]);
  });

  it("resumes the run that produced the pull request's branch, with the failure as the follow-up", async () => {
    h = await startActionHarness({ seed: withFailingCi() });
    const producer = await finishedRun(h);
    h.github.seed({
      issueComments: [
        markerComment({
          ...newRunMarker({ place: placeIn(2), runId: producer, orgId: h.emulator.orgId, sourceType: "GIT_HOST", branches: [PR_BRANCH] }),
          state: "done",
          outcome: "succeeded",
        }),
      ],
    });
    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()).toEqual([]);
    expect(h.service.resumes()).toEqual([{ agent_run_id: producer, prompt: expect.stringContaining("FAIL src/dates.test.ts") }]);
    expect(step.outputs).toMatchObject({ "run-id": String(producer), resumed: "true" });
    // The cycle is recorded on the pull request, with the commit it answers.
    const comment = h.github.commentsOn(FULL_NAME, 2).find((c) => c.id === Number(step.outputs["comment-id"]))!;
    expect(parseMarker(comment.body)).toMatchObject({ runId: producer, sourceType: "GIT_HOST_CHECK_SUITE", headSha: PR_HEAD_SHA });
  });

  it("a run that opens a pull request links it, so that failing CI there resumes the same run", async () => {
    const seed = withFailingCi();
    seed.pulls = [
      ...(seed.pulls ?? []),
      { number: 3, title: "Pin the clock", head: { ref: "agent/pin-clock", sha: "c".repeat(40) }, user: "maintainer" },
    ];
    seed.workflowRuns = [
      {
        id: 710,
        head_branch: "agent/pin-clock",
        head_sha: "c".repeat(40),
        pull_requests: [3],
        jobs: [{ id: 711, name: "test", conclusion: "failure", log: "FAIL again\n" }],
      },
    ];
    h = await startActionHarness({ seed });
    h.emulator.control.script({ pullRequests: [{ title: "Pin the clock", head_branch_name: "agent/pin-clock" }] });
    const trigger = h.humanComment({ number: 1, title: "Flaky date test" }, "/agent fix it");
    const first = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    const runId = Number(first.outputs["run-id"]);
    const [link] = h.github.commentsOn(FULL_NAME, 3);
    expect(link!.user.login).toBe(ACTIONS_BOT);
    expect(parseMarker(link!.body)).toMatchObject({ runId, sourceType: "GIT_HOST", branches: ["agent/pin-clock"], state: "done" });
    expect(link!.body).toContain(`This pull request comes from agent run [#${runId}](${h.emulator.url}/runs/${runId})`);

    const ci = await h.step({
      eventName: "workflow_run",
      payload: workflowRunCompletedPayload({
        id: 710,
        conclusion: "failure",
        headSha: "c".repeat(40),
        headBranch: "agent/pin-clock",
        pullRequests: [{ number: 3 }],
      }),
      inputs: {},
    });
    expect(ci.outputs).toMatchObject({ "run-id": String(runId), resumed: "true" });
    expect(h.service.resumes()).toEqual([{ agent_run_id: runId, prompt: expect.stringContaining("FAIL again") }]);
    // The same run's next result does not link the pull request twice.
    expect(h.github.commentsOn(FULL_NAME, 3).filter((c) => c.body.includes("comes from agent run"))).toHaveLength(1);
  });

  it("never twice for one head commit", async () => {
    h = await startActionHarness({ seed: withFailingCi() });
    h.github.seed({ issueComments: [markerComment(ciMarker(await finishedRun(h), h.emulator.orgId, PR_HEAD_SHA))] });
    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(step.result.outcome).toMatchObject({
      kind: "ignored",
      reason: `A fix was already started for commit ${PR_HEAD_SHA.slice(0, 7)}.`,
    });
    expect(h.service.requests.filter((r) => r.method === "POST")).toEqual([]);
    // The failing jobs were listed, but no log was downloaded for a failure that starts nothing.
    expect(h.github.requests.filter((r) => r.path.endsWith("/jobs"))).toHaveLength(1);
    expect(h.github.requests.filter((r) => r.path.endsWith("/logs"))).toEqual([]);
  });

  it("after the attempt cap, hands the pull request back once, then stays quiet", async () => {
    h = await startActionHarness({ seed: withFailingCi(), config: "check_suite:\n  max_attempts: 2\n" });
    const orgId = h.emulator.orgId;
    h.github.seed({
      issueComments: [
        markerComment(ciMarker(await finishedRun(h), orgId, "1".repeat(40))),
        markerComment(ciMarker(await finishedRun(h), orgId, "2".repeat(40))),
      ],
    });
    const first = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(first.exitCode).toBeUndefined();
    expect(first.result.outcome.kind).toBe("handed_back");
    const handBack = h.github.commentsOn(FULL_NAME, 2).at(-1)!;
    expect(handBack.body).toMatch(
      /^<!-- agent-run-bridge:hand_back \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->\n🙋 I tried to fix/,
    );
    expect(first.outputs["comment-id"]).toBe(String(handBack.id));
    expect(first.summary).toContain("## 🙋 Pull request handed back");

    const second = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ headSha: "3".repeat(40) }), inputs: {} });
    expect(second.result.outcome.kind).toBe("ignored");
    expect(h.github.commentsOn(FULL_NAME, 2).filter((c) => c.user.login === ACTIONS_BOT)).toHaveLength(3);
    expect(h.service.requests.filter((r) => r.method === "POST" && !r.path.endsWith("/agent/run"))).toEqual([]);
  });
});

describe("explicit prompts", () => {
  it("workflow_dispatch with a prompt: an API run, no thread to comment on", async () => {
    h = await startActionHarness();
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", "repo-id": "31" },
    });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()).toEqual([
      expect.objectContaining({
        prompt: "Upgrade the test runner",
        repo_id: 31,
        metadata: expect.objectContaining({ source_type: "API", trigger_flow: "dispatch", github_event: "workflow_dispatch" }),
      }),
    ]);
    expect(h.github.writes).toEqual([]);
    expect(step.outputs).toMatchObject({ "run-id": "1", status: "completed", "comment-id": "" });
  });

  it("workflow_dispatch without a prompt fails with what to do, before any run", async () => {
    h = await startActionHarness();
    const step = await h.step({ eventName: "schedule", payload: { schedule: "0 3 * * *" }, inputs: {} });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toBe(
      'The "schedule" event has no comment, review or failing CI to act on: give the action a `prompt` input to start a run from it.',
    );
    expect(h.service.requests).toEqual([]);
  });

  it("an explicit prompt on a comment event: an API run with the thread as context, reported in the thread", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment({ number: 1, title: "Flaky date test", body: "Fails on Tuesdays." }, "no trigger phrase here");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { prompt: "Triage this issue" } });
    expect(step.result.failure).toBeNull();
    const create = h.service.creates()[0]!;
    expect(create.metadata).toMatchObject({ source_type: "API", issue_number: 1 });
    expect(String(create.prompt)).toMatch(
      /^Triage this issue\n\nText quoted from GitHub stands in fenced blocks[^\n]*\n\n## Issue octo-org\/widgets#1\n/,
    );
    expect(h.github.commentsOn(FULL_NAME, 1).some((c) => c.id === Number(step.outputs["comment-id"]))).toBe(true);
  });

  it("`mode: resume` continues the named run with the prompt", async () => {
    h = await startActionHarness();
    const earlier = await finishedRun(h);
    const step = await h.step({
      eventName: "repository_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { mode: "resume", "run-id": String(earlier), prompt: "Now update the changelog" },
    });
    expect(step.result.failure).toBeNull();
    expect(h.service.resumes()).toEqual([{ agent_run_id: earlier, prompt: "Now update the changelog" }]);
    expect(step.outputs).toMatchObject({ "run-id": String(earlier), resumed: "true", status: "completed" });
  });
});

/**
 * The Action's spend guards, kill switch and `/agent stop`, in process against the fake GitHub and
 * the emulator behind a recorder. The Action keeps no records: every count and every stop travels
 * through the bot's own comments, so these tests seed and read comments as GitHub would hold them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import type { FakeGitHubSeed, IssueCommentSeed } from "../../helpers/fake-github/index.js";
import {
  ACTIONS_BOT,
  actionSeed,
  failedCiPayload,
  startActionHarness,
  workflowDispatchPayload,
  withFailingCi,
  type ActionHarness,
  signedByAction,
  placeIn,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const PR_THREAD = { number: 2, pullRequest: true, title: "Fix the flaky date test" };
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A tracking comment an earlier job left: one run started at that time. */
function startedRun(
  issueNumber: number,
  minutes: number,
  fields: Partial<RunMarker> = {},
  runId = 900 + issueNumber * 10 + minutes,
): IssueCommentSeed {
  const marker: RunMarker = {
    ...newRunMarker({ place: placeIn(issueNumber), runId, orgId: 1, sourceType: "GIT_HOST", requestId: `actions:${runId}:1` }),
    state: "done",
    outcome: "succeeded",
    ...fields,
  };
  return {
    issue_number: issueNumber,
    user: ACTIONS_BOT,
    created_at: minutesAgo(minutes),
    updated_at: minutesAgo(minutes),
    body: signedByAction(`${renderMarker(marker)}\n### ✅ Agent run #${runId} succeeded`),
  };
}

function seedWith(extra: Partial<FakeGitHubSeed>): FakeGitHubSeed {
  const seed = actionSeed();
  return {
    ...seed,
    ...extra,
    issues: [...(seed.issues ?? []), { number: 3, title: "Another issue", user: "maintainer" }, ...(extra.issues ?? [])],
    pulls: extra.pulls ?? seed.pulls,
  };
}

const botComments = (issueNumber: number) => h.github.commentsOn(FULL_NAME, issueNumber).filter((c) => c.user.login === ACTIONS_BOT);

describe("spend limits", () => {
  it("over `limits.runs_per_repo_per_hour`: no run started or resumed, one reply naming the limit, its count and when it frees", async () => {
    h = await startActionHarness({
      config: "limits:\n  runs_per_repo_per_hour: 2\n",
      seed: seedWith({ issueComments: [startedRun(3, 50), startedRun(3, 10), startedRun(3, 70)] }),
    });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });

    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(step.exitCode).toBeUndefined();
    expect(step.result.outcome).toMatchObject({
      kind: "over_limit",
      reason: expect.stringMatching(/^Over `limits\.runs_per_repo_per_hour` \(2 of 2\)/),
    });
    const [reply] = botComments(1);
    // The oldest counted run is 50 minutes old: it frees in ten minutes, less the time the step took.
    expect(parseCommentKind(reply!.body)).toBe("over_limit");
    expect(reply!.body).toMatch(
      /⏸️ I did not start the agent: this repository has started 2 runs in the last hour, the limit set by `limits\.runs_per_repo_per_hour: 2`\. The next run can start at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in (?:9|10)m \d+s\)\./,
    );
    expect(step.outputs["comment-id"]).toBe(String(reply!.id));
    expect(step.summary).toContain("## ⏸️ Agent run held back by a spend limit");

    // A second trigger in the same window: still no run, and no second reply.
    const again = h.humanComment(ISSUE, "/agent please");
    const second = await h.step({ eventName: "issue_comment", payload: again.payload, inputs: {} });
    expect(second.result.outcome).toMatchObject({ kind: "over_limit" });
    // Nothing that starts or resumes a run (the repository's id may have been looked up: a read, no spend).
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(botComments(1)).toHaveLength(1);
  });

  it("a `workflow_dispatch` with a prompt is counted too: the repository's comments, listed while the configuration is read, hold the run back", async () => {
    h = await startActionHarness({
      config: "limits:\n  runs_per_repo_per_hour: 2\n",
      seed: seedWith({ issueComments: [startedRun(3, 50), startedRun(3, 10)] }),
    });
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", "repo-id": "31" },
    });

    expect(step.result.outcome).toMatchObject({
      kind: "over_limit",
      reason: expect.stringMatching(/^Over `limits\.runs_per_repo_per_hour` \(2 of 2\)/),
    });
    expect(h.service.creates()).toEqual([]);
    // Listed once, by the head start, and not again by the check.
    expect(h.github.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/repos/${FULL_NAME}/issues/comments`))).toHaveLength(1);
  });

  it("the same step without a head start lists the comments itself, ahead of the decision, once", async () => {
    h = await startActionHarness({
      config: "limits:\n  runs_per_repo_per_hour: 2\n",
      seed: seedWith({ issueComments: [startedRun(3, 50), startedRun(3, 10)] }),
    });
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Upgrade the test runner", "repo-id": "31" },
      headStart: () => null,
    });

    expect(step.result.outcome).toMatchObject({ kind: "over_limit" });
    expect(h.service.creates()).toEqual([]);
    expect(h.github.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/repos/${FULL_NAME}/issues/comments`))).toHaveLength(1);
  });

  it("over `limits.runs_per_thread_per_day`, counted in this thread only", async () => {
    h = await startActionHarness({
      config: "limits:\n  runs_per_thread_per_day: 2\n",
      seed: seedWith({ issueComments: [startedRun(1, 300), startedRun(1, 600), startedRun(3, 5), startedRun(3, 6)] }),
    });
    const blocked = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent fix it").payload, inputs: {} });
    expect(blocked.result.outcome).toMatchObject({ kind: "over_limit" });
    expect(botComments(1).at(-1)!.body).toContain("this issue has started 2 runs in the last 24 hours");
    // The thread's earlier run was looked up (it is gone: 404), nothing was started or resumed.
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("under every limit the run starts, and its tracking comment counts for the next trigger", async () => {
    h = await startActionHarness({ config: "limits:\n  runs_per_repo_per_hour: 1\n", seed: seedWith({}) });
    const first = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent fix it").payload, inputs: {} });
    expect(first.result.outcome).toMatchObject({ kind: "run", watch: "finished" });
    expect(h.service.creates()).toHaveLength(1);

    const second = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment({ number: 3, title: "Another issue" }, "/agent also this").payload,
      inputs: {},
    });
    expect(second.result.outcome).toMatchObject({ kind: "over_limit" });
    expect(h.service.creates()).toHaveLength(1);
    expect(h.service.resumes()).toHaveLength(0);
  });

  it("`limits.ci_fixes_per_repo_per_day` holds back a CI fix, while other runs may still start", async () => {
    const seed = seedWith({
      issueComments: [
        startedRun(3, 100, { sourceType: "GIT_HOST_CHECK_SUITE" }),
        startedRun(3, 200, { sourceType: "GIT_HOST_CHECK_SUITE" }),
      ],
    });
    withFailingCi(seed);
    h = await startActionHarness({ config: "limits:\n  ci_fixes_per_repo_per_day: 2\n", seed });
    const ci = await h.step({
      eventName: "workflow_run",
      payload: failedCiPayload(),
      inputs: {},
    });
    expect(ci.result.outcome).toMatchObject({ kind: "over_limit" });
    expect(botComments(2).at(-1)!.body).toContain("this repository has started 2 CI fix runs in the last 24 hours");
    // Nothing that starts or resumes a run (the repository's id may have been looked up: a read, no spend).
    expect(h.service.requests.filter((r) => r.method !== "GET")).toEqual([]);

    const comment = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent fix it").payload, inputs: {} });
    expect(comment.result.outcome).toMatchObject({ kind: "run" });
    expect(h.service.creates()).toHaveLength(1);
  });
});

describe("the kill switch", () => {
  it("a comment on a thread labelled `agent:off` starts nothing and says nothing", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment({ ...ISSUE, labels: ["bug", "agent:off"] }, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.outcome).toEqual({ kind: "ignored", reason: expect.stringContaining('kill-switch label "agent:off"') });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);
  });

  it("CI auto-fix on a pull request carrying the configured label (read from GitHub: CI payloads have no labels)", async () => {
    const seed = actionSeed();
    seed.pulls = seed.pulls!.map((pull) => ({ ...pull, labels: ["No-Bots"] }));
    withFailingCi(seed);
    h = await startActionHarness({ seed, config: "kill_switch_label: no-bots\n" });
    const step = await h.step({
      eventName: "workflow_run",
      payload: failedCiPayload(),
      inputs: {},
    });
    expect(step.result.outcome).toEqual({ kind: "ignored", reason: expect.stringContaining('kill-switch label "No-Bots"') });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);
  });
});

describe("a broken configuration is never silent for CI", () => {
  it("`check_suite: { auto_fix: true }`: the failing pull request gets the config-error reply, with the suggestion", async () => {
    const seed = actionSeed();
    withFailingCi(seed);
    h = await startActionHarness({ seed, config: "check_suite:\n  auto_fix: true\n" });
    const payload = failedCiPayload();
    await h.step({ eventName: "workflow_run", payload, inputs: {} });
    const [reply] = botComments(2);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    expect(reply!.body).toContain("Did you mean `enabled`?");
    expect(h.service.requests).toEqual([]);
    // Once per thread: the next failure does not repeat it.
    await h.step({ eventName: "workflow_run", payload, inputs: {} });
    expect(botComments(2)).toHaveLength(1);
  });
});

describe("/agent stop", () => {
  it("with nothing running: 👍 and a reply saying so, never an error, nothing sent to the service", async () => {
    h = await startActionHarness();
    const stop = h.humanComment(ISSUE, "/agent stop");
    const step = await h.step({ eventName: "issue_comment", payload: stop.payload, inputs: {} });
    expect(step.result).toMatchObject({ failure: null, outcome: { kind: "stopped" } });
    expect(h.service.requests).toEqual([]);
    expect(botComments(1).map((c) => c.body)).toEqual([
      signedByAction(
        `<!-- agent-run-bridge:stop {"v":2,"repo":"${FULL_NAME}","thread":${ISSUE.number}} -->\n⏹️ @maintainer, nothing is running in this thread, so there was nothing to stop.`,
      ),
    ]);
    expect(
      h.github.writes
        .filter((w) => w.kind === "reaction_added")
        .map((w) => ("reaction" in w ? [w.reaction.content, w.reaction.target] : null)),
    ).toEqual([["+1", { kind: "issue_comment", id: stop.id }]]);
  });

  it("from someone who may not trigger: a refusal, nothing stopped", async () => {
    h = await startActionHarness();
    const open = startedRun(1, 1, { state: "running", outcome: undefined });
    h.github.seed({ issueComments: [open] });
    const step = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent stop", "reader").payload, inputs: {} });
    expect(step.result.outcome).toMatchObject({ kind: "refused" });
    expect(parseMarker(botComments(1)[0]!.body)).toMatchObject({ state: "running" });
    expect(botComments(1).at(-1)!.body).toMatch(
      /^<!-- agent-run-bridge:refusal \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->\n🚫 @reader, I can't start the agent for you/,
    );
  });

  it("stops the job watching the thread's run: its comment ends 'stopped by @who' with the run's link, no result follows, and a waiting follow-up is dropped", async () => {
    h = await startActionHarness();
    // Ten hours emulated: the run works far longer than this test.
    h.emulator.control.script({ durationMs: 36_000_000 });
    const runStarted = new Promise<void>((resolve) => {
      const off = h.github.onWrite((write) => {
        if (write.kind === "comment_updated" && parseMarker(write.comment.body)?.runId !== null) {
          off();
          resolve();
        }
      });
    });
    const watching = h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "/agent a long task").payload,
      inputs: { "timeout-minutes": "2" },
    });
    await runStarted;
    const [run] = h.emulator.control.runs();

    // A follow-up job waits behind the run.
    const followUpQueued = new Promise<void>((resolve) => {
      const off = h.github.onWrite((write) => {
        if (write.kind === "comment_created" && write.comment.body.includes("📝 Your follow-up is queued")) {
          off();
          resolve();
        }
      });
    });
    const followUp = h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "/agent and the docs too").payload,
      inputs: { "timeout-minutes": "2" },
    });
    await followUpQueued;

    const stop = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, "/agent stop").payload, inputs: {} });
    expect(stop.result.outcome).toMatchObject({
      kind: "stopped",
      reason: `@maintainer stopped run ${run!.id} and dropped 1 follow-up(s).`,
    });

    const [watched, followed] = await Promise.all([watching, followUp]);
    expect(watched.result).toMatchObject({ failure: null, outcome: { kind: "run", watch: "stopped", run: { id: run!.id } } });
    expect(followed.result).toMatchObject({ failure: null, outcome: { kind: "stopped" } });
    // Nothing was resumed, and the run was never asked to stop (the service cannot).
    expect(h.service.creates()).toHaveLength(1);
    expect(h.service.resumes()).toEqual([]);

    const comments = botComments(1);
    // The watching job's tracking comment came first.
    const tracking = comments[0]!;
    expect(parseMarker(tracking.body)).toMatchObject({ runId: run!.id, state: "done", outcome: "stopped" });
    expect(tracking.body).toContain(`### ⏹️ Agent run [#${run!.id}](${run!.web_url}) stopped by @maintainer`);
    expect(tracking.body).toContain("The Agent Run Service has no cancel call");
    const dropped = comments.find((c) => c.body.includes("**Dropped:**"))!;
    expect(parseMarker(dropped.body)).toMatchObject({ runId: run!.id, outcome: "stopped" });
    const reply = comments.at(-1)!;
    expect(parseCommentKind(reply.body)).toBe("stop");
    expect(reply.body).toContain(`I stopped watching agent run [#${run!.id}](${run!.web_url}) and dropped the follow-up waiting for it.`);
    // The stopped state was the last write to each comment: no job wrote over it.
    const lastWrites = new Map<number, string>();
    for (const write of h.github.writes)
      if (write.kind === "comment_updated" || write.kind === "comment_created") lastWrites.set(write.comment.id, write.comment.body);
    expect(parseMarker(lastWrites.get(tracking.id))?.outcome).toBe("stopped");
    expect(parseMarker(lastWrites.get(dropped.id))?.outcome).toBe("stopped");
  });

  it("pauses CI auto-fix on the pull request until a person's next /agent", async () => {
    const seed = actionSeed();
    withFailingCi(seed);
    h = await startActionHarness({ seed });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(PR_THREAD, "/agent stop").payload, inputs: {} });
    expect(botComments(2).at(-1)!.body).toContain("CI auto-fix is paused on this pull request until the next `/agent` comment.");

    const failing = failedCiPayload();
    const paused = await h.step({ eventName: "workflow_run", payload: failing, inputs: {} });
    expect(paused.result.outcome).toEqual({
      kind: "ignored",
      reason: expect.stringContaining("CI auto-fix is paused on this pull request"),
    });
    expect(h.service.requests).toEqual([]);
    const logDownloads = () => h.github.requests.filter((r) => r.path === `/repos/${FULL_NAME}/actions/jobs/702/logs`);
    expect(logDownloads()).toEqual([]);

    // A person asks again: CI auto-fix is back.
    h.humanComment(PR_THREAD, "/agent carry on");
    const resumed = await h.step({ eventName: "workflow_run", payload: failing, inputs: {} });
    expect(resumed.result.outcome).toMatchObject({ kind: "run" });
    expect(h.service.creates()).toHaveLength(1);
    expect(logDownloads()).toHaveLength(1);
  });
});

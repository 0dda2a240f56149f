/**
 * The Action on comment events, in process (main.ts's `run()`), against the fake GitHub and the
 * emulator behind a recorder: what it writes in the thread, what reaches the service, the outputs
 * and the job summary.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { hasValidMarkerSignature } from "../../../src/core/markers/signature.js";
import { createMarkerSigner } from "../../../src/action/marker-signer.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { createPng, type FakeWrite } from "../../helpers/fake-github/index.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  ACTIONS_BOT,
  createRunnerFiles,
  placeIn,
  startActionHarness,
  type ActionHarness,
  signedByAction,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

function describeWrites(writes: readonly FakeWrite[]): string[] {
  return writes.map((w) => {
    switch (w.kind) {
      case "comment_created":
        return `created ${w.comment.id} on #${w.issueNumber} by ${w.comment.user.login}`;
      case "comment_updated":
        return `updated ${w.comment.id}`;
      case "comment_deleted":
        return `deleted ${w.comment.id}`;
      case "reaction_added":
        return `${w.reaction.content} on ${w.reaction.target.kind} ${w.reaction.target.id}`;
    }
  });
}

/** A finished run of this repository on the emulator, as an earlier step would have left it. */
async function finishedRun(harness: ActionHarness, repository = FULL_NAME): Promise<number> {
  const client = new AgentRunClient({ baseUrl: harness.emulator.url, token: harness.emulator.token, orgId: harness.emulator.orgId });
  const run = await client.createRun({ prompt: "earlier work", metadata: { repository, source_type: "GIT_HOST" } });
  harness.emulator.control.advanceTime(60_000);
  return run.id;
}

const botMarkerComment = (runId: number, orgId: number, user = ACTIONS_BOT) => ({
  issue_number: 1,
  user,
  body: signedByAction(
    `${renderMarker({ ...newRunMarker({ place: placeIn(1), runId, orgId, sourceType: "GIT_HOST" }), state: "done", outcome: "succeeded" })}\n### ✅ Agent run #${runId} succeeded`,
  ),
});

describe("a /agent comment", () => {
  it("starts a run: 👀, a tracking comment that becomes the result, 🚀, outputs and a job summary", async () => {
    h = await startActionHarness();
    h.emulator.control.script({
      summary: "Pinned the clock.",
      result: "The date test no longer depends on the weekday.",
      pullRequests: [{ title: "Pin the clock", head_branch_name: "agent/pin-clock" }],
    });
    const files = createRunnerFiles();
    writeFileSync(join(files.workspace, "screenshot.png"), createPng({ width: 2, height: 2 }));
    const trigger = h.humanComment(ISSUE, "/agent fix the flaky test\nIt is in `dates.test.ts`.");
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      files,
      inputs: {
        metadata: '{"ticket":"ENG-1"}',
        "repo-id": "77",
        model: "big-model",
        "agent-type": "native",
        images: "screenshot.png",
      },
    });

    expect(step.exitCode).toBeUndefined();
    expect(step.result.failure).toBeNull();
    const [create] = h.service.creates();
    expect(create).toMatchObject({
      repo_id: 77,
      model: "big-model",
      agent_type: "native",
      images: [expect.stringMatching(/^data:image\/png;base64,/)],
    });
    expect(create!.metadata).toMatchObject({
      // The workflow's metadata goes beside the bridge's own keys.
      source_type: "GIT_HOST",
      issue_number: ISSUE.number,
      ticket: "ENG-1",
      trigger_flow: "comment",
      comment_id: trigger.id,
      sender: "maintainer",
      repository: FULL_NAME,
      delivery_id: "9100-1",
      github_actions_run_url: `https://github.com/${FULL_NAME}/actions/runs/9100`,
      bridge: { name: "agent-run-bridge/action", version: expect.any(String) },
    });
    expect(String(create!.prompt)).toContain("fix the flaky test\nIt is in `dates.test.ts`.");
    expect(String(create!.prompt)).toContain("fails on Tuesdays");

    const runId = Number(step.outputs["run-id"]);
    const commentId = Number(step.outputs["comment-id"]);
    const writes = describeWrites(h.github.writes);
    expect(writes[0]).toBe(`eyes on issue_comment ${trigger.id}`);
    expect(writes[1]).toBe(`created ${commentId} on #1 by ${ACTIONS_BOT}`);
    expect(writes.at(-1)).toBe(`rocket on issue_comment ${trigger.id}`);
    expect(writes.slice(2, -1).every((w) => w === `updated ${commentId}`)).toBe(true);
    const created = h.github.writes.find((w) => w.kind === "comment_created")!;
    expect(parseMarker((created as Extract<FakeWrite, { kind: "comment_created" }>).comment.body)).toMatchObject({
      runId: null,
      state: "queued",
      requestId: "actions:9100:1",
    });

    const [final] = h.github.commentsOn(FULL_NAME, 1).filter((c) => c.id === commentId);
    expect(parseMarker(final!.body)).toEqual({
      v: 2,
      repo: FULL_NAME,
      thread: 1,
      runId,
      orgId: h.emulator.orgId,
      sourceType: "GIT_HOST",
      branches: ["agent/pin-clock"],
      state: "done",
      outcome: "succeeded",
      requestId: "actions:9100:1",
    });
    expect(final!.body).toContain("**Summary**\n\nPinned the clock.");
    expect(final!.body).toContain("[Pin the clock]");

    expect(step.outputs).toEqual({
      "run-id": String(runId),
      status: "completed",
      "web-url": `${h.emulator.url}/runs/${runId}`,
      result: "The date test no longer depends on the weekday.",
      summary: "Pinned the clock.",
      "pull-requests": expect.any(String),
      "comment-id": String(commentId),
      resumed: "false",
    });
    expect(JSON.parse(step.outputs["pull-requests"]!)).toEqual([
      {
        id: 1,
        title: "Pin the clock",
        url: expect.stringMatching(/^http/),
        created_at: expect.any(String),
        head_branch_name: "agent/pin-clock",
      },
    ]);
    expect(step.summary).toContain(`## ✅ Agent run #${runId} succeeded`);
    expect(step.summary).toContain(
      `| Thread | [${FULL_NAME}#1](https://github.com/${FULL_NAME}/issues/1) · [the bot's comment](https://github.com/${FULL_NAME}/issues/1#issuecomment-${commentId}) |`,
    );
    expect(step.summary).toContain("### Summary\n\nPinned the clock.");
    expect(step.summary).toContain("- [Pin the clock](");
  });

  it("a comment without the trigger: nothing written, nothing sent, empty outputs, no summary, success", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "Thanks, looks good. (/agent is only read at the start of a line)");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.exitCode).toBeUndefined();
    expect(step.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.github.writes).toEqual([]);
    expect(h.service.requests).toEqual([]);
    // One read (the configuration, for its trigger phrase); not even who the token is.
    expect(h.github.requests.map((r) => `${r.method} ${r.route}`)).toEqual(["GET /repos/:owner/:repo/contents/*"]);
    expect(step.summary).toBe("");
    expect(Object.values(step.outputs).every((value) => value === "")).toBe(true);
    expect(Object.keys(step.outputs)).toHaveLength(8);
  });

  it("refuses, once and politely, someone without write access: no run", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "/agent delete everything", "reader");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.exitCode).toBeUndefined();
    expect(h.service.requests).toEqual([]);
    const [reply] = h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);
    expect(reply!.body).toMatch(
      /^<!-- agent-run-bridge:refusal \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->\n🚫 @reader, I can't start the agent for you/,
    );
    expect(step.outputs["comment-id"]).toBe(String(reply!.id));
    expect(step.outputs["run-id"]).toBe("");
    expect(step.summary).toContain("## 🚫 Agent run refused");
  });

  it("a follow-up resumes the run named by the bot's own marker; markers pasted by people, or for other repositories, are not trusted", async () => {
    h = await startActionHarness();
    const ours = await finishedRun(h);
    const elsewhere = await finishedRun(h, "octo-org/other-repo");
    const decoy = await finishedRun(h);
    h.github.seed({ issueComments: [botMarkerComment(ours, h.emulator.orgId), botMarkerComment(decoy, h.emulator.orgId, "mallory")] });
    const trigger = h.humanComment(ISSUE, "/agent also handle Mondays");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.creates()).toEqual([]);
    expect(h.service.resumes()).toEqual([{ agent_run_id: ours, prompt: expect.stringContaining("also handle Mondays") }]);
    expect(step.outputs).toMatchObject({ "run-id": String(ours), resumed: "true", status: "completed" });
    expect(step.summary).toContain("a follow-up to an existing run (resumed)");

    // The newest trusted marker now points at a run of another repository: start afresh.
    h.github.seed({ issueComments: [botMarkerComment(elsewhere, h.emulator.orgId)] });
    const again = h.humanComment(ISSUE, "/agent one more thing");
    const second = await h.step({ eventName: "issue_comment", payload: again.payload, inputs: {} });
    expect(second.outputs.resumed).toBe("false");
    expect(h.service.creates()).toHaveLength(1);
  });

  it("trusts only markers it signed: one written as github-actions[bot] by another workflow, or by a version before signing, starts a fresh run", async () => {
    h = await startActionHarness();
    const ours = await finishedRun(h);
    const other = await finishedRun(h);
    const doneBody = (runId: number) =>
      `${renderMarker({ ...newRunMarker({ place: placeIn(1), runId, orgId: h.emulator.orgId, sourceType: "GIT_HOST" }), state: "done", outcome: "succeeded" })}\n### ✅ done`;
    // Any workflow of the repository writes as github-actions[bot], but holds no service token: each of these names `ours`.
    h.github.seed({
      issueComments: [
        { issue_number: 1, user: ACTIONS_BOT, body: signedByAction(doneBody(other)).replace(`"runId":${other}`, `"runId":${ours}`) },
        { issue_number: 1, user: ACTIONS_BOT, body: signedByAction(doneBody(ours), "another-service-token") },
        { issue_number: 1, user: ACTIONS_BOT, body: doneBody(ours) },
      ],
    });
    const trigger = h.humanComment(ISSUE, "/agent also handle Mondays");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.resumes()).toEqual([]);
    expect(h.service.creates()).toHaveLength(1);
    expect(step.outputs.resumed).toBe("false");
    // Its own tracking comment carries a marker signed with the key of this job's token.
    const tracking = h.github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(step.outputs["comment-id"]))!;
    expect(tracking.body).toMatch(/^<!-- agent-run-bridge:run \{[^\n]*\} sig=[\w-]{43} -->\n/);
    expect(hasValidMarkerSignature(tracking.body, createMarkerSigner(h.emulator.token))).toBe(true);
    expect(hasValidMarkerSignature(tracking.body, createMarkerSigner("another-service-token"))).toBe(false);
  });

  it("`mode: create` starts a new run even when the thread has one", async () => {
    h = await startActionHarness();
    const ours = await finishedRun(h);
    h.github.seed({ issueComments: [botMarkerComment(ours, h.emulator.orgId)] });
    const trigger = h.humanComment(ISSUE, "/agent start over");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { mode: "create" } });
    expect(h.service.resumes()).toEqual([]);
    expect(h.service.creates()).toHaveLength(1);
    expect(step.outputs.resumed).toBe("false");
  });

  it("bots are refused unless `allowed-bots` lists them; the Action's own login never triggers", async () => {
    h = await startActionHarness();
    const byBot = h.humanComment(ISSUE, "/agent bump the lockfile", "renovate[bot]");
    const ignored = await h.step({ eventName: "issue_comment", payload: byBot.payload, inputs: {} });
    expect(ignored.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("bots do not start runs") });
    expect(h.service.requests).toEqual([]);

    const allowed = await h.step({
      eventName: "issue_comment",
      payload: byBot.payload,
      inputs: { "allowed-bots": "dependabot, renovate[bot]" },
    });
    expect(allowed.result.failure).toBeNull();
    expect(h.service.creates()[0]!.metadata).toMatchObject({ sender: "renovate[bot]", comment_id: byBot.id });
    expect(String(h.service.creates()[0]!.prompt)).toContain("@renovate[bot] asked for help");
    // No permission lookup for a listed bot: the list is the permission. The one read is the access of
    // the issue's author, whose description the prompt quotes.
    expect(h.github.callsTo("GET", "/repos/{owner}/{repo}/collaborators/{user}/permission").map((r) => r.path)).toEqual([
      `/repos/${FULL_NAME}/collaborators/octocat/permission`,
    ]);

    const ownComment = h.humanComment(ISSUE, "/agent loop forever", ACTIONS_BOT);
    const own = await h.step({ eventName: "issue_comment", payload: ownComment.payload, inputs: { "allowed-bots": "*" } });
    expect(own.result.outcome.kind).toBe("ignored");
    expect(h.service.creates()).toHaveLength(1);
  });

  it("`comment: false` keeps the thread silent; `wait: false` returns right after the start", async () => {
    h = await startActionHarness();
    h.emulator.control.script({ durationMs: 3_600_000 });
    const trigger = h.humanComment(ISSUE, "/agent take a long time");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { comment: "false", wait: "false" } });
    expect(step.exitCode).toBeUndefined();
    expect(h.github.writes).toEqual([]);
    expect(step.outputs).toMatchObject({
      "run-id": "1",
      status: "queued",
      "comment-id": "",
      resumed: "false",
      "web-url": `${h.emulator.url}/runs/1`,
    });
    // The repository list (no repo_id is configured), one create, and no polling.
    expect(h.service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/organizations/1/repos",
      "POST /v1/organizations/1/agent/run",
    ]);
    expect(step.summary).toContain("## ▶️ Agent run #1 started");
    expect(step.summary).toContain("Not waited for (`wait: false`)");
  });

  it("follows the configuration file: its trigger phrase, unless the input sets another", async () => {
    h = await startActionHarness({ config: "trigger_phrase: /bot\ninstructions: Always run the linter.\n" });
    const byFile = h.humanComment(ISSUE, "/bot fix it");
    const first = await h.step({ eventName: "issue_comment", payload: byFile.payload, inputs: {} });
    expect(first.outputs["run-id"]).toBe("1");
    expect(String(h.service.creates()[0]!.prompt)).toContain("Always run the linter.");
    const byInput = h.humanComment(ISSUE, "/bot fix it again");
    const second = await h.step({ eventName: "issue_comment", payload: byInput.payload, inputs: { "trigger-phrase": "/robot" } });
    expect(second.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("`/robot`") });
  });

  it("a broken configuration file: one config-error reply, and the step fails naming the field", async () => {
    h = await startActionHarness({ config: "check_suite:\n  max_attempts: lots\n" });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain("`check_suite.max_attempts` in .github/agent-run.yml: must be an integer between 1 and 20");
    expect(h.service.requests).toEqual([]);
    const [reply] = h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);
    expect(reply!.body).toMatch(/^<!-- agent-run-bridge:config_error \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->/);
    // A comment without the trigger does not get the same answer again, nor fail its step.
    const chatter = h.humanComment(ISSUE, "any news?");
    const quiet = await h.step({ eventName: "issue_comment", payload: chatter.payload, inputs: {} });
    expect(quiet.exitCode).toBeUndefined();
    expect(h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT)).toHaveLength(1);
  });
});

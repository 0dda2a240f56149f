/**
 * How a step ends when the run does not simply succeed: a failed run, the timeout, the service
 * pacing many jobs with 429s, the service refusing the token, a follow-up while the thread's run
 * still works, and inputs that cannot be used.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { ACTIONS_BOT, seedWorkingRun, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const botComments = (harness: ActionHarness) => harness.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);

describe("a run that fails", () => {
  it("fails the step (fail-on-error), with the error in the result comment and 😕 on the trigger", async () => {
    h = await startActionHarness();
    h.emulator.control.script({ outcome: "failed", errorMessage: "Tests still fail after 3 attempts." });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toBe(`Agent run 1 failed (status failed): ${h.emulator.url}/runs/1`);
    expect(step.outputs).toMatchObject({ "run-id": "1", status: "failed" });
    const [result] = botComments(h);
    expect(result!.body).toContain("### ❌ Agent run [#1]");
    expect(result!.body).toContain("Tests still fail after 3 attempts.");
    expect(h.github.writes.at(-1)).toMatchObject({ kind: "reaction_added", reaction: { content: "confused" } });
    expect(step.summary).toContain("## ❌ Agent run #1 failed");
  });

  it("with `fail-on-error: false` the step succeeds and the outputs still say failed", async () => {
    h = await startActionHarness();
    h.emulator.control.script({ outcome: "failed" });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "fail-on-error": "false" } });
    expect(step.exitCode).toBeUndefined();
    expect(step.result.failure).toBeNull();
    expect(step.outputs.status).toBe("failed");
  });
});

describe("a run that someone cancels", () => {
  it("is reported as cancelled, not failed, with no reaction; the step fails softly (it did not do its job)", async () => {
    h = await startActionHarness({ emulator: { statusVocabulary: "deployment" } });
    h.emulator.control.script({ outcome: "failed", finalStatus: "CANCELLED" });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "fail-on-error": "false" } });
    expect(step.exitCode).toBeUndefined();
    expect(step.outputs).toMatchObject({ "run-id": "1", status: "CANCELLED" });
    const [result] = botComments(h);
    expect(result!.body).toContain("### ⏹️ Agent run [#1]");
    expect(result!.body).toContain("was cancelled");
    expect(parseMarker(result!.body)).toMatchObject({ state: "done", outcome: "stopped" });
    expect(
      h.github.writes.filter((w) => w.kind === "reaction_added").map((w) => (w as { reaction: { content: string } }).reaction.content),
    ).toEqual(["eyes"]);
    expect(step.summary).toContain("## ⏹️ Agent run #1 was cancelled");

    const failing = await startActionHarness({ emulator: { statusVocabulary: "deployment" } });
    try {
      failing.emulator.control.script({ outcome: "failed", finalStatus: "STOPPED" });
      const again = await failing.step({
        eventName: "issue_comment",
        payload: failing.humanComment(ISSUE, "/agent fix it").payload,
        inputs: {},
      });
      expect(again.exitCode).toBe(1);
      expect(again.result.failure).toBe(`Agent run 1 was stopped before it finished (status STOPPED): ${failing.emulator.url}/runs/1`);
    } finally {
      await failing.close();
    }
  });
});

describe("the timeout", () => {
  it("stops watching at timeout-minutes: the comment says the run keeps going, status is the last seen", async () => {
    h = await startActionHarness();
    // Ten hours emulated: queued for the first 72 s of real time, far beyond the step's deadline.
    h.emulator.control.script({ durationMs: 36_000_000 });
    const trigger = h.humanComment(ISSUE, "/agent a long task");
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      inputs: { "timeout-minutes": "0.005", "fail-on-error": "false" },
    });
    expect(step.exitCode).toBeUndefined();
    expect(step.outputs).toMatchObject({ "run-id": "1", status: "queued" });
    expect(h.emulator.control.runs()[0]!.status).toBe("queued");
    const [comment] = botComments(h);
    expect(comment!.body).toMatch(/### ⏳ Agent run \[#1\]\(.+\) is still running after/);
    expect(comment!.body).toContain("The bridge stopped watching it; follow it on [the run page]");
    expect(parseMarker(comment!.body)).toMatchObject({ state: "done", outcome: "watch_timed_out" });
    expect(step.summary).toContain("## ⏳ Agent run #1 is still running after");
  });
});

describe("many jobs, one token", () => {
  it("a 429 from the service waits (Retry-After) and continues: the step never fails for it", async () => {
    h = await startActionHarness();
    h.emulator.control.setFaults({ rateLimitStorm: { count: 3, retryAfterSeconds: 0 } });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(step.outputs.status).toBe("completed");
    expect(h.service.requests.filter((r) => r.status === 429)).toHaveLength(3);
    expect(h.service.creates()).toHaveLength(1);
  });
});

describe("429s that outlast the timeout", () => {
  it("end the watch like the timeout does, with the last status seen: never a failure of their own", async () => {
    h = await startActionHarness();
    h.emulator.control.script({ durationMs: 36_000_000 });
    // Once the run exists (the tracking comment gets its id), every request is refused without Retry-After
    // until well past the timeout; then the service answers again, as the step reads the trace for its result
    // (backing off a couple of seconds, not a whole window, after each 429).
    const stop = h.github.onWrite((write) => {
      if (write.kind === "comment_updated") {
        h.emulator.control.setFaults({ rateLimitStorm: { count: 10_000, retryAfterSeconds: null } });
        setTimeout(() => h.emulator.control.setFaults({}), 1_500);
        stop();
      }
    });
    const trigger = h.humanComment(ISSUE, "/agent a long task");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "timeout-minutes": "0.01" } });
    expect(step.outputs).toMatchObject({ "run-id": "1", status: "queued" });
    expect(step.result.outcome).toMatchObject({ kind: "run", watch: "timed_out" });
    expect(step.result.failure).toMatch(/^Agent run 1 is still queued after 0\.01 minute\(s\) \(timeout-minutes\); it keeps going/);
    expect(h.service.requests.some((r) => r.status === 429)).toBe(true);
    expect(botComments(h)[0]!.body).toMatch(/is still running after/);
  });
});

describe("the service refuses", () => {
  it("a rejected token: one comment saying what a maintainer must do (never the token), and the step fails", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "api-token": "wrong-token-value" } });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toMatch(/401/);
    const [comment] = botComments(h);
    expect(comment!.body).toMatch(
      /^<!-- agent-run-bridge:service_error \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->\n⚠️ \*\*The agent could not run: the Agent Run Service rejected the bridge's API token \(401\)\.\*\*/,
    );
    expect(comment!.body).not.toContain("wrong-token-value");
    expect(step.outputs["comment-id"]).toBe(String(comment!.id));
    expect(step.summary).toContain("## ⚠️ Agent run could not be completed");
  });
});

describe("a follow-up while the thread's run still works", () => {
  it("waits for that run (no queue outlives the step), then sends the follow-up as a resume", async () => {
    h = await startActionHarness();
    // 600 s emulated = 1.2 s real: still working when the step looks (even on a loaded machine), finished soon after.
    const workingId = await seedWorkingRun(h, 600_000, "long work");
    const trigger = h.humanComment(ISSUE, "/agent and then update the docs");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.resumes()).toEqual([{ agent_run_id: workingId, prompt: expect.stringContaining("and then update the docs") }]);
    // The resume went out only after the run was seen finished.
    const resumeAt = h.service.requests.findIndex((r) => r.path.endsWith("/agent/run/resume"));
    const polls = h.service.requests.slice(0, resumeAt).filter((r) => r.method === "GET" && r.path.endsWith(`/agent/run/${workingId}`));
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(step.outputs).toMatchObject({ "run-id": String(workingId), resumed: "true", status: "completed" });
    const tracking = h.github.writes.find((w) => w.kind === "comment_created");
    expect(tracking && "comment" in tracking ? tracking.comment.body : "").toContain(
      "📝 Your follow-up is queued: it will be sent when the run finishes.",
    );
  });
});

describe("a follow-up that waits past the timeout", () => {
  it("is not sent; the tracking comment says so, and the step fails", async () => {
    h = await startActionHarness();
    const workingId = await seedWorkingRun(h, 36_000_000, "very long work");
    const trigger = h.humanComment(ISSUE, "/agent and then the docs");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "timeout-minutes": "0.005" } });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toBe(
      `Run ${workingId} was still working at the timeout, so the follow-up was not sent; trigger the agent again once it has finished.`,
    );
    expect(h.service.resumes()).toEqual([]);
    const tracking = h.github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(step.outputs["comment-id"]))!;
    expect(tracking.body).toMatch(
      /^<!-- agent-run-bridge:service_error \{"v":2,"repo":"octo-org\/widgets","thread":\d+\} sig=[\w-]{43} -->\n⚠️ \*\*The agent could not run: the thread's run was still working/,
    );
  });
});

describe("unusable inputs", () => {
  it("an image file that is not there fails the step before anything is written or sent to the service", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "/agent look at this");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { images: "missing.png" } });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toBe(
      "Invalid input: `images`: cannot read missing.png: no such file (paths are relative to the workspace).",
    );
    // At most the head start's read of the configuration file (head-start.ts): the step may end before it is on the wire.
    const configRead = `GET /repos/${FULL_NAME}/contents/.github/agent-run.yml`;
    expect(h.github.requests.map((r) => `${r.method} ${r.path}`).filter((call) => call !== configRead)).toEqual([]);
    expect(h.service.requests).toEqual([]);
  });

  it("a blanked github-token fails with what to do, even with fail-on-error: false", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "/agent hi");
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      inputs: { "github-token": "", "fail-on-error": "false" },
    });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain("`github-token` is empty");
    expect(h.github.requests).toEqual([]);
  });
});

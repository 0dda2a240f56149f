/**
 * The Action with `follow-up: interrupt`: a follow-up while the thread's run works goes to the working
 * agent at once, on a service that takes it; on one that refuses, the step falls back to waiting for
 * the run (as `queue` does) and its tracking comment says why.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { AgentRunClient } from "../../../src/service/client.js";
import type { EmulatorOptions } from "../../../src/emulator/index.js";
import { seedWorkingRun, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

/** A run working on the thread, as an earlier step of the Action left it (its signed tracking comment's marker). */
async function threadWithWorkingRun(emulator: EmulatorOptions): Promise<number> {
  h = await startActionHarness({ emulator });
  // 600 s emulated = 1.2 s real: still working when the step looks, finished soon after.
  return seedWorkingRun(h, 600_000);
}

const stepComments = (harness: ActionHarness) =>
  harness.github.writes.flatMap((w) => (w.kind === "comment_created" || w.kind === "comment_updated" ? [w.comment.body] : []));

describe("follow-up: interrupt", () => {
  it("reaches the working agent at once: the run's log shows it, the step follows the run to its end without a second result", async () => {
    const runId = await threadWithWorkingRun({ resumeWhileRunning: "interrupt" });
    const trigger = h.humanComment(ISSUE, "/agent only the mobile version\nmore details below");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "follow-up": "interrupt" } });
    expect(step.result.failure).toBeNull();

    // Sent while the run worked: only the plan's one look at the run came before it, no wait for its end.
    const resumeAt = h.service.requests.findIndex((r) => r.path.endsWith("/agent/run/resume"));
    expect(h.service.requests[resumeAt]!.status).toBe(200);
    expect(h.service.requests.slice(0, resumeAt).filter((r) => r.method === "GET" && r.path.endsWith(`/agent/run/${runId}`))).toHaveLength(
      1,
    );
    expect(h.service.resumes()).toEqual([{ agent_run_id: runId, prompt: expect.stringContaining("only the mobile version") }]);
    const log = (await new AgentRunClient({ baseUrl: h.emulator.url, token: h.emulator.token, orgId: h.emulator.orgId }).listLogs(runId))
      .logs;
    expect(log.filter((e) => e.message_type === "USER_MESSAGE").map((e) => String(e.observation))).toEqual([
      expect.stringContaining("only the mobile version"),
    ]);

    const bodies = stepComments(h);
    expect(bodies.some((b) => b.includes("💬 Your follow-up reached the working agent:\n> only the mobile version"))).toBe(true);
    const final = bodies.at(-1)!;
    expect(final).toContain("💬 Your follow-up reached the agent while it worked:\n> only the mobile version");
    expect(final).toContain("The run's result is in its tracking comment in this thread.");
    expect(final).not.toContain("**Summary**");
    expect(parseMarker(final)).toMatchObject({ runId, state: "done", outcome: "succeeded" });
    expect(step.outputs).toMatchObject({ "run-id": String(runId), resumed: "true", status: "completed" });
    expect(
      h.github.writes.filter((w) => w.kind === "reaction_added").map((w) => w.kind === "reaction_added" && w.reaction.content),
    ).toEqual(["eyes", "rocket"]);
  });

  it("on a service that refuses, waits for the run and sends the follow-up then; the tracking comment says why", async () => {
    const runId = await threadWithWorkingRun({ resumeWhileRunning: "reject" });
    const trigger = h.humanComment(ISSUE, "/agent only the mobile version");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "follow-up": "interrupt" } });
    expect(step.result.failure).toBeNull();

    const resumeAttempts = h.service.requests.filter((r) => r.path.endsWith("/agent/run/resume")).map((r) => r.status);
    expect(resumeAttempts).toEqual([409, 200]);
    expect(h.service.resumes()).toEqual([{ agent_run_id: runId, prompt: expect.stringContaining("only the mobile version") }]);
    const queued = stepComments(h).find((b) => b.includes("📝 Your follow-up is queued"))!;
    expect(queued).toContain("does not take follow-ups while a run works: they are sent when it finishes.");
    expect(step.outputs).toMatchObject({ "run-id": String(runId), resumed: "true", status: "completed" });
  });

  it("rejects a follow-up input that is not a policy, naming the input", async () => {
    h = await startActionHarness();
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "follow-up": "later" } });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain("input `follow-up`: must be one of: queue, new, interrupt");
  });
});

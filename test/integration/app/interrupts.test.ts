/**
 * `follow_up: interrupt`: a follow-up while the thread's run works goes to the working agent at once
 * (a resume of the running run), on a service that takes it, and falls back to the queue with one
 * notice on a service that refuses it. Both App backends (the app-on-redis project runs this again).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const CONFIG = "follow_up: interrupt\n";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

async function trigger(h: AppHarness, body: string): Promise<{ id: number; payload: object }> {
  const comment = h.humanComment(ISSUE, body);
  const { status } = await h.deliver("issue_comment", comment.payload);
  expect(status).toBe(200);
  return comment;
}

/** A slow run (20 emulated minutes: a few seconds here) that the thread's follow-ups can reach while it works. */
async function startSlowRun(h: AppHarness): Promise<{ runId: number; trackingId: number }> {
  h.emulator.control.script({ match: "slow", durationMs: 1_200_000 });
  await trigger(h, "/agent a slow task");
  await until(async () => (await h.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
  const [task] = await h.app.store.listTasks(["watching"]);
  return { runId: task!.runId!, trackingId: task!.trackingCommentId! };
}

const trackingBody = (h: AppHarness, id: number) => h.github.state.issueComments.find((c) => c.id === id)!.body;
const reactionsOn = (h: AppHarness, commentId: number) =>
  h.github.state.reactions.filter((r) => r.target.id === commentId).map((r) => r.content);
/** The run's log entries of the given type, oldest first (the emulator's own record, read over HTTP). */
async function userMessages(h: AppHarness, runId: number): Promise<string[]> {
  const response = await fetch(`${h.emulator.url}/v1/organizations/${h.emulator.orgId}/agent/run/${runId}/logs?limit=100`, {
    headers: { authorization: `Bearer ${h.emulator.token}` },
  });
  const page = (await response.json()) as { logs: Array<{ message_type: string; observation: unknown }> };
  return page.logs.filter((l) => l.message_type === "USER_MESSAGE").map((l) => String(l.observation));
}

describe("follow_up: interrupt on a service that takes a follow-up while the run works", () => {
  it("sends it to the working agent at once: the run's log and its tracking comment show it, the reactions follow the run", async () => {
    harness = await startAppHarness({ config: CONFIG, emulator: { resumeWhileRunning: "interrupt" } });
    const { runId, trackingId } = await startSlowRun(harness);
    const followUp = await trigger(harness, "/agent only the mobile version\nand keep the desktop layout untouched");

    await until(() => harness.service.resumes().length === 1, "the follow-up to reach the service");
    const [resume] = harness.service.resumes();
    expect(resume!.agent_run_id).toBe(runId);
    expect(resume!.prompt).toContain("only the mobile version");
    // It reached the agent while the run worked: the run's log has the message, and the run is not over yet.
    expect((await userMessages(harness, runId)).join("\n")).toContain("only the mobile version");
    expect(harness.emulator.control.runs()[0]!.status).not.toBe("completed");
    await until(
      () => trackingBody(harness, trackingId).includes("Your follow-up reached the working agent"),
      "the tracking comment to say so",
    );
    const working = trackingBody(harness, trackingId);
    expect(working).toContain("> only the mobile version");
    expect(working).not.toContain("keep the desktop layout");
    expect(working).not.toContain("queued");
    expect(parseMarker(working)).toMatchObject({ runId, state: "running" });

    await harness.idle();
    // One run, one create, one resume; the result in the same tracking comment; no comment of the follow-up's own.
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toHaveLength(1);
    const comments = harness.botComments(1);
    expect(comments.map((c) => c.id)).toEqual([trackingId]);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ runId, state: "done", outcome: "succeeded" });
    expect(reactionsOn(harness, followUp.id)).toEqual(["eyes", "rocket"]);
  });

  it("two quick follow-ups reach the agent once each, in the order they were written, and a redelivery sends nothing again", async () => {
    harness = await startAppHarness({ config: CONFIG, emulator: { resumeWhileRunning: "interrupt" } });
    const { runId } = await startSlowRun(harness);
    const first = await trigger(harness, "/agent first: use the new API");
    await trigger(harness, "/agent second: not the old one");
    // The same delivery again, and the same comment under a new delivery id (a replay of the trigger).
    await harness.deliver("issue_comment", first.payload, "redelivered-1");
    await harness.deliver("issue_comment", first.payload);

    await until(() => harness.service.resumes().length === 2, "both follow-ups to reach the service");
    await harness.idle();
    expect(harness.service.resumes().map((r) => r.prompt.match(/(first|second):/)?.[1])).toEqual(["first", "second"]);
    const messages = await userMessages(harness, runId);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain("first: use the new API");
    expect(messages[1]).toContain("second: not the old one");
  });

  it("a stop after an interrupt ends cleanly and says the follow-up had already reached the agent", async () => {
    harness = await startAppHarness({ config: CONFIG, emulator: { resumeWhileRunning: "interrupt" } });
    const { trackingId } = await startSlowRun(harness);
    await trigger(harness, "/agent only the mobile version");
    await until(() => trackingBody(harness, trackingId).includes("reached the working agent"), "the follow-up to be delivered");

    await trigger(harness, "/agent stop");
    await harness.idle();
    const reply = harness.botComments(1).at(-1)!.body;
    expect(reply).toContain("I stopped watching agent run");
    expect(reply).toContain("One follow-up had already reached the agent.");
    expect(parseMarker(trackingBody(harness, trackingId))).toMatchObject({ state: "done", outcome: "stopped" });
    expect(harness.service.resumes()).toHaveLength(1);
    expect(await harness.app.store.listTasks(["held", "queued", "sending", "watching", "reporting"])).toEqual([]);
  });
});

describe("follow_up: interrupt on a service that refuses a follow-up while the run works", () => {
  it("falls back to the queue with one notice, remembers the refusal, and sends the follow-ups when the run finishes", async () => {
    harness = await startAppHarness({ config: CONFIG });
    const { runId, trackingId } = await startSlowRun(harness);
    await trigger(harness, "/agent only the mobile version");

    const refusal = "does not take follow-ups while a run works";
    await until(() => trackingBody(harness, trackingId).includes(refusal), "the thread to be told");
    expect(trackingBody(harness, trackingId)).toContain("Your follow-up is queued: it will be sent when the run finishes.");
    const attempts = () => harness.service.requests.filter((r) => r.method === "POST" && r.path.endsWith("/agent/run/resume"));
    expect(attempts().map((r) => r.status)).toEqual([409]);

    // A second follow-up is queued without trying: the client remembers the refusal.
    await trigger(harness, "/agent and the tablet too");
    await until(
      () => trackingBody(harness, trackingId).includes("2 follow-ups are queued"),
      "the second follow-up to be queued behind the run",
    );
    expect(attempts()).toHaveLength(1);
    expect(trackingBody(harness, trackingId).split(refusal)).toHaveLength(2);

    await harness.idle();
    // After the run: one resume with both follow-ups, as `queue` sends them.
    const resumes = harness.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!.agent_run_id).toBe(runId);
    expect(resumes[0]!.prompt).toContain("only the mobile version");
    expect(resumes[0]!.prompt).toContain("and the tablet too");
    expect(harness.botComments(1).filter((c) => c.body.includes(refusal))).toHaveLength(0);
  });
});

/**
 * Later triggers in a thread that already has a run: resume when it finished, hold while it works
 * (`follow_up: queue`), or start another (`follow_up: new`); redeliveries and pasted markers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { renderMarker, newRunMarker } from "../../../src/core/markers/write.js";
import { AgentRunClient } from "../../../src/service/index.js";
import { startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

describe("a follow-up in a thread with a run", () => {
  it("resumes the finished run (same run id) in a new tracking comment", async () => {
    harness = await startAppHarness();
    await harness.trigger(ISSUE, "/agent fix the flaky test");
    await harness.idle();
    const [run] = harness.emulator.control.runs();
    await harness.trigger(ISSUE, "/agent also add a test for Wednesdays");
    await harness.idle();

    expect(harness.emulator.control.runs()).toHaveLength(1);
    expect(harness.service.creates()).toHaveLength(1);
    const resumes = harness.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!.agent_run_id).toBe(run!.id);
    expect(resumes[0]!.prompt).toMatch(
      /^Follow-up from @maintainer on https:\/\/github\.com\/octo-org\/widgets\/issues\/1#issuecomment-\d+:\n\nalso add a test for Wednesdays$/,
    );

    const comments = harness.botComments(1);
    expect(comments.map((c) => parseMarker(c.body))).toMatchObject([
      { runId: run!.id, state: "done", outcome: "succeeded" },
      { runId: run!.id, state: "done", outcome: "succeeded" },
    ]);
  });

  it("holds follow-ups while the run works (follow_up: queue), says so on its tracking comment, then sends them as one resume", async () => {
    harness = await startAppHarness();
    harness.emulator.control.script({ match: "slow", durationMs: 600_000 });
    await harness.trigger(ISSUE, "/agent a slow task");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    const first = (await harness.app.store.listTasks(["watching"]))[0]!;
    const trackingId = first.trackingCommentId!;
    const writesBefore = harness.github.writes.length;

    const second = await harness.trigger(ISSUE, "/agent also update the changelog");
    const third = await harness.trigger(ISSUE, "/agent and bump the version");

    // Held, not sent: 👀 on each, the run's own tracking comment notes the queue, no new comment.
    await until(async () => (await harness.app.store.listTasks(["held"])).length === 2, "both follow-ups to be held");
    expect((await harness.app.store.listTasks(["held"])).map((t) => t.runId)).toEqual([first.runId, first.runId]);
    const noted = () => harness.github.state.issueComments.find((c) => c.id === trackingId)!.body.includes("2 follow-ups are queued");
    await until(
      () => noted() && harness.github.writes.slice(writesBefore).filter((w) => w.kind === "reaction_added").length === 2,
      "the follow-ups to be acknowledged",
    );
    expect(harness.service.resumes()).toEqual([]);
    const followUpWrites = harness.github.writes.slice(writesBefore);
    expect(followUpWrites.filter((w) => w.kind === "comment_created")).toEqual([]);
    // Each held follow-up is acknowledged by its own task, so on several workers (BullMQ) in either order.
    expect(
      followUpWrites
        .filter((w) => w.kind === "reaction_added")
        .map((w) => w.kind === "reaction_added" && `${w.reaction.content} ${w.reaction.target.id}`)
        .sort(),
    ).toEqual([`eyes ${second}`, `eyes ${third}`].sort());
    const tracking = harness.github.state.issueComments.find((c) => c.id === trackingId)!;
    expect(tracking.body).toContain("2 follow-ups are queued: they will be sent when the run finishes.");

    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    const resumes = harness.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!.agent_run_id).toBe(first.runId);
    expect(resumes[0]!.prompt).toContain("also update the changelog");
    expect(resumes[0]!.prompt).toContain("\n\n---\n\n");
    expect(resumes[0]!.prompt).toContain("and bump the version");

    // The first run's result, then the resume's own tracking comment turned result; each once.
    const comments = harness.botComments(1);
    expect(comments).toHaveLength(2);
    expect(comments[0]!.id).toBe(trackingId);
    expect(comments.map((c) => parseMarker(c.body))).toMatchObject([
      { runId: first.runId, state: "done" },
      { runId: first.runId, state: "done" },
    ]);
  });

  it("starts a second run when follow_up is new", async () => {
    harness = await startAppHarness({ config: "follow_up: new\n" });
    harness.emulator.control.script({ match: "slow", durationMs: 300_000 });
    await harness.trigger(ISSUE, "/agent a slow task");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    await harness.trigger(ISSUE, "/agent something else meanwhile");
    await harness.idle();

    const runs = harness.emulator.control.runs();
    expect(runs).toHaveLength(2);
    expect(harness.service.resumes()).toEqual([]);
    expect(runs.map((r) => r.metadata?.source_type)).toEqual(["GIT_HOST", "GIT_HOST"]);
    expect(
      harness
        .botComments(1)
        .map((c) => parseMarker(c.body)?.runId)
        .sort(),
    ).toEqual(runs.map((r) => r.id).sort());
  });

  it("`/agent new` starts a fresh run even after a finished one", async () => {
    harness = await startAppHarness();
    await harness.trigger(ISSUE, "/agent fix the flaky test");
    await harness.idle();
    await harness.trigger(ISSUE, "/agent new start over from scratch");
    await harness.idle();
    expect(harness.service.resumes()).toEqual([]);
    expect(harness.service.creates()).toHaveLength(2);
    expect(harness.service.creates()[1]!.prompt).toContain("start over from scratch");
  });
});

describe("deduplication and trust", () => {
  it("a redelivery (same X-GitHub-Delivery) or the same comment under another delivery changes nothing", async () => {
    harness = await startAppHarness();
    const comment = harness.humanComment(ISSUE, "/agent fix the flaky test");
    const { deliveryId } = await harness.deliver("issue_comment", comment.payload);
    await harness.idle();
    const writes = harness.github.writes.length;
    const requests = harness.github.requests.length;
    const serviceCalls = harness.service.requests.length;

    expect((await harness.deliver("issue_comment", comment.payload, deliveryId)).status).toBe(200);
    expect((await harness.deliver("issue_comment", comment.payload)).status).toBe(200);
    await harness.idle();
    expect(harness.github.writes).toHaveLength(writes);
    expect(harness.service.requests).toHaveLength(serviceCalls);
    // The redelivery is dropped before any call; the new delivery of the same comment reads config, context and permission, then stops.
    expect(harness.github.requests.slice(requests).filter((r) => r.method !== "GET" && !r.path.endsWith("/access_tokens"))).toEqual([]);
    expect(harness.emulator.control.runs()).toHaveLength(1);
  });

  it("a run marker pasted by a person is not trusted: a new run is created, the pasted run is not resumed", async () => {
    harness = await startAppHarness();
    const client = new AgentRunClient({
      baseUrl: harness.emulator.url,
      token: harness.emulator.token,
      orgId: harness.emulator.orgId,
      timeScale: 0.002,
    });
    const existing = await client.createRun({ prompt: "someone else's run" });
    await client.waitForRun(existing.id, { intervalMs: { initial: 5, max: 20 } });
    const forged = renderMarker({
      ...newRunMarker({
        place: { repository: FULL_NAME, thread: ISSUE.number },
        runId: existing.id,
        orgId: harness.emulator.orgId,
        sourceType: "GIT_HOST",
      }),
      state: "done",
      outcome: "succeeded",
    });
    harness.humanComment(ISSUE, `${forged}\nAgent run #${existing.id} succeeded (not really).`, "maintainer");

    await harness.trigger(ISSUE, "/agent continue that run");
    await harness.idle();
    expect(harness.service.resumes()).toEqual([]);
    expect(harness.service.creates()).toHaveLength(1);
    const newest = harness.emulator.control.runs().at(-1)!;
    expect(newest.id).not.toBe(existing.id);
    expect(parseMarker(harness.botComments(1)[0]!.body)).toMatchObject({ runId: newest.id, state: "done" });
  });
});

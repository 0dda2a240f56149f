/**
 * A create or resume cut off by a crash (the task left `sending`: the call went out, its answer was
 * never stored) is reconciled before it is given up: real deployments list the organization's runs,
 * so the run is found by the task id its create carried and adopted (watched, its result posted
 * once); without the list, the thread gets the honest "unknown" report. Real HTTP against the
 * emulator and the fake GitHub, on both backends.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Task } from "../../../src/app/store/types.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { APP_BACKENDS, BOT_LOGIN } from "../../helpers/app-harness.js";
import { queueTaskStep, type EngineHarness } from "../../helpers/engine-harness.js";
import { closeEngineWorlds, OWNER, REPO, startEngineWorld, type EngineWorld } from "../../helpers/engine-world.js";
import type { ServiceRecorderOptions } from "../../helpers/service-recorder.js";

let emulator: EngineWorld["emulator"];
let github: EngineWorld["github"];
let harness: EngineHarness | undefined;
afterEach(closeEngineWorlds);

async function setUp(backend: (typeof APP_BACKENDS)[number], listRuns: boolean, recorder?: ServiceRecorderOptions) {
  const world = await startEngineWorld(backend, {
    ...(recorder ? { recorder } : {}),
    emulator: { defaultScript: { durationMs: 20_000, logSteps: 6 }, endpoints: { listRuns } },
    seed: { issues: [{ number: 1, title: "Flaky", body: "", user: "maintainer" }] },
  });
  ({ emulator, github, harness } = world);
  const thread = { installationId: 1, owner: OWNER, repo: REPO, issueNumber: 1, triggerPhrase: "/agent" };
  const tracking = await world.postAsBot(thread, "tracking…");
  return { client: world.client, thread, tracking };
}

/** A task as a process leaves it when killed after sending its create and before storing the answer. */
async function interruptedCreate(h: EngineHarness, thread: Task["thread"], tracking: number, sentAt: number): Promise<Task> {
  const task = await h.store.insertTask({
    kind: "create",
    state: "queued",
    sourceType: "GIT_HOST",
    thread,
    runId: null,
    orgId: emulator.orgId,
    trackingCommentId: tracking,
    reaction: null,
    request: { prompt: "fix the flaky test", metadata: { source_type: "GIT_HOST", delivery_id: "d-1", bridge_task_id: "" } },
    requestedBy: "maintainer",
    deadlineAt: Date.now() + 3_600_000,
  });
  const metadata = { source_type: "GIT_HOST", delivery_id: "d-1", bridge_task_id: `task-${task.id}` };
  return h.store.updateTask(task.id, {
    state: "sending",
    sentAt,
    acknowledgedAt: sentAt,
    request: { prompt: "fix the flaky test", metadata },
  });
}

/**
 * Steps the task once more: nothing is sent, the task is given up, and its tracking comment says the run may have
 * started (never "could not run"); returns what the comment says.
 */
async function givenUpUnknown(taskId: number, tracking: number): Promise<string> {
  await queueTaskStep(harness!.queue, taskId);
  await harness!.idle();
  expect(emulator.control.runs()).toEqual([]);
  expect(await harness!.store.getTask(taskId)).toMatchObject({ state: "abandoned" });
  const body = github.state.issueComments.find((c) => c.id === tracking)!.body;
  expect(body).toContain("**The agent run may have started.**");
  expect(body).not.toContain("could not run");
  return body;
}

describe.each(APP_BACKENDS)("after a crash mid-call (%s)", (backend) => {
  it("a create that reached the service is found in the runs list and adopted: watched, its result posted once, never created twice", async () => {
    const { client, thread, tracking } = await setUp(backend, true);
    const sentAt = Date.now();
    const task = await interruptedCreate(harness!, thread, tracking, sentAt);
    // What the killed process had sent, as the service received it (another run of someone else's beside it).
    await client.createRun({ prompt: "someone else's", metadata: { source_type: "API" } });
    const run = await client.createRun({ prompt: "fix the flaky test", metadata: { ...(task.request.metadata as object) } });
    await client.createRun({ prompt: "later, someone else's", metadata: { source_type: "API" } });

    await queueTaskStep(harness!.queue, task.id);
    await harness!.idle();
    expect(emulator.control.runs()).toHaveLength(3);
    const done = await harness!.store.getTask(task.id);
    expect(done).toMatchObject({ state: "done", runId: run.id });
    const comments = github.commentsOn(`${OWNER}/${REPO}`, 1).filter((c) => c.user.login === BOT_LOGIN);
    expect(comments).toHaveLength(1);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ runId: run.id, state: "done", outcome: "succeeded" });
  });

  it("a create the service never received (certainly absent from the list) is sent again, once", async () => {
    const { thread, tracking } = await setUp(backend, true);
    const task = await interruptedCreate(harness!, thread, tracking, Date.now());
    await queueTaskStep(harness!.queue, task.id);
    await harness!.idle();
    const runs = emulator.control.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.metadata).toMatchObject({ bridge_task_id: `task-${task.id}`, delivery_id: "d-1" });
    expect(await harness!.store.getTask(task.id)).toMatchObject({ state: "done", runId: runs[0]!.id });
  });

  it("a lost answer whose runs list keeps failing: after the step's retries the thread says the run may have started, never 'could not run'", async () => {
    const listFails: ServiceRecorderOptions = {
      loseAnswer: ({ method, path }) => (method === "GET" && path.endsWith("/agent/runs") ? { forward: false, answer: 503 } : null),
    };
    const { thread, tracking } = await setUp(backend, true, listFails);
    const sending = await interruptedCreate(harness!, thread, tracking, Date.now());
    // What the send step leaves after a proxy's 504 (sending.ts): the task stays `sending`, noting the lost answer.
    const task = await harness!.store.updateTask(sending.id, { error: "answer lost 1: a 504 came back instead of the run" });

    const body = await givenUpUnknown(task.id, tracking);
    expect(body).toContain(
      "but a 504 came back instead of the run, and the bridge could not check whether a run was made: the service's list of runs could not be read either.",
    );
  });

  it("without a runs list, the thread is told honestly that the run may have started, and nothing is sent", async () => {
    const { thread, tracking } = await setUp(backend, false);
    const task = await interruptedCreate(harness!, thread, tracking, Date.now());
    const body = await givenUpUnknown(task.id, tracking);
    expect(body).toContain("the service does not list runs");
  });
});

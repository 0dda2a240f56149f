/**
 * The Action's create when its answer is lost: a proxy in front of the emulator passes the create
 * on (the service makes the run) and then answers 504, or drops the connection. The step never
 * sends a second create and never says the agent could not run: it finds the run in the runs list
 * by the id its create carried, watches it and writes its result once; where the service cannot
 * list runs, the tracking comment says the run may have started, where to look and how to go on.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { ACTIONS_BOT, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { losingCreates, type LostAnswer } from "../../helpers/service-recorder.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const botComments = (harness: ActionHarness) => harness.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);

/** Every version of every comment the step wrote. */
function everyBody(harness: ActionHarness): string[] {
  return harness.github.writes.flatMap((w) =>
    w.kind === "comment_created" ? [w.comment.body] : w.kind === "comment_updated" ? [w.previousBody, w.comment.body] : [],
  );
}

describe("an Action create whose answer is lost", () => {
  for (const lost of [
    { forward: true, answer: 504 },
    { forward: true, answer: "reset" },
  ] satisfies LostAnswer[]) {
    it(`${lost.answer} after the service made the run: the step adopts it and writes its result once`, async () => {
      h = await startActionHarness({ serviceProxy: losingCreates(lost) });
      const trigger = h.humanComment(ISSUE, "/agent fix it");
      const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });

      expect(h.service.lostAnswers).toMatchObject([{ forwarded: true, status: 200, answer: lost.answer }]);
      const runs = h.emulator.control.runs();
      expect(runs).toHaveLength(1);
      expect(h.emulator.control.stats().byRoute.createRun).toBe(1);
      expect(runs[0]!.metadata).toMatchObject({ bridge_task_id: expect.stringMatching(/^action-[0-9a-f-]{36}$/) });
      expect(step.exitCode).toBeUndefined();
      expect(step.outputs).toMatchObject({ "run-id": String(runs[0]!.id), status: "completed" });
      const comments = botComments(h);
      expect(comments).toHaveLength(1);
      expect(parseMarker(comments[0]!.body)).toMatchObject({ runId: runs[0]!.id, state: "done", outcome: "succeeded" });
      // The result was written once: no write replaced it.
      expect(h.github.writes.filter((w) => w.kind === "comment_updated" && parseMarker(w.previousBody)?.state === "done")).toEqual([]);
      for (const body of everyBody(h)) expect(body).not.toContain("could not run");
    });
  }

  it("without the runs list: the comment says the run may have started, where to look and how to go on; one create", async () => {
    h = await startActionHarness({
      emulator: { endpoints: { listRuns: false } },
      serviceProxy: losingCreates({ forward: true, answer: 504 }),
    });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });

    const runs = h.emulator.control.runs();
    expect(runs).toHaveLength(1);
    expect(h.emulator.control.stats().byRoute.createRun).toBe(1);
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain("The agent run may have started");
    const comments = botComments(h);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain("**The agent run may have started.**");
    expect(body).toContain("a 504 came back instead of the run");
    expect(body).toContain("the service does not list runs");
    expect(body).toContain(`\`bridge_task_id\` = \`${String(runs[0]!.metadata!.bridge_task_id)}\``);
    expect(body).toContain("reply `/agent <what to do>` to try again");
    for (const written of everyBody(h)) expect(written).not.toContain("could not run");
  });

  it("without the runs list, with `runs-url`: the comment links the service's page of runs as where to look", async () => {
    h = await startActionHarness({
      emulator: { endpoints: { listRuns: false } },
      serviceProxy: losingCreates({ forward: true, answer: 504 }),
    });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const runsUrl = "https://agents.example.com/runs";
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "runs-url": runsUrl } });

    expect(step.exitCode).toBe(1);
    expect(h.emulator.control.stats().byRoute.createRun).toBe(1);
    const [comment] = botComments(h);
    expect(comment!.body).toContain("**The agent run may have started.**");
    expect(comment!.body).toContain(`- Look through [the Agent Run Service's runs](${runsUrl}) of organization`);
  });

  it("a `runs-url` that is not https (javascript:): refused before anything is sent", async () => {
    h = await startActionHarness({ emulator: { endpoints: { listRuns: false } } });
    const trigger = h.humanComment(ISSUE, "/agent fix it");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "runs-url": "javascript:alert(1)" } });

    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain("`runs-url` must be an https:// URL");
    expect(h.emulator.control.stats().byRoute.createRun ?? 0).toBe(0);
  });
});

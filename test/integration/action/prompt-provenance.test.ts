/**
 * The provenance rule in the Action (the step run as a runner does, against the fake GitHub and the
 * emulator, whose create body holds the prompt): what a failed workflow printed (its name, the jobs'
 * names, the failed steps, the log) is fenced material labelled as CI output; a quote in the trigger
 * comment is material; the workflow's own `prompt` input is the request.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  failedCiPayload,
  startActionHarness,
  withFailingCi,
  workflowDispatchPayload,
  type ActionHarness,
} from "../../helpers/action-runner.js";
import { hostile, onlyAsMaterial, placesOf } from "../../helpers/prompt-material.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const promptOf = (harness: ActionHarness) => {
  expect(harness.service.creates()).toHaveLength(1);
  return String(harness.service.creates()[0]!.prompt);
};

describe("the Action's prompts", () => {
  it("a failed workflow's name, job name, failed steps and log are CI output, fenced", async () => {
    const seed = withFailingCi();
    const job = seed.workflowRuns![0]!.jobs![0]!;
    job.name = hostile("JOBNAME");
    job.steps = [{ name: hostile("STEPNAME"), conclusion: "failure" }];
    job.log = `${hostile("LOGLINE")}\n`;
    h = await startActionHarness({ seed });
    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ name: hostile("WORKFLOWNAME") }), inputs: {} });
    expect(step.result.failure).toBeNull();
    const prompt = promptOf(h);
    expect(onlyAsMaterial(prompt, "WORKFLOWNAME", "workflow name")).toBe(true);
    expect(onlyAsMaterial(prompt, "JOBNAME", "job name")).toBe(true);
    expect(onlyAsMaterial(prompt, "STEPNAME", "failed step names")).toBe(true);
    expect(onlyAsMaterial(prompt, "LOGLINE", "job log")).toBe(true);
  });

  it("a quote in the trigger comment is material, the rest is the request", async () => {
    h = await startActionHarness();
    const body = `/agent fix the flaky test, not this:\n\n> ${hostile("QUOTED")}`;
    const step = await h.step({ eventName: "issue_comment", payload: h.humanComment({ number: 1 }, body).payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    const prompt = promptOf(h);
    expect(onlyAsMaterial(prompt, "QUOTED", "quoted in the trigger comment")).toBe(true);
    expect(placesOf(prompt, "fix the flaky test, not this:")).toEqual([{ fenced: false, label: null }]);
  });

  it("a workflow's own `prompt` input is the request, bare", async () => {
    h = await startActionHarness();
    const step = await h.step({
      eventName: "workflow_dispatch",
      payload: workflowDispatchPayload(),
      inputs: { prompt: "Update the changelog" },
    });
    expect(step.result.failure).toBeNull();
    expect(placesOf(promptOf(h), "Update the changelog")).toEqual([{ fenced: false, label: null }]);
  });
});

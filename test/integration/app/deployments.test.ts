/**
 * The App against the service as real deployments run it: the logs only under `/v1/alpha/`, and
 * runs that someone stops. Signed deliveries through Probot, the fake GitHub, the emulator.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

const logsRequests = (h: AppHarness) => {
  const paths = h.service.requests.map((r) => r.path.split("?")[0]!);
  return {
    spec: paths.filter((p) => /^\/v1\/organizations\/\d+\/agent\/run\/\d+\/logs$/.test(p)).length,
    alpha: paths.filter((p) => p.startsWith("/v1/alpha/")).length,
  };
};

describe("the logs endpoint only under /v1/alpha/", () => {
  it("is found by itself: the result carries the whole trace, not a getRun-only watch", async () => {
    harness = await startAppHarness({ emulator: { endpoints: { logs: ["alpha"] }, defaultScript: { logSteps: 9 } } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    const [result] = harness.botComments(1);
    expect(result!.body).toContain("<summary>Trace: 9 log entries</summary>");
    const counts = logsRequests(harness);
    expect(counts.spec).toBe(1);
    expect(counts.alpha).toBeGreaterThan(0);
  });

  it("AGENT_RUN_LOGS_PATH=alpha goes there from the first poll", async () => {
    harness = await startAppHarness({
      env: { AGENT_RUN_LOGS_PATH: "alpha" },
      emulator: { endpoints: { logs: ["alpha"] }, defaultScript: { logSteps: 4 } },
    });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    expect(harness.botComments(1)[0]!.body).toContain("<summary>Trace: 4 log entries</summary>");
    expect(logsRequests(harness).spec).toBe(0);
  });
});

describe("a run someone stops", () => {
  it.each(["STOPPED", "CANCELLED"])("%s ends the watch at once and is reported as stopped, with neither 🚀 nor 😕", async (finalStatus) => {
    harness = await startAppHarness({ emulator: { statusVocabulary: "deployment" } });
    harness.emulator.control.script({ outcome: "failed", finalStatus });
    const trigger = harness.humanComment(ISSUE, "/agent fix it");
    await harness.deliver("issue_comment", trigger.payload);
    await harness.idle();
    const [result] = harness.botComments(1);
    expect(result!.body).toContain(finalStatus === "STOPPED" ? "was stopped" : "was cancelled");
    expect(result!.body).not.toContain("❌");
    expect(parseMarker(result!.body)).toMatchObject({ state: "done", outcome: "stopped" });
    expect(harness.github.state.reactions.map((r) => r.content)).toEqual(["eyes"]);
  });
});

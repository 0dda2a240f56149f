/**
 * A resume of a run that is still working, with `resumeWhileRunning: "interrupt"`: the message is a
 * USER_MESSAGE entry in the run's log, the run keeps working and finishes later, shaped by it. Over HTTP.
 */
import { describe, expect, it } from "vitest";
import { call, createRun, emulator, finishAllRuns, getRun, resumeRun, runLogs } from "./helpers.js";
import type { AgentRunWithLogs } from "../../src/service/wire.js";

describe("resumeWhileRunning: interrupt", () => {
  it("takes a message to a working run: a USER_MESSAGE entry at once, the run still working, its pull request opened at the end", async () => {
    const emu = await emulator({ resumeWhileRunning: "interrupt", defaultScript: { durationMs: 60_000, logSteps: 8 } });
    const run = await createRun(emu, { prompt: "redesign the settings page" });
    emu.control.advanceTime(30_000);
    const before = (await runLogs(emu, run.body.id)).body as AgentRunWithLogs;

    const answer = await resumeRun(emu, run.body.id, "only the mobile version");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: run.body.id, status: "running" });
    const after = (await runLogs(emu, run.body.id)).body as AgentRunWithLogs;
    // What the run had shown stays; the message follows at once.
    expect(after.logs.slice(0, before.logs.length)).toEqual(before.logs);
    expect(after.logs.at(-1)).toMatchObject({ message_type: "USER_MESSAGE", observation: "only the mobile version" });

    emu.control.advanceTime(5_000);
    expect((await getRun(emu, run.body.id)).body.status).toBe("running");
    finishAllRuns(emu);
    const done = (await getRun(emu, run.body.id)).body;
    expect(done.status).toBe("completed");
    expect(done.git_host_pull_requests).toHaveLength(1);
    expect(done.summary).toContain("On the way, as asked: only the mobile version");
    const logs = ((await runLogs(emu, run.body.id)).body as AgentRunWithLogs).logs;
    expect(logs.filter((l) => l.message_type === "USER_MESSAGE")).toHaveLength(1);
    expect(logs.at(-1)!.message_type).toBe("FINAL_ANSWER");
    expect(emu.control.stats().runsResumed).toBe(1);
  });

  it("control.logs reads a run's log as its endpoint answers it, without counting a request (the demo checks an interrupt with it)", async () => {
    const emu = await emulator({ resumeWhileRunning: "interrupt", defaultScript: { durationMs: 60_000, logSteps: 8 } });
    const run = await createRun(emu, { prompt: "redesign the settings page" });
    emu.control.advanceTime(30_000);
    await resumeRun(emu, run.body.id, "only the mobile version");
    const requests = emu.control.stats().requests;

    const read = emu.control.logs(run.body.id);
    expect(emu.control.stats().requests).toBe(requests);
    expect(read.at(-1)).toMatchObject({ message_type: "USER_MESSAGE", observation: "only the mobile version" });
    expect(read).toEqual(((await runLogs(emu, run.body.id)).body as AgentRunWithLogs).logs);
    expect(emu.control.logs(run.body.id + 1)).toEqual([]);
  });

  it("a script that matches the message shapes the rest of the run (here: it fails)", async () => {
    const emu = await emulator({ resumeWhileRunning: "interrupt", defaultScript: { durationMs: 60_000 } });
    const run = await createRun(emu, { prompt: "redesign the settings page" });
    emu.control.advanceTime(10_000);
    emu.control.script({ match: "drop the database", outcome: "failed", errorMessage: "Refused: that would lose data." });
    expect((await resumeRun(emu, run.body.id, "also drop the database")).status).toBe(200);
    finishAllRuns(emu);
    const done = (await getRun(emu, run.body.id)).body;
    expect(done.status).toBe("failed");
    expect(done.result).toBe("Refused: that would lose data.");
  });

  it("is switched over HTTP: reject answers 409 again, and a bad mode is a 400 naming the field", async () => {
    const emu = await emulator({ resumeWhileRunning: "interrupt" });
    const run = await createRun(emu, { prompt: "long task" });
    expect((await resumeRun(emu, run.body.id, "first")).status).toBe(200);
    expect((await call(emu, "POST", "/_emulator/resume-while-running", { body: { mode: "reject" } })).body).toEqual({
      ok: true,
      mode: "reject",
    });
    expect((await resumeRun(emu, run.body.id, "second")).status).toBe(409);
    const bad = await call(emu, "POST", "/_emulator/resume-while-running", { body: { mode: "later" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("resumeWhileRunning must be interrupt or reject");
  });
});

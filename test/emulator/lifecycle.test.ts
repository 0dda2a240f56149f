import { describe, expect, it } from "vitest";
import { classifyRunStatus } from "../../src/service/status.js";
import { createRun, emulator, finishAllRuns, getRun, resumeRun, runLogs, sleep } from "./helpers.js";

describe("lifecycle over emulated time", () => {
  it("spec vocabulary: queued → running → completed, logs appear progressively", async () => {
    // Real time (scale 1) and explicit jumps of emulated time; the run is long enough that the
    // real time the requests take (milliseconds) cannot move it noticeably.
    const emu = await emulator({ defaultScript: { durationMs: 1_000_000, logSteps: 100 } });
    const run = (await createRun(emu, { prompt: "Add retries to the HTTP client" })).body;
    expect(run.status).toBe("queued");
    expect((await runLogs(emu, run.id)).body.total_logs).toBe(0);

    emu.control.advanceTime(100_000); // the first 10% is queued
    expect((await getRun(emu, run.id)).body.status).toBe("running");

    emu.control.advanceTime(450_000); // 55% of the duration
    const midway = (await runLogs(emu, run.id)).body;
    expect(midway.status).toBe("running");
    expect(midway.total_logs).toBeGreaterThanOrEqual(45);
    expect(midway.total_logs).toBeLessThanOrEqual(55);
    const midRun = (await getRun(emu, run.id)).body;
    expect(midRun).toMatchObject({ result: null, summary: null, git_host_pull_requests: [] });

    emu.control.advanceTime(440_000); // 99%: the final answer is not there yet
    const almost = (await runLogs(emu, run.id)).body;
    expect(almost.status).toBe("running");
    expect(almost.total_logs).toBeLessThan(100);
    expect(almost.logs.some((e) => e.message_type === "FINAL_ANSWER")).toBe(false);

    emu.control.advanceTime(10_000);
    const done = (await getRun(emu, run.id)).body;
    expect(done.status).toBe("completed");
    expect(done.git_host_pull_requests).toHaveLength(1);
    expect((await runLogs(emu, run.id)).body.total_logs).toBe(100);
  });

  it("deployment vocabulary: PENDING → ACTIVE → COMPLETE, and FAILED", async () => {
    const emu = await emulator({ statusVocabulary: "deployment", defaultScript: { durationMs: 10_000 } });
    const ok = (await createRun(emu, { prompt: "works" })).body;
    emu.control.script({ match: "breaks", outcome: "failed" });
    const broken = (await createRun(emu, { prompt: "this breaks" })).body;
    expect([ok.status, broken.status]).toEqual(["PENDING", "PENDING"]);
    emu.control.advanceTime(2_000);
    expect((await getRun(emu, ok.id)).body.status).toBe("ACTIVE");
    finishAllRuns(emu);
    expect((await getRun(emu, ok.id)).body.status).toBe("COMPLETE");
    expect((await getRun(emu, broken.id)).body.status).toBe("FAILED");
    expect(classifyRunStatus("PENDING")).toBe("in_progress");
    expect(classifyRunStatus("COMPLETE")).toBe("succeeded");
    await resumeRun(emu, ok.id, "more");
    expect((await getRun(emu, ok.id)).body.status).toBe("ACTIVE");
  });

  it("every status of both vocabularies is one the client classifies", async () => {
    const { STATUS_WORDS } = await import("../../src/emulator/index.js");
    for (const words of Object.values(STATUS_WORDS)) {
      expect(classifyRunStatus(words.queued)).toBe("in_progress");
      expect(classifyRunStatus(words.running)).toBe("in_progress");
      expect(classifyRunStatus(words.completed)).toBe("succeeded");
      expect(classifyRunStatus(words.failed)).toBe("failed");
    }
  });

  it("a failed run: result holds the error, no pull requests, summary as scripted", async () => {
    const emu = await emulator();
    emu.control.script({ outcome: "failed", errorMessage: "out of disk", summary: "gave up" });
    const run = (await createRun(emu, { prompt: "fill the disk" })).body;
    finishAllRuns(emu);
    expect((await getRun(emu, run.id)).body).toMatchObject({
      status: "failed",
      result: "out of disk",
      summary: "gave up",
      git_host_pull_requests: [],
    });
  });

  it("finalStatus overrides the status string exactly", async () => {
    const emu = await emulator({ statusVocabulary: "deployment" });
    emu.control.script({ match: "slow", outcome: "failed", finalStatus: "TIMEOUT" });
    emu.control.script({ match: "loop", outcome: "failed", finalStatus: "MAX_ITERATIONS_REACHED" });
    const slow = (await createRun(emu, { prompt: "a slow one" })).body;
    const loop = (await createRun(emu, { prompt: "loop forever" })).body;
    expect(slow.status).toBe("PENDING");
    finishAllRuns(emu);
    expect((await getRun(emu, slow.id)).body.status).toBe("TIMEOUT");
    expect((await runLogs(emu, loop.id)).body.status).toBe("MAX_ITERATIONS_REACHED");
  });

  it("scripts: match applies to every matching run; without match, to the next run only", async () => {
    const emu = await emulator({ rateLimits: false });
    emu.control.script({ match: "[fail]", outcome: "failed" });
    emu.control.script({ pullRequests: 3, logSteps: 20 });
    const next = (await createRun(emu, { prompt: "ordinary" })).body;
    const after = (await createRun(emu, { prompt: "ordinary again" })).body;
    const failing = [(await createRun(emu, { prompt: "one [fail]" })).body, (await createRun(emu, { prompt: "two [fail]" })).body];
    const limited = { match: "twice", times: 2, logSteps: 3 };
    emu.control.script(limited);
    const twice = [1, 2, 3].map(() => createRun(emu, { prompt: "do it twice" }));
    const twiceRuns = (await Promise.all(twice)).map((a) => a.body);
    finishAllRuns(emu);
    expect((await getRun(emu, next.id)).body.git_host_pull_requests).toHaveLength(3);
    expect((await runLogs(emu, next.id)).body.total_logs).toBe(20);
    expect((await getRun(emu, after.id)).body.git_host_pull_requests).toHaveLength(1);
    for (const f of failing) expect((await getRun(emu, f.id)).body.status).toBe("failed");
    const totals = await Promise.all(twiceRuns.map(async (r) => (await runLogs(emu, r.id)).body.total_logs!));
    expect(totals.sort((a, b) => a - b)).toEqual([3, 3, 12]);
    const prs = (await getRun(emu, next.id)).body.git_host_pull_requests!;
    expect(prs.map((p) => p.head_branch_name)).toEqual([`agent/run-${next.id}`, `agent/run-${next.id}-2`, `agent/run-${next.id}-3`]);
    expect(new Set(prs.map((p) => p.id)).size).toBe(3);
  });

  it("an invalid script is refused with a message naming the field", async () => {
    const emu = await emulator();
    expect(() => emu.control.script({ logSteps: -1 })).toThrow(/logSteps must be 0 or more/);
    expect(() => emu.control.script({ outcome: "maybe" as "failed" })).toThrow(/outcome must be completed or failed/);
  });

  it("runs in real time with a small timeScale", async () => {
    // 20 s emulated at 0.001 → 20 ms real.
    const emu = await emulator({ timeScale: 0.001 });
    const run = (await createRun(emu, { prompt: "quick" })).body;
    const seen: string[] = [run.status!];
    for (let i = 0; i < 400 && seen.at(-1) !== "completed"; i++) {
      await sleep(5);
      const status = (await getRun(emu, run.id)).body.status!;
      if (status !== seen.at(-1)) seen.push(status);
    }
    expect(seen.at(-1)).toBe("completed");
    // Statuses only move forward.
    const order = ["queued", "running", "completed"];
    expect(seen.map((s) => order.indexOf(s))).toEqual([...seen.map((s) => order.indexOf(s))].sort());
    expect((await runLogs(emu, run.id)).body.total_logs).toBe(12);
  });

  it("logs grow monotonically while a run progresses in real time", async () => {
    // 20 s emulated at 0.02 → 400 ms real, 100 entries.
    const emu = await emulator({ timeScale: 0.02, rateLimits: false, defaultScript: { logSteps: 100 } });
    const run = (await createRun(emu, { prompt: "watch me" })).body;
    const counts: number[] = [];
    let status = run.status;
    while (status !== "completed") {
      const page = (await runLogs(emu, run.id)).body;
      counts.push(page.total_logs!);
      status = page.status;
      await sleep(10);
    }
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    expect(counts.some((c) => c > 0 && c < 100)).toBe(true);
    expect(counts.at(-1)).toBe(100);
  });

  it("changing the time scale keeps a run's progress", async () => {
    const emu = await emulator({ defaultScript: { durationMs: 100_000, logSteps: 100 } });
    const run = (await createRun(emu, { prompt: "steady" })).body;
    emu.control.advanceTime(50_000);
    emu.control.setTimeScale(1000); // 1000× slower than real time: progress all but stops
    const before = (await runLogs(emu, run.id)).body.total_logs!;
    expect(before).toBeGreaterThan(30);
    emu.control.setTimeScale(2000);
    expect((await runLogs(emu, run.id)).body.total_logs).toBe(before);
    emu.control.setTimeScale(0.000_01); // 100 s emulated in 1 ms real
    await sleep(5);
    expect((await getRun(emu, run.id)).body.status).toBe("completed");
    expect(() => emu.control.setTimeScale(0)).toThrow(/positive number/);
  });

  it("log timestamps never lie in the future", async () => {
    const emu = await emulator({ timeScale: 0.001, defaultScript: { logSteps: 30 } });
    const run = (await createRun(emu, { prompt: "timestamps" })).body;
    finishAllRuns(emu);
    const logs = (await runLogs(emu, run.id)).body.logs;
    const now = Date.now();
    for (const e of logs) {
      expect(Date.parse(e.created_at!)).toBeLessThanOrEqual(now);
      expect(Date.parse(e.created_at!)).toBeGreaterThanOrEqual(Date.parse(run.created_at!));
    }
  });
});

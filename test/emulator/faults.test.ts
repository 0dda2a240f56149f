import { describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/service/wire.js";
import { call, createRun, emulator, getRun } from "./helpers.js";

async function statuses(emu: Awaited<ReturnType<typeof emulator>>, runId: number, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await getRun(emu, runId)).status);
  return out;
}

describe("faults", () => {
  it("serverErrorRate 1: every API request answers 503 with a detail, nothing happens", async () => {
    const emu = await emulator();
    emu.control.setFaults({ serverErrorRate: 1 });
    const answer = await createRun(emu, { prompt: "p" });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ detail: expect.stringContaining("temporarily unavailable") });
    expect(emu.control.runs()).toHaveLength(0);
    expect(emu.control.stats()).toMatchObject({ serverErrors: 1, requests: 1, runsCreated: 0 });
    // Pages and control are not affected.
    expect((await call(emu, "GET", "/", { token: null })).status).toBe(200);
    emu.control.setFaults({});
    expect((await createRun(emu, { prompt: "p" })).status).toBe(200);
  });

  it("serverErrorStatus picks the status", async () => {
    const emu = await emulator();
    emu.control.setFaults({ serverErrorRate: 1, serverErrorStatus: 500 });
    expect((await getRun(emu, 1)).status).toBe(500);
  });

  it("a partial error rate is reproducible with the same seed and varies with another", async () => {
    const seq = async (seed: number) => {
      const emu = await emulator({ seed, rateLimits: false });
      const run = (await createRun(emu, { prompt: "p" })).body;
      emu.control.setFaults({ serverErrorRate: 0.5 });
      return statuses(emu, run.id, 20);
    };
    const a = await seq(1);
    const b = await seq(1);
    const c = await seq(2);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  it("dropConnectionRate 1: the socket closes without an answer", async () => {
    const emu = await emulator();
    emu.control.setFaults({ dropConnectionRate: 1 });
    await expect(createRun(emu, { prompt: "p" })).rejects.toThrow(/fetch failed/);
    expect(emu.control.runs()).toHaveLength(0);
    expect(emu.control.stats().droppedConnections).toBe(1);
  });

  it("afterAction: the run is created although the client sees a failure", async () => {
    const emu = await emulator();
    emu.control.setFaults({ serverErrorRate: 1, afterAction: true });
    expect((await createRun(emu, { prompt: "ambiguous" })).status).toBe(503);
    emu.control.setFaults({ dropConnectionRate: 1, afterAction: true });
    await expect(createRun(emu, { prompt: "ambiguous too" })).rejects.toThrow(/fetch failed/);
    expect(emu.control.runs().map((r) => r.id)).toEqual([1, 2]);
    expect(emu.control.stats()).toMatchObject({ runsCreated: 2, serverErrors: 1, droppedConnections: 1 });
  });

  it("latencyMs delays every answer", async () => {
    const emu = await emulator();
    emu.control.setFaults({ latencyMs: 150 });
    const started = performance.now();
    expect((await getRun(emu, 1)).status).toBe(404);
    // A lower bound only: the delay was injected (no assertion on how fast anything is).
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("rateLimitStorm: the next `count` requests get 429, then service resumes", async () => {
    const emu = await emulator();
    emu.control.setFaults({ rateLimitStorm: { count: 3 } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await createRun(emu, { prompt: "storm" }));
    expect(answers.map((a) => a.status)).toEqual([429, 429, 429, 200]);
    expect(answers[0]!.headers.get("retry-after")).toBeNull();
    expect(answers[0]!.body).toEqual({ detail: expect.stringMatching(/^rate limit exceeded/) });
    expect(emu.control.stats().rateLimited).toBe(3);
  });

  it("rateLimitStorm: retryAfterSeconds sets the header; null never sends one", async () => {
    const emu = await emulator({ retryAfterHeader: true });
    emu.control.setFaults({ rateLimitStorm: { count: 1, retryAfterSeconds: 7 } });
    expect((await getRun(emu, 1)).headers.get("retry-after")).toBe("7");
    emu.control.setFaults({ rateLimitStorm: { count: 1, retryAfterSeconds: null } });
    expect((await getRun(emu, 1)).headers.get("retry-after")).toBeNull();
    emu.control.setFaults({ rateLimitStorm: { count: 1 } });
    expect((await getRun(emu, 1)).headers.get("retry-after")).toBe("1");
  });

  it("refuses invalid faults with a message naming the field", async () => {
    const emu = await emulator();
    expect(() => emu.control.setFaults({ serverErrorRate: 2 })).toThrow(/serverErrorRate must be between 0 and 1/);
    expect(() => emu.control.setFaults({ latencyMs: -5 })).toThrow(/latencyMs must be 0 or more/);
  });

  it("faults touch only the API", async () => {
    const emu = await emulator();
    emu.control.setFaults({ dropConnectionRate: 1 });
    expect((await call(emu, "GET", "/_emulator/stats", { token: null })).status).toBe(200);
    expect((await call(emu, "GET", "/", { token: null })).status).toBe(200);
    await expect(call(emu, "GET", API_PATHS.getRun(emu.orgId, 1))).rejects.toThrow();
  });
});

import { describe, expect, it } from "vitest";
import { buildEmulator, startEmulator } from "../../src/emulator/index.js";
import { API_PATHS } from "../../src/service/wire.js";
import { call, createRun, emulator, getRun, runLogs } from "./helpers.js";

describe("/_emulator control over HTTP", () => {
  it("POST /_emulator/script scripts the next run", async () => {
    const emu = await emulator();
    const answer = await call(emu, "POST", "/_emulator/script", {
      token: null,
      body: { outcome: "failed", durationMs: 0, logSteps: 4, errorMessage: "scripted failure" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true });
    const run = (await createRun(emu, { prompt: "p" })).body;
    expect(run).toMatchObject({ status: "failed", result: "scripted failure" });
    expect((await runLogs(emu, run.id)).body.total_logs).toBe(4);
    // The script applied once: the next run follows the default.
    expect((await createRun(emu, { prompt: "p" })).body.status).toBe("queued");
  });

  it("POST /_emulator/faults sets and clears faults", async () => {
    const emu = await emulator();
    expect((await call(emu, "POST", "/_emulator/faults", { token: null, body: { serverErrorRate: 1 } })).status).toBe(200);
    expect((await getRun(emu, 1)).status).toBe(503);
    expect((await call(emu, "POST", "/_emulator/faults", { token: null, body: {} })).status).toBe(200);
    expect((await getRun(emu, 1)).status).toBe(404);
  });

  it("POST /_emulator/time-scale and /_emulator/advance move runs along", async () => {
    const emu = await emulator({ defaultScript: { durationMs: 60_000 } });
    const run = (await createRun(emu, { prompt: "p" })).body;
    expect((await call(emu, "POST", "/_emulator/advance", { token: null, body: { ms: 30_000 } })).status).toBe(200);
    expect((await getRun(emu, run.id)).body.status).toBe("running");
    const scaled = await call(emu, "POST", "/_emulator/time-scale", { token: null, body: { timeScale: 0.000_001 } });
    expect(scaled.body).toEqual({ ok: true, timeScale: 0.000_001 });
    await new Promise((r) => setTimeout(r, 5));
    expect((await getRun(emu, run.id)).body.status).toBe("completed");
  });

  it("GET /_emulator/stats, POST /_emulator/reset-stats, GET /_emulator/runs", async () => {
    const emu = await emulator();
    await createRun(emu, { prompt: "p" });
    await getRun(emu, 1);
    await getRun(emu, 1, { token: "bad" });
    const stats = await call(emu, "GET", "/_emulator/stats", { token: null });
    expect(stats.body).toEqual({
      requests: 3,
      byRoute: { createRun: 1, getRun: 2 },
      rateLimited: 0,
      serverErrors: 0,
      droppedConnections: 0,
      runsCreated: 1,
      runsResumed: 0,
    });
    const reset = await call(emu, "POST", "/_emulator/reset-stats", { token: null });
    expect(reset.body).toMatchObject({ requests: 0, byRoute: {}, runsCreated: 0 });
    expect(emu.control.stats().requests).toBe(0);
    const runs = await call<Array<{ id: number }>>(emu, "GET", "/_emulator/runs", { token: null });
    expect(runs.body.map((r) => r.id)).toEqual([1]);
  });

  it("answers 400 with a message for invalid bodies", async () => {
    const emu = await emulator();
    const cases: Array<[string, unknown, RegExp]> = [
      ["/_emulator/script", { logSteps: -1 }, /logSteps must be 0 or more/],
      ["/_emulator/script", { outcome: "sideways" }, /outcome must be completed or failed/],
      ["/_emulator/script", { unknownField: 1 }, /unknownField/],
      ["/_emulator/faults", { serverErrorRate: 3 }, /serverErrorRate must be between 0 and 1/],
      ["/_emulator/faults", { rateLimitStorm: { count: -1 } }, /rateLimitStorm\.count/],
      ["/_emulator/time-scale", { timeScale: 0 }, /timeScale must be a positive number/],
      ["/_emulator/time-scale", {}, /timeScale is required/],
      ["/_emulator/advance", { ms: -1 }, /ms must be 0 or more/],
    ];
    for (const [path, body, message] of cases) {
      const answer = await call<{ detail: string }>(emu, "POST", path, { token: null, body });
      expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body.detail).toMatch(message);
    }
  });

  it("is not rate limited and needs no token", async () => {
    const emu = await emulator();
    for (let i = 0; i < 70; i++) expect((await call(emu, "GET", "/_emulator/stats", { token: null })).status).toBe(200);
  });

  it("refuses requests that do not come from loopback", async () => {
    const { app } = buildEmulator();
    const remote = await app.inject({ method: "GET", url: "/_emulator/stats", remoteAddress: "203.0.113.9" });
    expect(remote.statusCode).toBe(403);
    const local = await app.inject({ method: "GET", url: "/_emulator/stats" });
    expect(local.statusCode).toBe(200);
    await app.close();
  });
});

describe("startEmulator options", () => {
  it("reports url, token and organization, and closes", async () => {
    const emu = await startEmulator({ tokens: [{ token: "t-1", orgIds: [42, 43] }] });
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu).toMatchObject({ token: "t-1", orgId: 42 });
    expect((await createRun(emu, { prompt: "p" })).body.organization_id).toBe(42);
    await emu.close();
    await expect(fetch(`${emu.url}/`)).rejects.toThrow();
  });

  it("can be closed twice, and reports a busy port", async () => {
    const first = await emulator();
    const port = Number(new URL(first.url).port);
    await expect(startEmulator({ port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    await first.close();
    await first.close();
  });

  it("uses publicUrl for links", async () => {
    const emu = await emulator({ publicUrl: "http://emulator.test:8080/" });
    const run = (await createRun(emu, { prompt: "p" })).body;
    expect(run.web_url).toBe(`http://emulator.test:8080/runs/${run.id}`);
  });

  it("refuses bad options with a message naming them", async () => {
    await expect(startEmulator({ timeScale: 0 })).rejects.toThrow(/timeScale must be a positive number/);
    await expect(startEmulator({ tokens: [] })).rejects.toThrow(/at least one token/);
    expect(() => buildEmulator({ defaultScript: { logSteps: 1.5 } })).toThrow(/logSteps must be an integer/);
    expect(() => buildEmulator({ statusVocabulary: "loud" as "spec" })).toThrow(/statusVocabulary must be spec or deployment/);
  });

  it("works through inject() as well", async () => {
    const { app, control } = buildEmulator({ tokens: [{ token: "inj", orgIds: [9] }] });
    const answer = await app.inject({
      method: "POST",
      url: API_PATHS.createRun(9),
      headers: { authorization: "Bearer inj" },
      payload: { prompt: "inject me" },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ id: 1, organization_id: 9, status: "queued" });
    expect(control.runs()).toHaveLength(1);
    await app.close();
  });
});

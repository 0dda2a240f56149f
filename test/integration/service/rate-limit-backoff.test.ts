/**
 * A 429 over real HTTP (a scripted server): without Retry-After the client backs off with jitter
 * from a couple of seconds up to the window, not a flat window; and the attempt the service refused
 * gives its slot back in the client's own windows, so the calls after it are not held back for a
 * call the service never counted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AgentRunClient, createInProcessBudget } from "../../../src/service/index.js";
import { rateLimitBackoffMs } from "../../../src/service/transport.js";
import { startScriptedServer, type ScriptedResponse } from "../../helpers/scripted-server.js";

const run = (id: number) => ({ id, organization_id: 1, status: "running" });
const refusal: ScriptedResponse = { status: 429, body: { message: "Rate limit exceeded", status_code: 429 } };

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function serve(script: ScriptedResponse[]) {
  const server = await startScriptedServer(script);
  closers.push(server.close);
  return server;
}

describe("rateLimitBackoffMs", () => {
  it("draws from two seconds up to a ceiling that doubles per refusal and stops at the window", () => {
    const window = 60_000;
    expect(rateLimitBackoffMs(1, window, 1, () => 0)).toBe(2_000);
    expect(rateLimitBackoffMs(1, window, 1, () => 1)).toBe(4_000);
    expect(rateLimitBackoffMs(3, window, 1, () => 1)).toBe(16_000);
    expect(rateLimitBackoffMs(9, window, 1, () => 1)).toBe(60_000);
    expect(rateLimitBackoffMs(9, window, 1, () => 0.5)).toBe(31_000);
    // Scaled like the windows (the emulator's time scale).
    expect(rateLimitBackoffMs(1, window * 0.05, 0.05, () => 0)).toBe(100);
    const draws = new Set(Array.from({ length: 50 }, () => rateLimitBackoffMs(4, window, 1)));
    expect(draws.size).toBeGreaterThan(40);
    for (const draw of draws) expect(draw >= 2_000 && draw <= 32_000).toBe(true);
  });
});

describe("a 429 over HTTP", () => {
  it("without Retry-After, each retry comes after the floor and well inside the window", async () => {
    // Scale 0.05: a floor of 100 ms, a shared window of 3 s; the ceilings are 200, 400 and 800 ms.
    const server = await serve([refusal, refusal, refusal, { status: 200, body: run(3) }]);
    const client = new AgentRunClient({ baseUrl: server.url, token: "t", orgId: 1, timeScale: 0.05 });
    expect((await client.getRun(3)).id).toBe(3);
    expect(server.requests).toHaveLength(4);
    const gaps = server.requests.slice(1).map((request, i) => request.at - server.requests[i]!.at);
    for (const [i, gap] of gaps.entries()) {
      expect(gap).toBeGreaterThanOrEqual(95);
      // A flat window would be 3,000 ms each; the slack is for a loaded machine.
      expect(gap).toBeLessThanOrEqual(200 * 2 ** i + 400);
    }
  });

  it("the refused create gives its slot back: the next create is not held for the window", async () => {
    const server = await serve([refusal, { status: 200, body: run(1) }, { status: 200, body: run(2) }]);
    // Two creates per minute on the client's side; the refusal must not count as a third.
    const budget = createInProcessBudget({ windows: { create: { points: 2, durationMs: 60_000 } }, marginMs: 0 });
    const client = new AgentRunClient({ baseUrl: server.url, token: "t", orgId: 1, timeScale: 0.001, budget });
    expect((await client.createRun({ prompt: "first" })).id).toBe(1);
    expect((await client.createRun({ prompt: "second" }, { deadline: Date.now() + 3_000 })).id).toBe(2);
    expect(server.requests).toHaveLength(3);
    expect((await budget.usage()).create.used).toBe(2);
  });

  it("the slot given back waits out the pause: the next create in line is not sent into the same full window", async () => {
    const server = await serve([refusal, { status: 200, body: run(1) }]);
    // One create per minute on the client's side: the second create waits for the slot the first gives back.
    const budget = createInProcessBudget({ windows: { create: { points: 1, durationMs: 60_000 } }, marginMs: 0 });
    // Scale 0.05: the pause after the refusal is at least 100 ms.
    const client = new AgentRunClient({ baseUrl: server.url, token: "t", orgId: 1, timeScale: 0.05, budget });
    const first = client.createRun({ prompt: "first" }, { deadline: Date.now() + 2_000 });
    const second = client.createRun({ prompt: "second" });
    expect((await second).id).toBe(1);
    // The refused create's retry finds the slot taken by the one in line, for a minute.
    await expect(first).rejects.toThrow(/rate budget/);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(95);
  });
});

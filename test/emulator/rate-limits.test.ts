import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../src/service/wire.js";
import { createRun, emulator, getRun, sleep } from "./helpers.js";

const CREATE_LIMIT = RATE_LIMITS.create.points;
const SHARED_LIMIT = RATE_LIMITS.sharedStrict.points;

describe("rate limits per token (spec §8, sliding windows)", () => {
  it("refuses the 11th creation in the window with 429, without Retry-After by default", async () => {
    const emu = await emulator();
    for (let i = 0; i < CREATE_LIMIT; i++) expect((await createRun(emu, { prompt: `run ${i}` })).status).toBe(200);
    const refused = await createRun(emu, { prompt: "one too many" });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/^rate limit exceeded: 10 agent creations per 60 s/) });
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(emu.control.stats()).toMatchObject({ runsCreated: CREATE_LIMIT, rateLimited: 1 });
    // Reads have their own budget: still allowed.
    expect((await getRun(emu, 1)).status).toBe(200);
  });

  it("counts per token: another token still has its full budget", async () => {
    const emu = await emulator({
      tokens: [
        { token: "a", orgIds: [1] },
        { token: "b", orgIds: [1] },
      ],
    });
    for (let i = 0; i < CREATE_LIMIT; i++) await createRun(emu, { prompt: "a" }, { token: "a" });
    expect((await createRun(emu, { prompt: "a" }, { token: "a" })).status).toBe(429);
    expect((await createRun(emu, { prompt: "b" }, { token: "b" })).status).toBe(200);
  });

  it("slides: requests leave the window one by one, refused ones do not count", async () => {
    // Real time with explicit jumps of emulated time: request latency cannot blur the window.
    const emu = await emulator();
    for (let i = 0; i < 5; i++) expect((await createRun(emu, { prompt: "early" })).status).toBe(200);
    emu.control.advanceTime(36_000); // 60% of the window
    for (let i = 0; i < 5; i++) expect((await createRun(emu, { prompt: "late" })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await createRun(emu, { prompt: "refused" })).status).toBe(429);
    emu.control.advanceTime(30_000); // the early five have left the window, the late five have not
    // A fixed window restarted at the first request would allow 10 here; a sliding one allows 5.
    for (let i = 0; i < 5; i++) expect((await createRun(emu, { prompt: "refill" })).status).toBe(200);
    expect((await createRun(emu, { prompt: "over" })).status).toBe(429);
    expect(emu.control.stats()).toMatchObject({ runsCreated: 15, rateLimited: 4 });
  });

  it("scales the windows with timeScale", async () => {
    // timeScale 0.005: the 60 s creation window lasts 300 ms real.
    const emu = await emulator({ timeScale: 0.005 });
    for (let i = 0; i < CREATE_LIMIT; i++) await createRun(emu, { prompt: "fill" });
    expect((await createRun(emu, { prompt: "full" })).status).toBe(429);
    let status = 429;
    for (let i = 0; i < 300 && status === 429; i++) {
      await sleep(10);
      status = (await createRun(emu, { prompt: "again" })).status;
    }
    expect(status).toBe(200);
  });

  it("shares 60 requests per 60 s across all endpoints", async () => {
    const emu = await emulator();
    const run = (await createRun(emu, { prompt: "shared" })).body;
    for (let i = 1; i < SHARED_LIMIT; i++) expect((await getRun(emu, run.id)).status).toBe(200);
    const refused = await getRun(emu, run.id);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: expect.stringContaining("60 requests per 60 s across all endpoints") });
    expect((await createRun(emu, { prompt: "also refused" })).status).toBe(429);
  });

  it("advancing emulated time frees the windows", async () => {
    const emu = await emulator();
    for (let i = 0; i < CREATE_LIMIT; i++) await createRun(emu, { prompt: "fill" });
    expect((await createRun(emu, { prompt: "full" })).status).toBe(429);
    emu.control.advanceTime(RATE_LIMITS.create.durationSeconds * 1000);
    expect((await createRun(emu, { prompt: "free again" })).status).toBe(200);
  });

  it("sends Retry-After (whole seconds) when asked to", async () => {
    const emu = await emulator({ retryAfterHeader: true });
    for (let i = 0; i < CREATE_LIMIT; i++) await createRun(emu, { prompt: "fill" });
    const refused = await createRun(emu, { prompt: "full" });
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(59);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it("can be switched off", async () => {
    const emu = await emulator({ rateLimits: false });
    for (let i = 0; i <= CREATE_LIMIT; i++) expect((await createRun(emu, { prompt: "free" })).status).toBe(200);
  });

  it("checks authentication before spending budget", async () => {
    const emu = await emulator();
    for (let i = 0; i < 20; i++) expect((await createRun(emu, { prompt: "x" }, { token: "wrong" })).status).toBe(401);
    expect((await createRun(emu, { prompt: "x" })).status).toBe(200);
  });
});

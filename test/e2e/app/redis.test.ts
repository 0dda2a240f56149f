/**
 * `agent-run app` with REDIS_URL, as child processes against a `redis-server` of the test's own: an
 * unreachable Redis at start is a configuration error (exit 2); Redis lost later turns the readiness
 * probe and new deliveries into quick 503s (never a 200 for a delivery that was not stored), and
 * once Redis is back the App carries on with everything it had answered 200 to.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { RECEIVE_DEADLINE_MS } from "../../../src/app/handlers/webhook.js";
import { startAppChildServices } from "../../helpers/app-child-world.js";
import { BOT_LOGIN, baseSeed, postWebhook, until } from "../../helpers/app-harness.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { freePort, spawnAppProcess, startAppChild, startPrivateRedis, type AppChild } from "../../helpers/app-process.js";

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function healthStatus(app: AppChild): Promise<number> {
  const response = await fetch(`${app.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  await response.arrayBuffer();
  return response.status;
}

async function startWorld() {
  const services = await startAppChildServices({
    seed: { ...baseSeed(), issues: [1, 3, 4].map((number) => ({ number, title: `Issue ${number}`, body: "", user: "maintainer" })) },
    cleanups,
  });
  return { ...services, env: (extra: Record<string, string>) => services.env({ LOG_LEVEL: "warn", ...extra }) };
}

describe("agent-run app on Redis", () => {
  it("exits 2 with a message naming REDIS_URL when nothing listens there, and never prints the URL's password", async () => {
    const { env } = await startWorld();
    const port = await freePort();
    const password = "hunter2-redis-password";
    const spawned = spawnAppProcess(env({ REDIS_URL: `redis://app:${password}@127.0.0.1:${port}/0` }));
    const killer = setTimeout(() => spawned.child.kill("SIGKILL"), 20_000);
    const { code } = await spawned.exited;
    clearTimeout(killer);

    expect(code).toBe(2);
    expect(spawned.stderr()).toContain("REDIS_URL");
    expect(spawned.stderr()).toContain(`cannot reach redis://[redacted credentials]@127.0.0.1:${port}/0`);
    expect(spawned.stderr() + spawned.stdout()).not.toContain(password);
  });

  it("answers 503 at once while Redis is lost, then carries on when it is back: nothing answered 200 is lost", async () => {
    const world = await startWorld();
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.close());
    // About 5 s of real time: the run is still being watched while Redis is away.
    world.emulator.control.script({ match: "outlive", durationMs: 2_500_000, summary: "Outlived the outage." });
    const app = await startAppChild(world.env({ REDIS_URL: redis.url }), "the App");
    cleanups.push(() => app.kill());

    // Answered 200 before the outage: a run that is being watched when Redis goes.
    expect(await healthStatus(app)).toBe(200);
    expect(await postWebhook(app.webhookUrl, "issue_comment", world.comment(1, "/agent outlive the outage"), "before-outage")).toBe(200);
    await until(() => world.results(1)[0]?.runId != null, "the run to be watched", 15_000);

    await redis.kill();
    await until(async () => (await healthStatus(app)) === 503, "/healthz to answer 503", 5_000);
    const started = Date.now();
    const duringPayload = world.comment(4, "/agent while Redis is away");
    const during = await postWebhook(app.webhookUrl, "issue_comment", duringPayload, "during-outage");
    // Not stored, so not 200: GitHub shows the delivery as failed, and it can be redelivered.
    expect(during).toBe(503);
    expect(Date.now() - started).toBeLessThan(5_000);

    await redis.restart();
    await until(async () => (await healthStatus(app)) === 200, "/healthz to answer 200 again", 15_000);
    expect(await postWebhook(app.webhookUrl, "issue_comment", world.comment(3, "/agent after the outage"), "after-outage")).toBe(200);
    // The delivery answered 503 was not marked as received: its redelivery is taken.
    expect(await postWebhook(app.webhookUrl, "issue_comment", duringPayload, "during-outage")).toBe(200);

    const done = (issueNumber: number) => world.results(issueNumber).filter((m) => m?.state === "done").length;
    await until(() => done(1) === 1 && done(3) === 1 && done(4) === 1, "a result in each of the three threads", 20_000);
    expect(world.results(1)).toMatchObject([{ state: "done", outcome: "succeeded" }]);
    expect(world.github.commentsOn(FULL_NAME, 1).find((c) => c.user.login === BOT_LOGIN)!.body).toContain("Outlived the outage.");
    expect(world.results(3)).toMatchObject([{ state: "done", outcome: "succeeded" }]);
    expect(world.results(4)).toMatchObject([{ state: "done", outcome: "succeeded" }]);
    expect(world.emulator.control.stats().runsCreated).toBe(3);
    expect(world.emulator.control.stats().rateLimited).toBe(0);

    expect(await app.stop()).toEqual({ code: 0, signal: null });
    expect(app.stderr() + app.stdout()).not.toContain(world.emulator.token);
  });

  it("answers 503 within its deadline when Redis hangs without dropping the connection (a delivery stored late is still handled once)", async () => {
    const world = await startWorld();
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.close());
    const app = await startAppChild(world.env({ REDIS_URL: redis.url }), "the App");
    cleanups.push(() => app.kill());
    expect(await healthStatus(app)).toBe(200);

    // Redis keeps the connection but answers nothing for 4 s: ioredis has no reason to give up on a command.
    const admin = new Redis(redis.url);
    cleanups.push(() => admin.disconnect());
    await admin.call("CLIENT", "PAUSE", "4000", "ALL");
    const started = Date.now();
    const payload = world.comment(3, "/agent while Redis hangs");
    const [health, status] = await Promise.all([healthStatus(app), postWebhook(app.webhookUrl, "issue_comment", payload, "during-pause")]);
    const answeredAfter = Date.now() - started;
    expect(health).toBe(503);
    expect(status).toBe(503);
    // RECEIVE_DEADLINE_MS (3 s), well before GitHub's 10 s and Probot's 202 "still processing" at 9 s.
    expect(answeredAfter).toBeGreaterThanOrEqual(RECEIVE_DEADLINE_MS - 100);
    expect(answeredAfter).toBeLessThan(RECEIVE_DEADLINE_MS + 1_500);

    // When Redis answers again the late store goes through: the delivery is handled once, and its redelivery changes nothing.
    await until(() => world.results(3).filter((m) => m?.state === "done").length === 1, "the late-stored delivery's result", 15_000);
    expect(await postWebhook(app.webhookUrl, "issue_comment", payload, "during-pause")).toBe(200);
    await until(async () => (await healthStatus(app)) === 200, "/healthz to answer 200", 5_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.results(3)).toMatchObject([{ state: "done", outcome: "succeeded" }]);
    expect(world.emulator.control.stats().runsCreated).toBe(1);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
  });
});

/**
 * SIGTERM, as `docker stop` and Kubernetes send it: the App stops taking webhooks at once, lets the work in flight
 * settle and exits 0 within the 10 s a container runtime waits before SIGKILL. A service call that never answers
 * does not hold the exit up (the engine's abort cuts it), and the next start on the same data takes the work up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator } from "../../../src/emulator/index.js";
import { API_PATHS } from "../../../src/service/wire.js";
import { BOT_LOGIN, SCALE, baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { childAppEnv } from "../../helpers/app-child-world.js";
import { startAppChild, startHttpProxy, type AppChild } from "../../helpers/app-process.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";

/** What `docker stop` waits before SIGKILL. */
const RUNTIME_GRACE_MS = 10_000;

const children: AppChild[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startWorld(options: { holdCreates: boolean }) {
  const github = await startFakeGitHub({ seed: baseSeed() });
  const emulator = await startEmulator({ timeScale: SCALE });
  emulator.control.script({ match: "shutdown", durationMs: 1_500_000, summary: "Did the job across the restart." });
  const createPath = API_PATHS.createRun(emulator.orgId);
  let createHeld = false;
  // Between the App and the service: with holdCreates, the first create is held unanswered for good.
  const service = await startHttpProxy([emulator.url], {
    beforeForward: ({ method, path }) => {
      if (!options.holdCreates || createHeld || method !== "POST" || path !== createPath) return;
      createHeld = true;
      return new Promise<void>(() => undefined);
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-shutdown-"));
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => service.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const env = childAppEnv({ url: service.url, token: emulator.token, orgId: emulator.orgId }, dataDir, github.url, {
    LOG_LEVEL: "warn",
  });
  let payload: object | undefined;
  const trigger = async (app: AppChild, deliveryId: string) => {
    payload = seedHumanComment(github, { number: 1, title: "Flaky date test" }, "/agent do the shutdown job").payload;
    expect(await postWebhook(app.webhookUrl, "issue_comment", payload, deliveryId)).toBe(200);
  };
  const redeliver = (app: AppChild, deliveryId: string) => postWebhook(app.webhookUrl, "issue_comment", payload!, deliveryId);
  const bot = () => github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === BOT_LOGIN);
  return { github, emulator, env, trigger, redeliver, bot, createHeld: () => createHeld };
}

/** SIGTERM, then how the process ended and how long it took. */
async function terminate(app: AppChild): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = Date.now();
  const outcome = await app.stop(RUNTIME_GRACE_MS + 5_000);
  return { ...outcome, ms: Date.now() - started };
}

describe("the App on SIGTERM", () => {
  it("stops taking webhooks, exits 0 while a run is watched, and the next start on the same data carries on", async () => {
    const world = await startWorld({ holdCreates: false });
    const first = await startAppChild(world.env, "the first process");
    children.push(first);
    await world.trigger(first, "delivery-shutdown");
    await until(() => parseMarker(world.bot()[0]?.body)?.runId != null, "the tracking comment to name the run");

    const stopped = terminate(first);
    // The listener is closed at once: a delivery sent now reaches nobody (a load balancer sends it to another replica).
    await until(async () => {
      const refused = await fetch(first.webhookUrl, { method: "POST" }).then(
        () => false,
        () => true,
      );
      return refused;
    }, "the listener to close");
    const { code, signal, ms } = await stopped;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(RUNTIME_GRACE_MS);
    expect(first.stderr()).toContain("app stopped (SIGTERM).");

    const second = await startAppChild(world.env, "the second process");
    children.push(second);
    // GitHub redelivers the same delivery to the new process (a manual redelivery, or the recovery sweep): it is known.
    expect(await world.redeliver(second, "delivery-shutdown")).toBe(200);
    await until(() => parseMarker(world.bot()[0]?.body)?.state === "done", "the result");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(world.bot().map((c) => c.body.slice(0, 200))).toHaveLength(1);
    expect(world.bot()[0]!.body).toContain("Did the job across the restart.");
    expect(world.emulator.control.stats().runsCreated).toBe(1);
  });

  it("exits 0 in time while a service call never answers, and the next start sends that create once", async () => {
    const world = await startWorld({ holdCreates: true });
    const first = await startAppChild(world.env, "the first process");
    children.push(first);
    await world.trigger(first, "delivery-held");
    await until(() => world.createHeld(), "the create to be held");

    const { code, signal, ms } = await terminate(first);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(RUNTIME_GRACE_MS);

    // Only the first create is held: the next process's goes through.
    const second = await startAppChild(world.env, "the second process");
    children.push(second);
    await until(() => parseMarker(world.bot()[0]?.body)?.state === "done", "the result");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(world.bot()).toHaveLength(1);
    expect(world.emulator.control.stats().runsCreated).toBe(1);
  });
});

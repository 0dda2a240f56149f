/** The server around the webhook endpoint, and the tracking comment while the rate budget is busy. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { SCALE, baseSeed, startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "" };

let harness: AppHarness;
afterEach(async () => {
  vi.restoreAllMocks();
  await harness?.close();
});

describe("the App's server", () => {
  it("answers GET /healthz with the task counts, 404 elsewhere, and only POSTs on the webhook path", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN: "ops-token-0123456789abcdef0123456789" } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    const health = await fetch(`${harness.app.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      ok: true,
      app: "agent-run-bridge",
      version: expect.any(String),
      backend: process.env.APP_TEST_BACKEND ?? "embedded",
      replica: expect.any(String),
    });
    expect((await fetch(`${harness.app.url}/healthz?verbose`)).status).toBe(401);
    const verbose = await fetch(`${harness.app.url}/healthz?verbose`, {
      headers: { authorization: "Bearer ops-token-0123456789abcdef0123456789" },
    });
    expect(await verbose.json()).toMatchObject({
      ok: true,
      tasks: { done: 1 },
      queue: { delivery: { waiting: 0, delayed: 0, active: 0 }, task: { waiting: 0, delayed: 0, active: 0 } },
    });
    expect((await fetch(`${harness.app.url}/nope`)).status).toBe(404);
    expect(
      (await fetch(harness.app.webhookUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
    ).toBe(400);
  });

  it("talks to GitHub over node:http, never through Node's fetch (its undici costs a process a burst of about 30 MB)", async () => {
    // Calls through: the spy only records which URLs Node's fetch was asked for.
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    harness = await startAppHarness();
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    // The App identified itself, took an installation token, checked the commenter and wrote its result.
    expect(harness.github.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /app",
        expect.stringMatching(/^POST \/app\/installations\/\d+\/access_tokens$/),
        "POST /repos/octo-org/widgets/issues/1/comments",
      ]),
    );
    expect(harness.botComments(1)).toHaveLength(1);
    const viaFetch = fetchSpy.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input));
    expect(viaFetch.filter((url) => url.startsWith(harness.github.url))).toEqual([]);
  });

  it("says 'queued' with the position while creations wait for the service's rate budget", async () => {
    // Real time: 10 creations per minute, so the 11th waits and the 12th is second in line. One issue each.
    const seed = baseSeed();
    seed.issues = Array.from({ length: 12 }, (_, i) => ({ number: 10 + i, title: `Task ${i + 1}` }));
    harness = await startAppHarness({ seed, emulator: { timeScale: 1 }, env: { AGENT_RUN_TIME_SCALE: "1" }, githubPacingTimeScale: SCALE });
    for (let i = 0; i < 11; i++) {
      await harness.deliver("issue_comment", harness.humanComment({ ...ISSUE, number: 10 + i }, `/agent task ${i + 1}`).payload);
    }
    await until(
      () => harness.app.client.budget.waiting("create") === 1 && harness.service.creates().length === 10,
      "the 11th creation to wait for budget",
    );

    await harness.deliver("issue_comment", harness.humanComment({ ...ISSUE, number: 21 }, "/agent task 12").payload);
    await until(() => harness.botComments(21).length === 1, "the 12th tracking comment");
    const tracking = harness.botComments(21)[0]!;
    expect(tracking.body).toContain(
      "⏳ **Queued** (position 2): waiting for the Agent Run Service's rate budget. The run starts by itself.",
    );
    expect(parseMarker(tracking.body)).toMatchObject({ runId: null, state: "queued" });
    expect(harness.service.creates()).toHaveLength(10);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import {
  AgentRunClient,
  AuthenticationError,
  ClientRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  classifyRunStatus,
  createInProcessBudget,
  type AgentRunClientOptions,
} from "../../../src/service/index.js";

/** The client against the emulator over real HTTP: the spec's endpoints, errors, pagination and limits. */

const SCALE = 0.01;
let emulator: RunningEmulator;

beforeEach(async () => {
  emulator = await startEmulator({
    timeScale: SCALE,
    tokens: [
      { token: "token-org-1", orgIds: [1] },
      { token: "token-org-2", orgIds: [2] },
    ],
    defaultScript: { durationMs: 3_000, logSteps: 12 },
  });
});
afterEach(async () => {
  await emulator.close();
});

function client(overrides: Partial<AgentRunClientOptions> = {}) {
  return new AgentRunClient({
    baseUrl: emulator.url,
    token: "token-org-1",
    orgId: 1,
    timeScale: SCALE,
    backoff: { minMs: 5, maxMs: 20 },
    ...overrides,
  });
}

describe("every endpoint of the spec", () => {
  it("create → get → wait → logs → resume → wait, with the spec's shapes", async () => {
    const c = client();
    const created = await c.createRun({
      prompt: "Fix the flaky test",
      metadata: { source_type: "API", ticket: "T-1" },
      agent_type: "native",
    });
    expect(created).toMatchObject({ organization_id: 1, metadata: { source_type: "API", ticket: "T-1" } });
    expect(typeof created.web_url).toBe("string");

    const done = await c.waitForRun(created.id, { intervalMs: { initial: 5, max: 20 } });
    expect(classifyRunStatus(done.status)).toBe("succeeded");
    expect(done.summary).toBeTruthy();
    expect(done.git_host_pull_requests?.[0]).toMatchObject({ head_branch_name: expect.any(String), url: expect.any(String) });

    const page = await c.listLogs(created.id, { skip: 0, limit: 5 });
    expect(page).toMatchObject({ id: created.id, total_logs: 12, page: 1, size: 5, pages: 3 });
    expect(page.logs).toHaveLength(5);

    const resumed = await c.resumeRun(created.id, "Also add a regression test");
    expect(resumed.id).toBe(created.id);
    expect(classifyRunStatus((await c.waitForRun(created.id, { intervalMs: { initial: 5, max: 20 } })).status)).toBe("succeeded");
    const messages: string[] = [];
    for await (const entry of c.iterateLogs(created.id))
      if (entry.message_type === "USER_MESSAGE") messages.push(JSON.stringify(entry.observation));
    expect(messages.join()).toContain("Also add a regression test");
  });

  it("resuming a run that is still working is refused by the service, and the client says so", async () => {
    // The default run lasts 30 ms at this scale: a loaded machine took longer than that between the create and the resume.
    emulator.control.script({ match: "long task", durationMs: 600_000 });
    const c = client();
    const run = await c.createRun({ prompt: "long task" });
    await expect(c.resumeRun(run.id, "more")).rejects.toThrow(ClientRequestError);
  });
});

describe("every error of the spec", () => {
  it("401 for an unknown token, 403 for another organization, 404 for an unknown or foreign run", async () => {
    await expect(client({ token: "nope" }).getRun(1)).rejects.toThrow(AuthenticationError);
    await expect(client({ orgId: 2 }).getRun(1)).rejects.toThrow(PermissionError);
    await expect(client().getRun(999)).rejects.toThrow(NotFoundError);
    const foreign = await client({ token: "token-org-2", orgId: 2 }).createRun({ prompt: "theirs" });
    await expect(client().getRun(foreign.id)).rejects.toThrow(NotFoundError);
    await expect(client().listLogs(foreign.id)).rejects.toThrow(NotFoundError);
  });

  it("a 429 storm is waited out (Retry-After honoured) and a read still succeeds", async () => {
    const c = client();
    const run = await c.createRun({ prompt: "x" });
    emulator.control.setFaults({ rateLimitStorm: { count: 2, retryAfterSeconds: 0.3 } });
    const start = Date.now();
    expect((await c.getRun(run.id)).id).toBe(run.id);
    expect(Date.now() - start).toBeGreaterThanOrEqual(550);
    expect(emulator.control.stats().rateLimited).toBe(2);
  });

  it("a 429 that outlasts the deadline is a RateLimitError", async () => {
    const c = client();
    emulator.control.setFaults({ rateLimitStorm: { count: 5, retryAfterSeconds: 30 } });
    await expect(c.getRun(1, { deadline: Date.now() + 1000 })).rejects.toThrow(RateLimitError);
  });
});

describe("logs pagination through the iterator", () => {
  for (const total of [0, 1, 99, 100, 101, 250]) {
    it(`${total} entries: every entry once, in ${Math.max(1, Math.ceil(total / 100))} request(s) or one more for an exact multiple without total_logs`, async () => {
      emulator.control.script({ match: `logs-${total}`, logSteps: total, durationMs: 100, pullRequests: 0 });
      const c = client();
      const run = await c.createRun({ prompt: `logs-${total}` });
      await c.waitForRun(run.id, { intervalMs: { initial: 5, max: 10 } });
      emulator.control.resetStats();
      const seen: string[] = [];
      for await (const entry of c.iterateLogs(run.id)) seen.push(`${entry.created_at}|${entry.message_type}`);
      expect(seen).toHaveLength(total);
      // total_logs lets the iterator stop at an exact multiple of 100 without asking for an empty page.
      expect(emulator.control.stats().byRoute.runLogs).toBe(Math.max(1, Math.ceil(total / 100)));
    });
  }
});

describe("client-side rate budget", () => {
  // A slower clock here: the emulator shares this process, and on a loaded two-core machine its event
  // loop can lag by hundreds of ms, far more than the client's latency allowance at a tiny scale. The
  // allowance is 2% of the window at real scale (1.2 s); 400 ms on a 3 s window stands in for it.
  const BUDGET_SCALE = 0.05;
  let slow: RunningEmulator;
  beforeEach(async () => {
    slow = await startEmulator({ timeScale: BUDGET_SCALE, tokens: [{ token: "token-org-1", orgIds: [1] }] });
  });
  afterEach(async () => {
    await slow.close();
  });
  // The client's own scale too: it sets the wait after a 429 the budget did not foresee, which at
  // real scale (a whole minute) outlasted the test instead of letting it report the 429.
  const budgeted = () =>
    new AgentRunClient({
      baseUrl: slow.url,
      token: "token-org-1",
      orgId: 1,
      timeScale: BUDGET_SCALE,
      budget: createInProcessBudget({ timeScale: BUDGET_SCALE, marginMs: 400 }),
    });

  it("a burst of 100 calls through one client draws zero 429s", async () => {
    const c = budgeted();
    const emulator = slow;
    const run = await c.createRun({ prompt: "burst" });
    await Promise.all(Array.from({ length: 100 }, () => c.getRun(run.id)));
    const stats = emulator.control.stats();
    expect(stats.byRoute.getRun).toBe(100);
    expect(stats.rateLimited).toBe(0);
  });

  it("15 creates at once: 10 go through, 5 wait for the window, zero 429s", async () => {
    const c = budgeted();
    const emulator = slow;
    const runs = await Promise.all(Array.from({ length: 15 }, (_, i) => c.createRun({ prompt: `batch ${i}` })));
    expect(new Set(runs.map((r) => r.id)).size).toBe(15);
    expect(emulator.control.stats().rateLimited).toBe(0);
  });

  it("without the client's budget the same burst does draw 429s (the limits are real)", async () => {
    const raw = await Promise.all(
      Array.from({ length: 70 }, () =>
        fetch(`${emulator.url}/v1/organizations/1/agent/run/1`, { headers: { authorization: "Bearer token-org-1" } }).then((r) => r.status),
      ),
    );
    expect(raw.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

/**
 * The client against the emulator as real deployments behave (facts.md), over real HTTP: both
 * error styles, the logs on either path, every known status, the optional list endpoints with and
 * without them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";
import {
  AgentRunClient,
  AuthenticationError,
  BadRequestError,
  ClientRequestError,
  NotFoundError,
  PermissionError,
  RunStillGoingError,
  UnprocessableError,
  classifyRunStatus,
  createInProcessBudget,
  type AgentRunClientOptions,
  type RateBudget,
} from "../../../src/service/index.js";
import { nodeFetch } from "../../../src/http/node-fetch.js";
import { startScriptedServer } from "../../helpers/scripted-server.js";

const SCALE = 0.001;
let running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ timeScale: SCALE, rateLimits: false, defaultScript: { durationMs: 2_000, logSteps: 6 }, ...options });
  running.push(emu);
  return emu;
}

/** A client whose log lines are kept, to count them. */
function clientFor(emu: { url: string; token?: string; orgId?: number }, overrides: Partial<AgentRunClientOptions> = {}) {
  const logged: string[] = [];
  const client = new AgentRunClient({
    baseUrl: emu.url,
    token: emu.token ?? "emulator-token",
    orgId: emu.orgId ?? 1,
    timeScale: SCALE,
    backoff: { minMs: 5, maxMs: 20 },
    logger: { warn: (message) => logged.push(message) },
    ...overrides,
  });
  return { client, logged };
}

describe.each(["spec", "fastapi"] as const)("errors in the %s style", (errorStyle) => {
  it("401, 403 and 404 are their own classes and carry the server's words", async () => {
    const emu = await emulator({ errorStyle });
    const unauthorized = await clientFor(emu, { token: "not-a-token" })
      .client.getRun(1)
      .catch((e: unknown) => e);
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect((unauthorized as Error).message).toContain("Server said: invalid API token");
    const forbidden = await clientFor(emu, { orgId: 5 })
      .client.getRun(1)
      .catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(PermissionError);
    expect((forbidden as Error).message).toContain("no access to organization 5");
    const missing = await clientFor(emu)
      .client.getRun(77)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toMatch(
      errorStyle === "fastapi" ? /Server said: Agent run not found\./ : /Server said: agent run 77 not found/,
    );
  });

  it("a rejected field is named: the error class, its fields and its message", async () => {
    const emu = await emulator({ errorStyle, repositories: [{ id: 12, full_name: "octo-org/widgets" }] });
    const { client } = clientFor(emu);
    const error = await client.createRun({ prompt: "fix it", repo_id: 99 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorStyle === "fastapi" ? UnprocessableError : BadRequestError);
    const status = errorStyle === "fastapi" ? 422 : 400;
    expect((error as UnprocessableError).status).toBe(status);
    expect((error as UnprocessableError).rejectedFields).toEqual(["repo_id"]);
    expect((error as Error).message).toContain(`The service rejected \`repo_id\` (${status})`);
    expect((error as Error).message).toContain("Server said: repo_id: repository 99 is not a repository of organization 1");
    expect(emu.control.stats().runsCreated).toBe(0);
  });

  it("a resume of a run still working (409) says why", async () => {
    const emu = await emulator({ errorStyle });
    emu.control.script({ durationMs: 3_600_000 });
    const { client } = clientFor(emu);
    const run = await client.createRun({ prompt: "long" });
    const error = await client.resumeRun(run.id, "more").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientRequestError);
    expect((error as Error).message).toMatch(/\(409\).*still running/);
  });
});

describe("the logs endpoint at either path", () => {
  async function finishedRun(emu: RunningEmulator): Promise<number> {
    const run = await clientFor(emu).client.createRun({ prompt: "p" });
    emu.control.advanceTime(60_000);
    return run.id;
  }

  it("a deployment that serves only /v1/alpha/: one 404 on the spec's path, then the alpha path for good, said once", async () => {
    const emu = await emulator({ endpoints: { logs: ["alpha"] } });
    const runId = await finishedRun(emu);
    const { client, logged } = clientFor(emu);
    expect(client.logsPath).toBeUndefined();
    const page = await client.listLogs(runId, { limit: 4 });
    expect(page.logs).toHaveLength(4);
    const all: string[] = [];
    for await (const entry of client.iterateLogs(runId, { pageSize: 4 })) all.push(String(entry.message_type));
    expect(all).toHaveLength(6);
    expect(client.logsPath).toBe("alpha");
    expect(emu.control.stats().byRoute).toMatchObject({ runLogs: 1, runLogsAlpha: 3 });
    expect(logged).toEqual([expect.stringContaining("/v1/alpha/organizations/{org_id}/agent/run/{id}/logs")]);
  });

  it("a deployment that serves the spec's path never sees the alpha path", async () => {
    const emu = await emulator({ endpoints: { logs: ["spec"] } });
    const runId = await finishedRun(emu);
    const { client, logged } = clientFor(emu);
    await client.listLogs(runId);
    await client.listLogs(runId);
    expect(client.logsPath).toBe("spec");
    expect(emu.control.stats().byRoute.runLogsAlpha).toBeUndefined();
    expect(logged).toEqual([]);
  });

  it("a pinned path is the only one asked, even when it is the one that is missing", async () => {
    const emu = await emulator({ endpoints: { logs: ["spec"] } });
    const runId = await finishedRun(emu);
    const { client } = clientFor(emu, { logsPath: "alpha" });
    await expect(client.listLogs(runId)).rejects.toThrow(NotFoundError);
    expect(emu.control.stats().byRoute).toMatchObject({ runLogsAlpha: 1 });
    expect(emu.control.stats().byRoute.runLogs).toBeUndefined();
  });

  it("a missing run is 404 on both paths: NotFoundError, and nothing is remembered", async () => {
    const emu = await emulator();
    const { client, logged } = clientFor(emu);
    const error = await client.listLogs(404).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).path).toBe("/v1/organizations/1/agent/run/404/logs");
    expect(client.logsPath).toBeUndefined();
    expect(logged).toEqual([]);
  });

  it("a bad logs path setting is refused when the client is made", () => {
    expect(() => new AgentRunClient({ baseUrl: "http://127.0.0.1:1", token: "t", orgId: 1, logsPath: "beta" as never })).toThrow(
      /logs path must be auto, spec or alpha/,
    );
  });
});

describe("every status seen in real deployments, over HTTP", () => {
  it.each([
    ["STOPPED", "stopped"],
    ["CANCELLED", "stopped"],
    ["TIMEOUT", "failed"],
    ["OUT_OF_TOKENS", "failed"],
    ["PAUSED", "waiting_for_input"],
    ["COMPLETE", "succeeded"],
  ] as const)("a run that ends %s ends the watch as %s", async (finalStatus, phase) => {
    const emu = await emulator({ statusVocabulary: "deployment" });
    emu.control.script({ finalStatus, outcome: phase === "succeeded" ? "completed" : "failed" });
    const { client, logged } = clientFor(emu);
    const run = await client.createRun({ prompt: "p" });
    const done = await client.waitForRun(run.id, { intervalMs: { initial: 2, max: 5 }, deadline: Date.now() + 5_000 });
    expect(done.status).toBe(finalStatus);
    expect(classifyRunStatus(done.status)).toBe(phase);
    expect(logged).toEqual([]);
  });

  it("a status never seen before keeps the watch going to its deadline, and is logged once", async () => {
    const emu = await emulator();
    emu.control.script({ finalStatus: "HIBERNATING" });
    const { client, logged } = clientFor(emu);
    const run = await client.createRun({ prompt: "p" });
    let polls = 0;
    const error = await client
      .waitForRun(run.id, { intervalMs: { initial: 5, max: 5 }, deadline: Date.now() + 300, onUpdate: () => polls++ })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStillGoingError);
    expect((error as RunStillGoingError).lastRun.status).toBe("HIBERNATING");
    expect(emu.control.stats().byRoute.getRun).toBeGreaterThan(3);
    expect(logged).toEqual([expect.stringContaining('run status "HIBERNATING"')]);
  });
});

/** A budget that counts what it grants, around the real one. */
function countingBudget(): { budget: RateBudget; granted: string[] } {
  const inner = createInProcessBudget({ timeScale: SCALE });
  const granted: string[] = [];
  const budget: RateBudget = {
    acquire: async (kind, options) => {
      const slot = await inner.acquire(kind, options);
      granted.push(kind);
      return slot;
    },
    giveBack: (slot) => inner.giveBack(slot),
    waiting: (kind) => inner.waiting(kind),
    pause: (kind, ms) => inner.pause(kind, ms),
    busy: (kind) => inner.busy(kind),
    usage: () => inner.usage(),
  };
  return { budget, granted };
}

describe("optional endpoints: detected, never assumed", () => {
  it("listRuns pages newest first with filters, within the shared rate budget", async () => {
    const emu = await emulator();
    const { budget, granted } = countingBudget();
    const { client } = clientFor(emu, { budget });
    for (let i = 0; i < 3; i++) await client.createRun({ prompt: `p${i}`, metadata: { n: i } });
    const listing = await client.listRuns({ limit: 2, source_type: "API" });
    expect(listing.kind).toBe("page");
    if (listing.kind !== "page") return;
    expect(listing.page).toMatchObject({ total: 3, page: 1, size: 2, pages: 2 });
    expect(listing.page.items.map((r) => r.metadata?.n)).toEqual([2, 1]);
    expect(granted).toEqual(["create", "create", "create", "read"]);
    await expect(client.listRuns({ limit: 101 })).rejects.toThrow(/limit must be between 1 and 100/);
  });

  it("without the endpoint (404): `unsupported`, one log line, and the client does not ask again", async () => {
    const emu = await emulator({ endpoints: { listRuns: false, listRepositories: false } });
    const { client, logged } = clientFor(emu);
    expect(await client.listRuns()).toEqual({ kind: "unsupported", endpoint: "listRuns" });
    expect(await client.listRuns({ skip: 100 })).toEqual({ kind: "unsupported", endpoint: "listRuns" });
    expect(await client.listRepositories()).toEqual({ kind: "unsupported", endpoint: "listRepositories" });
    expect(client.isUnsupported("listRuns")).toBe(true);
    expect(emu.control.stats().byRoute).toMatchObject({ listRuns: 1, listRepositories: 1 });
    expect(logged).toEqual([
      expect.stringContaining("no /v1/organizations/{org_id}/agent/runs endpoint (404)"),
      expect.stringContaining("no /v1/organizations/{org_id}/repos endpoint (404)"),
    ]);
  });

  it("a 405 turns the feature off too; other failures are errors, not `unsupported`", async () => {
    const server = await startScriptedServer([
      { status: 405, body: { detail: "Method Not Allowed" } },
      { status: 403, body: { message: "no", status_code: 403 } },
    ]);
    running.push(server);
    const { client, logged } = clientFor({ url: server.url });
    expect((await client.listRuns()).kind).toBe("unsupported");
    await expect(client.listRepositories()).rejects.toThrow(PermissionError);
    expect(client.isUnsupported("listRepositories")).toBe(false);
    expect(logged).toHaveLength(1);
  });
});

describe("requests sent ahead (the Action's head start)", () => {
  const repos = (emu: RunningEmulator) => `/v1/organizations/${emu.orgId}/repos`;

  it("the first call to the same address takes the answer over, whatever the order of the query, counted by the budget; the next call sends", async () => {
    const emu = await emulator({ repositories: [{ id: 31, full_name: "octo-org/widgets" }] });
    const url = new URL(`${emu.url}${repos(emu)}?limit=100&skip=0`);
    const response = nodeFetch(url, { method: "GET", headers: { accept: "application/json", authorization: `Bearer ${emu.token}` } });
    const granted: string[] = [];
    const budget = createInProcessBudget({ timeScale: SCALE });
    const counting: RateBudget = { ...budget, acquire: (kind, options) => (granted.push(kind), budget.acquire(kind, options)) };
    const { client } = clientFor(emu, { budget: counting, sentAhead: [{ method: "GET", url, response }], fetch: nodeFetch });

    const first = await client.listRepositories({ skip: 0, limit: 100 });
    expect(first).toMatchObject({ kind: "page", page: { items: [{ id: 31, full_name: "octo-org/widgets" }] } });
    expect(emu.control.stats().byRoute).toMatchObject({ listRepositories: 1 });
    expect(granted).toEqual(["read"]);
    await client.listRepositories({ skip: 0, limit: 100 });
    expect(emu.control.stats().byRoute).toMatchObject({ listRepositories: 2 });
  });

  it("one that failed is retried as any failure; one for another address is never used", async () => {
    const emu = await emulator({ repositories: [{ id: 31, full_name: "octo-org/widgets" }] });
    const failed = Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }));
    failed.catch(() => undefined);
    const elsewhere = nodeFetch(new URL(`${emu.url}${repos(emu)}?skip=100&limit=100`), {
      method: "GET",
      headers: { authorization: `Bearer ${emu.token}` },
    });
    const { client } = clientFor(emu, {
      fetch: nodeFetch,
      sentAhead: [
        { method: "GET", url: new URL(`${emu.url}${repos(emu)}?skip=0&limit=100`), response: failed },
        { method: "GET", url: new URL(`${emu.url}${repos(emu)}?skip=100&limit=100`), response: elsewhere },
      ],
    });
    await elsewhere;
    const listing = await client.listRepositories({ skip: 0, limit: 100 });
    expect(listing.kind).toBe("page");
    // The one sent ahead for page 2, and this call's own retry of page 1.
    expect(emu.control.stats().byRoute).toMatchObject({ listRepositories: 2 });
  });
});

/**
 * `findInterruptedRun` over real HTTP: against the emulator's runs list (and without it), and
 * against scripted answers for what the emulator does not do (time stamps without a zone, a list
 * that is not newest first, short pages).
 */
import { afterEach, describe, expect, it } from "vitest";
import { withBridgeTaskId } from "../../../src/core/metadata.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../../src/emulator/index.js";
import { AgentRunClient, RequestValidationError, findInterruptedRun, parseServiceTimestamp } from "../../../src/service/index.js";
import { startScriptedServer, type ScriptedResponse } from "../../helpers/scripted-server.js";

let running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await startEmulator({ rateLimits: false, timeScale: 0.001, ...options });
  running.push(emu);
  return emu;
}

function clientFor(url: string, logged: string[] = []) {
  return new AgentRunClient({
    baseUrl: url,
    token: "emulator-token",
    orgId: 1,
    timeScale: 0.001,
    backoff: { minMs: 5, maxMs: 20 },
    logger: { warn: (m) => logged.push(m) },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs created by other deliveries, then the moment "the create was sent", then `after` more runs. */
async function history(client: AgentRunClient, before: number, after: number): Promise<number> {
  for (let i = 0; i < before; i++) await client.createRun({ prompt: `old ${i}`, metadata: { delivery_id: `old-${i}` } });
  await sleep(20);
  const sentAt = Date.now();
  await sleep(5);
  for (let i = 0; i < after; i++) await client.createRun({ prompt: `new ${i}`, metadata: { delivery_id: `new-${i}` } });
  return sentAt;
}

const listRequests = (emu: RunningEmulator) => emu.control.stats().byRoute.listRuns ?? 0;

describe("findInterruptedRun against the emulator", () => {
  it("finds the run by delivery id and bridge task id, several pages down, and stops there", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    const sentAt = Date.now() - 1;
    const ours = await client.createRun({
      prompt: "ours",
      metadata: withBridgeTaskId({ delivery_id: "d-1", source_type: "GIT_HOST" }, 17),
    });
    for (let i = 0; i < 12; i++) await client.createRun({ prompt: `later ${i}`, metadata: { delivery_id: `d-${i + 2}` } });

    const found = await findInterruptedRun(client, {
      sentAfter: sentAt,
      match: { delivery_id: "d-1", bridge_task_id: 17 },
      pageSize: 5,
      clockSkewMs: 0,
    });
    expect(found).toMatchObject({ kind: "found", pagesRead: 3, run: { id: ours.id, metadata: { bridge_task_id: "17" } } });
    expect(listRequests(emu)).toBe(3);
  });

  it("every given key must match: the right delivery with another task id is not ours", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    const sentAt = Date.now() - 1;
    await client.createRun({ prompt: "a retry of another task", metadata: withBridgeTaskId({ delivery_id: "d-1" }, 16) });
    const result = await findInterruptedRun(client, { sentAfter: sentAt, match: { delivery_id: "d-1", bridge_task_id: "17" } });
    expect(result).toEqual({ kind: "not_found", pagesRead: 1 });
  });

  it("not_found once the listing reaches runs created before the create was sent", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    const sentAt = await history(client, 12, 7);
    const result = await findInterruptedRun(client, {
      sentAfter: sentAt,
      match: { delivery_id: "lost" },
      pageSize: 5,
      clockSkewMs: 0,
      maxPages: 10,
    });
    // Seven new runs fill a page and a half: the first old run is on page 2.
    expect(result).toEqual({ kind: "not_found", pagesRead: 2 });
    expect(listRequests(emu)).toBe(2);
  });

  it("the clock-skew allowance widens the window backwards", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    const sentAt = await history(client, 12, 2);
    const wide = await findInterruptedRun(client, { sentAfter: sentAt, match: { delivery_id: "lost" }, pageSize: 5, maxPages: 10 });
    // Five minutes back covers every run here: the listing ends with the list itself.
    expect(wide).toEqual({ kind: "not_found", pagesRead: 3 });
  });

  it("not_found at the end of the list, even when every run is newer", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    await client.createRun({ prompt: "x", metadata: { delivery_id: "other" } });
    expect(await findInterruptedRun(client, { sentAfter: 0, match: { delivery_id: "lost" }, clockSkewMs: 0 })).toEqual({
      kind: "not_found",
      pagesRead: 1,
    });
  });

  it("inconclusive when the pages allowed do not reach back to the send", async () => {
    const emu = await emulator();
    const client = clientFor(emu.url);
    const sentAt = await history(client, 3, 12);
    const result = await findInterruptedRun(client, {
      sentAfter: sentAt,
      match: { delivery_id: "lost" },
      pageSize: 5,
      maxPages: 2,
      clockSkewMs: 0,
    });
    expect(result).toMatchObject({ kind: "inconclusive", pagesRead: 2, reason: expect.stringContaining("2 page(s)") });
    expect(listRequests(emu)).toBe(2);
  });

  it("unsupported without the list endpoint: said once, and not asked again", async () => {
    const emu = await emulator({ endpoints: { listRuns: false } });
    const logged: string[] = [];
    const client = clientFor(emu.url, logged);
    const query = { sentAfter: Date.now(), match: { delivery_id: "lost" } };
    expect(await findInterruptedRun(client, query)).toEqual({ kind: "unsupported" });
    expect(await findInterruptedRun(client, query)).toEqual({ kind: "unsupported" });
    expect(listRequests(emu)).toBe(1);
    expect(logged).toEqual([expect.stringContaining("crash recovery")]);
  });

  it("refuses to match on nothing (it would adopt any recent run)", async () => {
    const emu = await emulator();
    await expect(findInterruptedRun(clientFor(emu.url), { sentAfter: Date.now(), match: {} })).rejects.toThrow(RequestValidationError);
    await expect(findInterruptedRun(clientFor(emu.url), { sentAfter: Date.now(), match: { delivery_id: "" } })).rejects.toThrow(
      /delivery_id or bridge_task_id/,
    );
    expect(listRequests(emu)).toBe(0);
  });
});

describe("findInterruptedRun against listings the emulator does not produce", () => {
  const run = (id: number, createdAt: string, deliveryId = `d-${id}`) => ({
    id,
    status: "ACTIVE",
    created_at: createdAt,
    metadata: { delivery_id: deliveryId },
  });
  const page = (items: unknown[], total?: number) => ({
    status: 200,
    body: { items, ...(total !== undefined ? { total } : {}), page: 1, size: items.length },
  });

  async function serve(script: ScriptedResponse[]) {
    const server = await startScriptedServer(script);
    running.push(server);
    return { server, client: clientFor(server.url) };
  }

  it("reads a created_at without a time zone as UTC, whatever the machine's zone", async () => {
    const previous = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      expect(parseServiceTimestamp("2025-06-21 11:20:04.338398")).toBe(Date.UTC(2025, 5, 21, 11, 20, 4, 338));
      expect(parseServiceTimestamp("2025-06-21T11:20:04+02:00")).toBe(Date.UTC(2025, 5, 21, 9, 20, 4));
      expect(parseServiceTimestamp("not a time")).toBeUndefined();
      // The send was at 11:20:00 UTC: a run at 11:19:00 (no zone) is before it, so the search stops there.
      const { client, server } = await serve([page([run(9, "2025-06-21 11:21:00"), run(8, "2025-06-21 11:19:00")], 50)]);
      const result = await findInterruptedRun(client, {
        sentAfter: Date.UTC(2025, 5, 21, 11, 20, 0),
        match: { delivery_id: "lost" },
        clockSkewMs: 0,
      });
      expect(result).toEqual({ kind: "not_found", pagesRead: 1 });
      expect(server.requests.map((r) => r.path)).toEqual(["/v1/organizations/1/agent/runs?skip=0&limit=100"]);
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it("a listing that is not newest first is inconclusive, never not_found", async () => {
    const { client } = await serve([page([run(1, "2025-06-21T10:00:00Z"), run(2, "2025-06-21T12:00:00Z")], 2)]);
    const result = await findInterruptedRun(client, {
      sentAfter: Date.UTC(2025, 5, 21, 11),
      match: { delivery_id: "lost" },
      clockSkewMs: 0,
    });
    expect(result).toMatchObject({ kind: "inconclusive", reason: expect.stringContaining("newest first") });
  });

  it("a service that serves fewer runs per page than asked is read on, by its total", async () => {
    const late = "2025-06-21T12:00:00Z";
    const { client, server } = await serve([page([run(4, late), run(3, late)], 4), page([run(2, late), run(1, late, "ours")], 4)]);
    const result = await findInterruptedRun(client, { sentAfter: Date.UTC(2025, 5, 21, 11), match: { delivery_id: "ours" } });
    expect(result).toMatchObject({ kind: "found", run: { id: 1 }, pagesRead: 2 });
    expect(server.requests[1]!.path).toBe("/v1/organizations/1/agent/runs?skip=2&limit=100");
  });
});

import { describe, expect, it } from "vitest";
import { LOGS_PAGE_MAX, MESSAGE_TYPES, TOOL_NAMES } from "../../src/service/wire.js";
import type { LogEntry } from "../../src/service/wire.js";
import { createRun, emulator, finishAllRuns, getRun, runLogs } from "./helpers.js";

/** Walks the pages as spec §4.4 says: advance skip by limit until a page holds fewer than limit. */
async function readAllPages(emu: Awaited<ReturnType<typeof emulator>>, runId: number, limit: number) {
  const entries: LogEntry[] = [];
  const pages: Array<{ page: number; size: number; pages: number; total: number; count: number }> = [];
  for (let skip = 0; ; skip += limit) {
    const answer = await runLogs(emu, runId, `?skip=${skip}&limit=${limit}`);
    expect(answer.status).toBe(200);
    const b = answer.body;
    pages.push({ page: b.page!, size: b.size!, pages: b.pages!, total: b.total_logs!, count: b.logs.length });
    entries.push(...b.logs);
    if (b.logs.length < limit) break;
  }
  return { entries, pages };
}

describe("logs pagination figures", () => {
  it.each([0, 1, 99, 100, 101, 250])("%i entries", async (count) => {
    const emu = await emulator({ defaultScript: { logSteps: count }, rateLimits: false });
    const run = await createRun(emu, { prompt: "Rename the config loader" });
    finishAllRuns(emu);

    const first = await runLogs(emu, run.body.id);
    expect(first.body).toMatchObject({
      total_logs: count,
      page: 1,
      size: LOGS_PAGE_MAX,
      pages: Math.ceil(count / LOGS_PAGE_MAX),
    });
    expect(first.body.logs).toHaveLength(Math.min(count, LOGS_PAGE_MAX));

    const { entries, pages } = await readAllPages(emu, run.body.id, LOGS_PAGE_MAX);
    expect(entries).toHaveLength(count);
    // Every page reports the same total and page count; page numbers count up from 1.
    expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
    for (const p of pages) expect(p).toMatchObject({ total: count, size: LOGS_PAGE_MAX, pages: Math.ceil(count / LOGS_PAGE_MAX) });
    // Entries keep time order across pages.
    const times = entries.map((e) => Date.parse(e.created_at!));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Pages of another size give the same sequence: no overlap, no gap at page boundaries.
    if (count > 0) {
      const small = await readAllPages(emu, run.body.id, 7);
      expect(small.entries).toEqual(entries);
      expect(small.pages[0]!.pages).toBe(Math.ceil(count / 7));
      const last = await runLogs(emu, run.body.id, `?skip=${count - 1}&limit=1`);
      expect(last.body.logs).toEqual([entries.at(-1)]);
      expect(last.body.page).toBe(count);
      expect(entries.at(-1)!.message_type).toBe("FINAL_ANSWER");
    }
    const beyond = await runLogs(emu, run.body.id, `?skip=${count + 5}&limit=10`);
    expect(beyond.body).toMatchObject({ logs: [], total_logs: count, page: Math.floor((count + 5) / 10) + 1, size: 10 });
  });

  it("page is floor(skip/limit)+1 for a skip that is not a multiple of limit", async () => {
    const emu = await emulator({ defaultScript: { logSteps: 30 } });
    const run = await createRun(emu, { prompt: "p" });
    finishAllRuns(emu);
    const answer = await runLogs(emu, run.body.id, "?skip=25&limit=10");
    expect(answer.body).toMatchObject({ page: 3, size: 10, pages: 3, total_logs: 30 });
    expect(answer.body.logs).toHaveLength(5);
  });
});

describe("trace content (spec §2.7)", () => {
  const messageTypes = new Set<string>(MESSAGE_TYPES);
  const toolNames = new Set<string>(Object.values(TOOL_NAMES));

  function checkPopulation(entries: LogEntry[]) {
    for (const e of entries) {
      expect(messageTypes.has(e.message_type!), e.message_type!).toBe(true);
      if (e.tool_name !== null) expect(toolNames.has(e.tool_name!)).toBe(true);
      switch (e.message_type) {
        case "ACTION":
          expect(e.tool_name).not.toBeNull();
          expect(e.tool_input).toBeTypeOf("object");
          expect(e.tool_output).toBeTypeOf("object");
          if (e.tool_name === TOOL_NAMES.search) {
            expect(e.tool_input).toEqual({ pattern: expect.any(String), path: expect.any(String) });
            expect((e.tool_output as { matches: unknown[] }).matches.length).toBeGreaterThan(0);
            for (const m of (e.tool_output as { matches: unknown[] }).matches) {
              expect(m).toEqual({ file: expect.any(String), line: expect.any(Number), text: expect.any(String) });
            }
          } else {
            const input = e.tool_input as { path: string; content: string };
            expect(input).toEqual({ path: expect.any(String), content: expect.any(String) });
            expect(e.tool_output).toEqual({ bytes_written: Buffer.byteLength(input.content) });
          }
          break;
        case "PLAN_EVALUATION":
          expect(e.thought).toEqual(expect.any(String));
          break;
        case "FINAL_ANSWER":
        case "ERROR":
          expect(e.observation).not.toBeNull();
          break;
      }
    }
  }

  it("a completed run: plan, actions on the prompt's words, PR entries, final answer = summary", async () => {
    const emu = await emulator({ defaultScript: { logSteps: 40, pullRequests: 2 } });
    const run = await createRun(emu, { prompt: "Migrate the payment webhook handler in src/payments/webhook.ts" });
    finishAllRuns(emu);
    const logs = (await runLogs(emu, run.body.id)).body;
    checkPopulation(logs.logs);
    const types = logs.logs.map((e) => e.message_type);
    expect(types[0]).toBe("PLAN_EVALUATION");
    expect(types.at(-1)).toBe("FINAL_ANSWER");
    expect(types.filter((t) => t === "INITIAL_PR_GENERATION")).toHaveLength(2);
    expect(types.filter((t) => t === "PR_EVALUATION")).toHaveLength(2);
    const tools = logs.logs.map((e) => e.tool_name).filter(Boolean);
    expect(new Set(tools)).toEqual(new Set([TOOL_NAMES.search, TOOL_NAMES.write]));
    const text = JSON.stringify(logs.logs);
    expect(text).toContain("src/payments/webhook.ts");
    expect(text).toContain("payment");
    const final = await getRun(emu, run.body.id);
    expect(logs.logs.at(-1)!.observation).toBe(final.body.summary);
  });

  it("a failed run: an ERROR entry with the error, no PR entries", async () => {
    const emu = await emulator({ defaultScript: { outcome: "failed", logSteps: 9, errorMessage: "tests kept failing" } });
    const run = await createRun(emu, { prompt: "Upgrade the ORM" });
    finishAllRuns(emu);
    const logs = (await runLogs(emu, run.body.id)).body.logs;
    checkPopulation(logs);
    expect(logs).toHaveLength(9);
    expect(logs.at(-1)).toMatchObject({ message_type: "ERROR", observation: expect.objectContaining({ error: "tests kept failing" }) });
    expect(logs.some((e) => e.message_type === "INITIAL_PR_GENERATION" || e.message_type === "FINAL_ANSWER")).toBe(false);
  });

  it("is deterministic for the same run id and prompt", async () => {
    const a = await emulator();
    const b = await emulator();
    // Timestamps and the emulator's own address differ between the two; the content must not.
    const strip = (entries: LogEntry[]) =>
      JSON.parse(
        JSON.stringify(entries.map(({ created_at: _c, ...rest }) => rest))
          .replaceAll(a.url, "URL")
          .replaceAll(b.url, "URL"),
      );
    const ra = await createRun(a, { prompt: "Same prompt twice" });
    const rb = await createRun(b, { prompt: "Same prompt twice" });
    finishAllRuns(a);
    finishAllRuns(b);
    const la = (await runLogs(a, ra.body.id)).body.logs;
    const lb = (await runLogs(b, rb.body.id)).body.logs;
    expect(strip(la)).toEqual(strip(lb));
    const other = await createRun(a, { prompt: "A different prompt" });
    finishAllRuns(a);
    expect(strip((await runLogs(a, other.body.id)).body.logs)).not.toEqual(strip(la));
  });

  it("exact entry counts for every small budget, with and without pull requests", async () => {
    const emu = await emulator({ rateLimits: false });
    for (let steps = 0; steps <= 8; steps++) {
      for (const pullRequests of [0, 2]) {
        for (const outcome of ["completed", "failed"] as const) {
          emu.control.script({ logSteps: steps, pullRequests, outcome });
          const run = await createRun(emu, { prompt: `budget ${steps}` });
          finishAllRuns(emu);
          const logs = (await runLogs(emu, run.body.id)).body;
          expect(logs.total_logs, `${steps} ${pullRequests} ${outcome}`).toBe(steps);
          checkPopulation(logs.logs);
          if (steps > 0) expect(logs.logs.at(-1)!.message_type).toBe(outcome === "completed" ? "FINAL_ANSWER" : "ERROR");
        }
      }
    }
  });
});

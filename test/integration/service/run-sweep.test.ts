/**
 * `sweepRuns` over real HTTP against the emulator's runs list: the wanted runs spread over more
 * pages than their number needs (an organization's other runs between them) are all seen, while a
 * stretch of pages past the bound that shows none of them ends the sweep.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createInProcessBudget } from "../../../src/service/budget.js";
import { AgentRunClient } from "../../../src/service/index.js";
import { sweepRuns } from "../../../src/service/run-sweep.js";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<AgentRunClient> {
  emulator = await startEmulator({ rateLimits: false, timeScale: 0.001 });
  // The emulator counts nothing here: a budget wide enough that hundreds of creates do not wait on the client's windows.
  const wide = { points: 10_000, durationMs: 1_000 };
  const budget = createInProcessBudget({ windows: { shared: wide, create: wide }, marginMs: 0 });
  return new AgentRunClient({ baseUrl: emulator.url, token: emulator.token, orgId: emulator.orgId, timeScale: 0.001, budget });
}

/** Creates the runs in order; `wanted` marks the ones the sweep looks for. Returns their ids. */
async function createInOrder(client: AgentRunClient, layout: Array<"wanted" | number>): Promise<number[]> {
  const wanted: number[] = [];
  let n = 0;
  for (const part of layout) {
    if (part === "wanted") wanted.push((await client.createRun({ prompt: `run ${n++}` })).id);
    else await Promise.all(Array.from({ length: part }, () => client.createRun({ prompt: `run ${n++}` })));
  }
  return wanted;
}

const listPages = () => emulator!.control.stats().byRoute.listRuns ?? 0;

describe("sweepRuns against the emulator's runs list", () => {
  it("reads past the page bound while each page shows wanted runs it had not seen", async () => {
    const client = await start();
    // Newest first, one wanted run a page over four pages; three wanted runs would allow three pages.
    const wanted = await createInOrder(client, ["wanted", 100, "wanted", 100, "wanted", 100, "wanted"]);
    const oldestSentAt = Date.now() - 60_000;

    const sweep = await sweepRuns(client, { runIds: new Set(wanted), oldestSentAt, maxPages: 3 });

    expect(sweep).toMatchObject({ kind: "swept", pagesRead: 4, complete: true });
    if (sweep.kind !== "swept") throw new Error("unreachable");
    expect([...sweep.seen.keys()].sort((a, b) => a - b)).toEqual(wanted);
    expect(listPages()).toBe(4);
  });

  it("stops at the bound on a page that shows no wanted run it had not seen, leaving the rest to their own reads", async () => {
    const client = await start();
    const [oldest, newest] = await createInOrder(client, ["wanted", 400, "wanted"]);
    const oldestSentAt = Date.now() - 60_000;

    const sweep = await sweepRuns(client, { runIds: new Set([oldest!, newest!]), oldestSentAt, maxPages: 3 });

    expect(sweep).toMatchObject({ kind: "swept", pagesRead: 3, complete: false });
    if (sweep.kind !== "swept") throw new Error("unreachable");
    expect([...sweep.seen.keys()]).toEqual([newest]);
    expect(listPages()).toBe(3);
  });
});

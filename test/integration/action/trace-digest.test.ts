/**
 * The result comment's trace digest reads at most MAX_TRACE_PAGES pages of the run's log, whatever
 * the logs endpoint (ALPHA) says: against a real server whose first page claims 5,000 entries and
 * whose later pages stop saying how many there are and never end.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readTraceDigest } from "../../../src/action/runs.js";
import { AgentRunClient } from "../../../src/service/client.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

/** A logs endpoint that answers every page full; only the first page gives a total. */
async function endlessLogs(): Promise<{ url: string; pagesServed: () => number }> {
  let pages = 0;
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    pages++;
    const skip = Number(url.searchParams.get("skip") ?? 0);
    const logs = Array.from({ length: 100 }, (_, i) => ({
      agent_run_id: 7,
      created_at: "2026-11-27T10:00:00Z",
      message_type: "ACTION",
      thought: `step ${skip + i}`,
      tool_name: "bash",
    }));
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ id: 7, status: "COMPLETE", logs, total_logs: skip === 0 ? 5_000 : null }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, pagesServed: () => pages };
}

describe("readTraceDigest", () => {
  it("stops after 20 pages when the service never says the log ended", async () => {
    const service = await endlessLogs();
    const client = new AgentRunClient({ baseUrl: service.url, token: "t0ken-for-test", orgId: 1, logsPath: "spec" });
    const digest = await readTraceDigest(client, 7, { deadline: Date.now() + 25_000, triggerPhrase: "/agent" });
    expect(digest).not.toBeNull();
    expect(service.pagesServed()).toBe(20);
  }, 30_000);
});

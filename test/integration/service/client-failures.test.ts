import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AgentRunClient,
  AuthenticationError,
  ConfigurationError,
  DeadlineError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  UnprocessableError,
  BadRequestError,
  ClientRequestError,
} from "../../../src/service/index.js";
import { nodeFetch } from "../../../src/http/node-fetch.js";
import { BRIDGE_VERSION } from "../../../src/version.js";
import { refusedPortUrl, startScriptedServer, type ScriptedResponse } from "../../helpers/scripted-server.js";

const TOKEN = "secret-token-value-123";
const run = (id = 7, extra: Record<string, unknown> = {}) => ({ id, organization_id: 1, status: "running", ...extra });

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});
// The same behaviour over Node's fetch (the CLI, the Action behind a proxy) and over node:http (the App and the Action, see src/http/node-fetch.ts).
describe.each([
  ["Node's fetch", globalThis.fetch],
  ["the node:http fetch", nodeFetch],
])("over %s", (_name, fetch) => {
  // Node's fetch compiles its undici on first use (tens of ms, far more on a loaded machine): done
  // once here, so that the client's 500 ms timeout below measures the server, not that compile.
  beforeAll(async () => {
    const warm = await startScriptedServer([{ status: 200, body: {} }]);
    try {
      await (await fetch(warm.url)).text();
    } finally {
      await warm.close();
    }
  });

  async function serve(script: ScriptedResponse[]) {
    const server = await startScriptedServer(script);
    closers.push(server.close);
    const client = new AgentRunClient({
      baseUrl: server.url,
      token: TOKEN,
      orgId: 1,
      timeScale: 0.001,
      backoff: { minMs: 5, maxMs: 20 },
      timeoutMs: 500,
      fetch,
    });
    return { server, client };
  }

  describe("AgentRunClient over HTTP: requests", () => {
    it("sends the spec's create body, bearer token and User-Agent, and nothing else", async () => {
      const { server, client } = await serve([{ status: 200, body: run(1) }]);
      const created = await client.createRun({ prompt: "fix it", metadata: { source_type: "GIT_HOST" }, repo_id: 5, agent_type: "native" });
      expect(created.id).toBe(1);
      expect(server.requests).toHaveLength(1);
      const [req] = server.requests;
      expect(req!.method).toBe("POST");
      expect(req!.path).toBe("/v1/organizations/1/agent/run");
      expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(req!.headers["user-agent"]).toBe(`agent-run-bridge/${BRIDGE_VERSION}`);
      expect(req!.body).toEqual({ prompt: "fix it", metadata: { source_type: "GIT_HOST" }, repo_id: 5, agent_type: "native" });
    });

    it("resume sends exactly agent_run_id and prompt", async () => {
      const { server, client } = await serve([{ status: 200, body: run(9) }]);
      await client.resumeRun(9, "and the tests too");
      expect(server.requests[0]!.path).toBe("/v1/organizations/1/agent/run/resume");
      expect(server.requests[0]!.body).toEqual({ agent_run_id: 9, prompt: "and the tests too" });
    });

    it("keeps unknown response fields and accepts nulls (tolerant reader)", async () => {
      const { client } = await serve([
        { status: 200, body: { id: 3, status: null, web_url: null, git_host_pull_requests: null, brand_new_field: { a: 1 } } },
      ]);
      const got = await client.getRun(3);
      expect(got.id).toBe(3);
      expect((got as Record<string, unknown>).brand_new_field).toEqual({ a: 1 });
    });

    it("a response without an id is a clear error", async () => {
      const { client } = await serve([{ status: 200, body: { status: "running" } }]);
      await expect(client.getRun(3)).rejects.toThrow(InvalidResponseError);
    });

    // The node:http fetch's own cap (the App's and the Action's); Node's fetch is capped by the client's own read, tested apart.
    it.runIf(fetch === nodeFetch)(
      "an answer over 64 MiB is a clear error, read once and not asked again (the same answer would come back)",
      async () => {
        const huge = { id: 3, status: "running", summary: "x".repeat(65 * 1024 * 1024) };
        const server = await startScriptedServer([
          { status: 200, body: huge },
          { status: 200, body: huge },
          { status: 200, body: run(3) },
        ]);
        closers.push(server.close);
        // A timeout far past the read's: on a loaded machine 64 MiB can take longer than the suite's 500 ms, and a timeout is retried.
        const client = new AgentRunClient({ baseUrl: server.url, token: TOKEN, orgId: 1, timeScale: 0.001, timeoutMs: 20_000, fetch });
        await expect(client.getRun(3)).rejects.toThrow(/too large|more than 64 MiB/);
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  describe("validation sends nothing", () => {
    const cases: Array<[string, Parameters<AgentRunClient["createRun"]>[0]]> = [
      ["empty prompt", { prompt: "   " }],
      ["bad agent type", { prompt: "x", agent_type: "claude" as never }],
      ["image not a data URI", { prompt: "x", images: ["https://example.com/a.png"] }],
      ["metadata an array", { prompt: "x", metadata: [1, 2] as never }],
      ["unknown field", { prompt: "x", source_type: "API" } as never],
    ];
    for (const [name, body] of cases) {
      it(name, async () => {
        const { server, client } = await serve([]);
        await expect(client.createRun(body)).rejects.toThrow(RequestValidationError);
        expect(server.requests).toHaveLength(0);
      });
    }

    it("logs limit outside 1..100 and bad run ids", async () => {
      const { server, client } = await serve([]);
      await expect(client.listLogs(1, { limit: 0 })).rejects.toThrow(/limit must be between 1 and 100/);
      await expect(client.listLogs(1, { limit: 101 })).rejects.toThrow(RequestValidationError);
      await expect(client.listLogs(1, { skip: -1 })).rejects.toThrow(RequestValidationError);
      await expect(client.getRun(0)).rejects.toThrow(RequestValidationError);
      expect(server.requests).toHaveLength(0);
    });

    it("configuration problems are listed together", () => {
      expect(() => new AgentRunClient({ baseUrl: "", token: "", orgId: 0 })).toThrow(ConfigurationError);
      expect(() => new AgentRunClient({ baseUrl: "", token: "", orgId: 0 })).toThrow(/base URL.*token.*organization id/);
    });
  });

  describe("errors say what to do and never carry the token", () => {
    const statuses: Array<[number, new (...args: never[]) => Error, RegExp]> = [
      [400, BadRequestError, /400/],
      [401, AuthenticationError, /AGENT_RUN_API_TOKEN/],
      [402, PaymentRequiredError, /allowance/],
      [403, PermissionError, /AGENT_RUN_ORG_ID/],
      [404, NotFoundError, /run id/],
      [409, ClientRequestError, /409/],
      [422, UnprocessableError, /422/],
    ];
    for (const [status, type, hint] of statuses) {
      it(`${status}`, async () => {
        const { server, client } = await serve([
          { status, body: { detail: [{ loc: ["body", "prompt"], msg: "field required", type: "missing" }] } },
        ]);
        const error = await client.getRun(5).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(type);
        const message = (error as Error).message;
        expect(message).toMatch(hint);
        expect(message).toContain("GET /v1/organizations/1/agent/run/5");
        expect(message).toContain("prompt: field required");
        expect(message).not.toContain("body.prompt");
        expect(message).not.toContain(TOKEN);
        expect(JSON.stringify(error)).not.toContain(TOKEN);
        expect((error as { status?: number }).status).toBe(status);
        expect(server.requests).toHaveLength(1);
      });
    }

    it("reads a `message` body too", async () => {
      const { client } = await serve([{ status: 404, body: { message: "Agent run not found" } }]);
      await expect(client.getRun(5)).rejects.toThrow(/Server said: Agent run not found/);
    });
  });

  describe("retries", () => {
    it("retries a read after 5xx and a dropped connection", async () => {
      const { server, client } = await serve([{ status: 503, body: { detail: "busy" } }, { drop: true }, { status: 200, body: run(5) }]);
      expect((await client.getRun(5)).id).toBe(5);
      expect(server.requests).toHaveLength(3);
    });

    it("gives up a read after its retries with the last error", async () => {
      const { server, client } = await serve(Array.from({ length: 10 }, () => ({ status: 500, body: { detail: "down" } })));
      await expect(client.getRun(5)).rejects.toThrow(ServerError);
      expect(server.requests).toHaveLength(6);
    });

    it("never repeats a create after a 500: the service may have started the run", async () => {
      const { server, client } = await serve([
        { status: 500, body: { detail: "oops" } },
        { status: 200, body: run(1) },
      ]);
      await expect(client.createRun({ prompt: "x" })).rejects.toThrow(ServerError);
      expect(server.requests).toHaveLength(1);
    });

    it("never repeats a create after a timeout", async () => {
      const { server, client } = await serve([
        { status: 200, body: run(1), delayMs: 1500 },
        { status: 200, body: run(2) },
      ]);
      await expect(client.createRun({ prompt: "x" })).rejects.toThrow(TimeoutError);
      expect(server.requests).toHaveLength(1);
    });

    it("never repeats a create after a dropped connection", async () => {
      const { server, client } = await serve([{ drop: true }, { status: 200, body: run(2) }]);
      const error = await client.createRun({ prompt: "x" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).certainlyNotSent).toBe(false);
      expect(server.requests).toHaveLength(1);
    });

    it("repeats a create after a 429 (the service did not act), honouring Retry-After", async () => {
      const { server, client } = await serve([
        { status: 429, body: { detail: "slow down" }, headers: { "retry-after": "1" } },
        { status: 200, body: run(4) },
      ]);
      const created = await client.createRun({ prompt: "x" });
      expect(created.id).toBe(4);
      expect(server.requests).toHaveLength(2);
      const gap = server.requests[1]!.at - server.requests[0]!.at;
      expect(gap).toBeGreaterThanOrEqual(950);
    });

    it("without Retry-After, a 429 backs off a couple of (scaled) seconds at least and does not use up retries", async () => {
      const storm = Array.from({ length: 8 }, () => ({ status: 429, body: { detail: "rate limit exceeded" } }));
      const { server, client } = await serve([...storm, { status: 200, body: run(8) }]);
      expect((await client.getRun(8)).id).toBe(8);
      expect(server.requests).toHaveLength(9);
      // timeScale 0.001 → the floor of 2 s is 2 ms: every retry waited at least that (the window, 60 ms, bounds it; see rate-limit-backoff.test.ts).
      for (let i = 1; i < server.requests.length; i++) {
        expect(server.requests[i]!.at - server.requests[i - 1]!.at).toBeGreaterThanOrEqual(2);
      }
    });

    it("a 429 whose Retry-After passes the deadline fails with the rate-limit error", async () => {
      const { server, client } = await serve([{ status: 429, body: {}, headers: { "retry-after": "120" } }]);
      await expect(client.getRun(1, { deadline: Date.now() + 2000 })).rejects.toThrow(RateLimitError);
      expect(server.requests).toHaveLength(1);
    });

    it("repeats a create when the connection was refused, and says how to fix it", async () => {
      const url = await refusedPortUrl();
      const client = new AgentRunClient({ baseUrl: url, token: TOKEN, orgId: 1, retries: 2, backoff: { minMs: 5, maxMs: 10 }, fetch });
      const error = await client.createRun({ prompt: "x" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).certainlyNotSent).toBe(true);
      expect((error as Error).message).toMatch(/ECONNREFUSED.*AGENT_RUN_API_URL/);
    });

    it("an aborted call is a DeadlineError", async () => {
      const { client } = await serve([{ status: 200, body: run(1), delayMs: 400 }]);
      const controller = new AbortController();
      setTimeout(() => controller.abort("user pressed Ctrl-C"), 50);
      await expect(client.getRun(1, { signal: controller.signal })).rejects.toThrow(DeadlineError);
    });
  });

  describe("waitForRun", () => {
    it("polls until a final status, reporting each change once", async () => {
      const { server, client } = await serve([
        { status: 200, body: run(2, { status: "PENDING" }) },
        { status: 200, body: run(2, { status: "ACTIVE" }) },
        { status: 200, body: run(2, { status: "ACTIVE" }) },
        { status: 200, body: run(2, { status: "SOMETHING_NEW" }) },
        { status: 200, body: run(2, { status: "COMPLETE", summary: "done" }) },
      ]);
      const seen: string[] = [];
      const final = await client.waitForRun(2, {
        intervalMs: { initial: 5, max: 10 },
        onUpdate: (r, phase) => seen.push(`${r.status}:${phase}`),
      });
      expect(final.summary).toBe("done");
      expect(seen).toEqual(["PENDING:in_progress", "ACTIVE:in_progress", "SOMETHING_NEW:unknown", "COMPLETE:succeeded"]);
      expect(server.requests).toHaveLength(5);
    });

    it("stops at the deadline with the last run and its link", async () => {
      const { client } = await serve(
        Array.from({ length: 50 }, () => ({ status: 200, body: run(2, { status: "ACTIVE", web_url: "http://x/runs/2" }) })),
      );
      const error = await client
        .waitForRun(2, { deadline: Date.now() + 150, intervalMs: { initial: 20, max: 20 } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeadlineError);
      expect((error as Error).message).toContain("http://x/runs/2");
      expect((error as { lastRun?: { status?: string } }).lastRun?.status).toBe("ACTIVE");
    });
  });
});

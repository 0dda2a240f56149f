/**
 * The service side of the benchmarks: an emulator with a token for the code under test and spare
 * "setup" tokens (so preparing a workload never spends the measured token's budget), a way to start
 * many runs at the same instant, and a fetch that notes when a watcher first saw each run finish.
 */
import type { AddressInfo } from "node:net";
import { AgentRunClient, API_PATHS, classifyRunStatus, isFinalPhase, type AgentRun } from "../../src/service/index.js";
import { buildEmulator, type EmulatorControl, type EmulatorOptions } from "../../src/emulator/index.js";

export const WATCHER_TOKEN = "bench-watcher-token";
export const BENCH_ORG_ID = 1;
/** The emulator's creation window: a setup token may start this many runs at once. */
const CREATES_PER_SETUP_TOKEN = 10;

/** One request as the emulator saw it arrive (before any check), timed on `performance.now()`. */
interface Arrival {
  atMs: number;
  method: string;
  path: string;
  token: string | undefined;
}

export interface BenchEmulator {
  url: string;
  control: EmulatorControl;
  /** Tokens other than the watcher's, each with a fresh budget, for preparing the workload. */
  setupTokens: string[];
  /** Further tokens asked for with `extraTokens` (e.g. one per cold start, so none shares a window). */
  extraTokens: string[];
  /** Successful reads (run or logs) of each run by the watcher's token. */
  watcherReadsPerRun: Map<number, number>;
  /** Successful pages of the runs list read by the watcher's token (each shows up to 100 runs' statuses). */
  watcherListPages: { count: number };
  /** Calls `listener` as each request arrives; returns an unsubscribe function. */
  onArrival(listener: (arrival: Arrival) => void): () => void;
  close(): Promise<void>;
}

/**
 * The emulator, listening on loopback, with hooks that see every request arrive: the server side is
 * where a request's arrival and the answers a token got are known for certain.
 */
export async function startBenchEmulator(
  options: Omit<EmulatorOptions, "tokens"> & { setupRuns?: number; extraTokens?: number },
): Promise<BenchEmulator> {
  const { setupRuns = 0, extraTokens: extraCount = 0, ...rest } = options;
  const setupTokens = Array.from({ length: Math.ceil(setupRuns / CREATES_PER_SETUP_TOKEN) }, (_, i) => `bench-setup-token-${i}`);
  const extraTokens = Array.from({ length: extraCount }, (_, i) => `bench-extra-token-${i}`);
  const { app, control } = buildEmulator({
    ...rest,
    tokens: [WATCHER_TOKEN, ...setupTokens, ...extraTokens].map((token) => ({ token, orgIds: [BENCH_ORG_ID] })),
  });
  const listeners = new Set<(arrival: Arrival) => void>();
  const watcherReadsPerRun = new Map<number, number>();
  const watcherListPages = { count: 0 };
  app.addHook("onRequest", async (request) => {
    if (listeners.size === 0) return;
    const arrival: Arrival = {
      atMs: performance.now(),
      method: request.method,
      path: request.url,
      token: bearer(request.headers.authorization),
    };
    for (const listener of listeners) listener(arrival);
  });
  app.addHook("onResponse", async (request, reply) => {
    if (request.method !== "GET" || reply.statusCode !== 200 || bearer(request.headers.authorization) !== WATCHER_TOKEN) return;
    const runId = Number((request.params as { agent_run_id?: string } | undefined)?.agent_run_id);
    if (Number.isInteger(runId) && runId > 0) watcherReadsPerRun.set(runId, (watcherReadsPerRun.get(runId) ?? 0) + 1);
    else if (request.url.split("?")[0]!.endsWith("/agent/runs")) watcherListPages.count += 1;
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    control,
    setupTokens,
    extraTokens,
    watcherReadsPerRun,
    watcherListPages,
    onArrival(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => (closing ??= app.close()),
  };
}

function bearer(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

/**
 * Starts one run per prompt, all within a few milliseconds, spreading them over the setup tokens so
 * that no rate limit is hit. Returns the runs in prompt order.
 */
export async function createRunsAtOnce(bench: BenchEmulator, prompts: readonly string[], timeScale: number): Promise<AgentRun[]> {
  const capacity = bench.setupTokens.length * CREATES_PER_SETUP_TOKEN;
  if (prompts.length > capacity) {
    throw new RangeError(
      `${prompts.length} runs need ${Math.ceil(prompts.length / CREATES_PER_SETUP_TOKEN)} setup tokens; start the emulator with setupRuns: ${prompts.length}`,
    );
  }
  const clients = bench.setupTokens.map(
    (token) => new AgentRunClient({ baseUrl: bench.url, token, orgId: BENCH_ORG_ID, timeScale, retries: 0 }),
  );
  return Promise.all(prompts.map((prompt, i) => clients[Math.floor(i / CREATES_PER_SETUP_TOKEN)]!.createRun({ prompt })));
}

export interface ObservedFetch {
  fetch: typeof fetch;
  /** Wall-clock epoch ms at which the watcher first received an answer showing each run in a final state. */
  finishedSeenAt: Map<number, number>;
  /** Answers received, by HTTP status. */
  byStatus: Map<number, number>;
  /** Real milliseconds spent in requests (sent → whole body received), summed: time the service, not the budget, took. */
  roundTripMs: { total: number };
}

/**
 * Wraps fetch to note, for every run answer (a run, a logs page or a runs list page), the first moment its status was
 * final. The body is read from a clone, so the caller's own reading is untouched.
 */
export function observeFetch(inner: typeof fetch = globalThis.fetch): ObservedFetch {
  const finishedSeenAt = new Map<number, number>();
  const byStatus = new Map<number, number>();
  const roundTripMs = { total: 0 };
  const observed: typeof fetch = async (input, init) => {
    const sent = performance.now();
    const response = await inner(input, init);
    const text = await response.clone().text();
    roundTripMs.total += performance.now() - sent;
    const at = Date.now();
    byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
    if (response.ok && (init?.method ?? "GET") === "GET") {
      const body = parseJson(text) as { id?: unknown; status?: unknown; items?: unknown } | null;
      // A run or a logs page, or each run of a runs list page.
      const runs = (Array.isArray(body?.items) ? body.items : [body]) as Array<{ id?: unknown; status?: unknown } | null>;
      for (const run of runs) {
        if (run && typeof run.id === "number" && typeof run.status === "string" && isFinalPhase(classifyRunStatus(run.status))) {
          if (!finishedSeenAt.has(run.id)) finishedSeenAt.set(run.id, at);
        }
      }
    }
    return response;
  };
  return { fetch: observed, finishedSeenAt, byStatus, roundTripMs };
}

/** The watcher's client (the token whose requests the emulator counts), on the emulator's clock, through an observed fetch. */
export function watcherClient(bench: BenchEmulator, scale: number): { client: AgentRunClient; observed: ObservedFetch } {
  const observed = observeFetch();
  const client = new AgentRunClient({
    baseUrl: bench.url,
    token: WATCHER_TOKEN,
    orgId: BENCH_ORG_ID,
    timeScale: scale,
    fetch: observed.fetch,
  });
  return { client, observed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The run's path on the service, for scripts that speak HTTP directly (the naive poller). */
export function runUrl(baseUrl: string, runId: number): string {
  return baseUrl + API_PATHS.getRun(BENCH_ORG_ID, runId);
}

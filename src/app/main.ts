/**
 * `startApp(env)`: the GitHub App as a server. Probot (signature check, installation tokens) behind
 * a node:http server that also answers `GET /healthz`; a backend (embedded SQLite, or Redis shared
 * by replicas) holding the store and the work queue; the engine and the delivery worker taking jobs.
 */
import { timingSafeEqual } from "node:crypto";
import { hostname } from "node:os";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { AgentRunClient } from "../service/client.js";
import { BRIDGE_VERSION } from "../version.js";
import { openBackend, type Backend, type BackendOptions } from "./backend.js";
import { RunEngine, type RunEngineOptions } from "./engine.js";
import { parseAppEnv, type AppSettings } from "./env.js";
import type { AppDependencies, AppIdentity } from "./handlers/types.js";
import { createAgentRunApp, fetchAppIdentity } from "./index.js";
import { nodeFetch } from "../http/node-fetch.js";
import { taskJobId, type WorkQueue } from "./queue/types.js";
import type { BridgeStore } from "./store/types.js";
import { createOctokitThreadWriter, createPacedThreadWriter } from "./thread-writer.js";
import { createWritePacer } from "../github/pacing.js";
import type { AppMetrics } from "./ops/metrics.js";
import { loadOptional } from "./optional-deps.js";
import { collectStatus, renderStatusPage, type StatusSnapshot } from "./ops/status-page.js";
import { createJobProcessor } from "./worker.js";

/** Deliveries and trigger keys are kept this long: GitHub lets people redeliver for days. */
export const DEDUPE_RETENTION_MS = 8 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;
/** A probe that waits longer than this says "not ready" (Redis unreachable, say). */
const PROBE_TIMEOUT_MS = 2_000;

export interface StartAppOptions {
  /** GitHub API base URL (a fake GitHub in tests and the demo); wins over GHE_HOST. */
  githubBaseUrl?: string;
  /** Probot's Octokit class; tests pass one with retries off. */
  Octokit?: typeof ProbotOctokit;
  /** Downloads of image attachments (tests point github.com at the fake). */
  imageFetch?: typeof fetch;
  /** Engine tuning (intervals before time scaling, watch timeout). */
  engine?: Pick<RunEngineOptions, "pollIntervalMs" | "progressEditIntervalMs" | "progressEditsPerMinute" | "watchTimeoutMs">;
  backend?: BackendOptions;
  /** Scales GitHub write pacing apart from the service's clock (tests that run the service in real time). */
  githubPacingTimeScale?: number;
}

export interface AppHandle {
  /** `http://host:port` the server listens on. */
  url: string;
  /** The full webhook URL. */
  webhookUrl: string;
  identity: AppIdentity;
  engine: RunEngine;
  store: BridgeStore;
  backend: Backend;
  /** The service client (its rate budget is shared by every call the App makes, and with Redis by every replica). */
  client: AgentRunClient;
  probot: Probot;
  settings: AppSettings;
  /** Resolves once nothing is queued, sent, watched or reported, and no delivery waits (tests, demo). */
  idle(): Promise<void>;
  /** Stops taking webhooks and jobs, lets the steps in flight settle, closes the backend. Safe to call twice. */
  close(): Promise<void>;
}

/** Probot's Octokit without its process-wide write throttle: the App paces writes per installation itself. */
const AppOctokit = ProbotOctokit.defaults((options: { throttle?: object }) => ({ ...options, throttle: { ...options.throttle, enabled: false } })) as typeof ProbotOctokit;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function healthz(req: IncomingMessage, res: ServerResponse, backend: Backend, identity: AppIdentity): Promise<void> {
  const verbose = new URL(req.url ?? "/", "http://x").searchParams.has("verbose");
  const base = { app: identity.slug, version: BRIDGE_VERSION, backend: backend.kind, replica: `${hostname()}:${process.pid}` };
  try {
    await withTimeout(Promise.all([backend.store.ping(), backend.queue.ping()]), PROBE_TIMEOUT_MS, "the store");
    const details = verbose
      ? { tasks: await withTimeout(backend.store.countByState(), PROBE_TIMEOUT_MS, "the store"), queue: await withTimeout(backend.queue.counts(), PROBE_TIMEOUT_MS, "the queue") }
      : {};
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, ...base, ...details }));
  } catch (error) {
    res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, ...base, reason: (error as Error).message }));
  }
}

/** The web address of the GitHub whose API the App talks to (links on the status page). */
function githubWebUrlOf(apiBaseUrl: string | undefined): string {
  if (!apiBaseUrl) return "https://github.com";
  return apiBaseUrl.replace(/\/api\/v3\/?$/, "").replace(/\/+$/, "");
}

/** A token given as `Authorization: Bearer …` (or `?token=` when allowed), compared in constant time. */
function hasToken(req: IncomingMessage, expected: string, allowQuery: boolean): boolean {
  const header = req.headers.authorization ?? "";
  const fromHeader = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : null;
  const fromQuery = allowQuery ? new URL(req.url ?? "/", "http://x").searchParams.get("token") : null;
  const given = Buffer.from(fromHeader ?? fromQuery ?? "");
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
}

function unauthorized(res: ServerResponse, realm: string): void {
  res.writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": `Bearer realm="${realm}"` }).end("A valid token is needed.\n");
}

/** Off (404) unless METRICS=true or METRICS_TOKEN is set; with a token, only a bearer of it is answered. */
async function serveMetrics(req: IncomingMessage, res: ServerResponse, metrics: AppMetrics | null, token: string | undefined): Promise<void> {
  if (!metrics) return notFound(res);
  if (token !== undefined && !hasToken(req, token, false)) return unauthorized(res, "metrics");
  try {
    const body = await metrics.render();
    res.writeHead(200, { "content-type": metrics.registry.contentType }).end(body);
  } catch (error) {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end(`metrics unavailable: ${(error as Error).message}\n`);
  }
}

/** 404 unless STATUS_TOKEN is set; then only for that token (bearer or `?token=`, so a phone's browser can open it). */
async function serveStatus(req: IncomingMessage, res: ServerResponse, token: string | undefined, collect: () => Promise<StatusSnapshot>, githubWebUrl: string): Promise<void> {
  if (token === undefined) return notFound(res);
  if (!hasToken(req, token, true)) return unauthorized(res, "status");
  try {
    const html = renderStatusPage(await withTimeout(collect(), PROBE_TIMEOUT_MS * 2, "the store"), { githubWebUrl });
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" }).end(html);
  } catch (error) {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end(`status unavailable: ${(error as Error).message}\n`);
  }
}

/**
 * Every unfinished task has its step queued: stores written before the queue existed (0.1) get their
 * jobs, and a task whose job was lost (stored, then the enqueue failed) is taken up again. Adding a
 * job that is already queued or running changes nothing, so this is safe on every start of every replica.
 */
async function ensureEveryTaskHasAJob(store: BridgeStore, queue: WorkQueue): Promise<void> {
  // Ids only: every replica does this on start, and 1,000 tasks read whole at once are a burst of garbage for nothing.
  for (const taskId of await store.listTaskIds(["queued", "sending", "watching", "reporting"])) {
    await queue.add({ id: taskJobId(taskId), name: "task", data: { taskId } });
  }
}

/**
 * Starts the App. Throws AppConfigurationError (missing or invalid settings, listed together, or a
 * Redis that cannot be reached) before anything else happens, or an Error when GitHub does not
 * recognise the App's credentials.
 */
export async function startApp(env: Readonly<Record<string, string | undefined>>, options: StartAppOptions = {}): Promise<AppHandle> {
  const settings = parseAppEnv(env);
  // prom-client (about 10 MB resident) is loaded only when metrics are on; before anything opens, so that a missing one leaves nothing behind.
  const ops = settings.metrics.enabled ? await loadOptional("GET /metrics (METRICS or METRICS_TOKEN)", ["prom-client"], () => import("./ops/metrics.js")) : null;
  const baseUrl = options.githubBaseUrl ?? settings.githubBaseUrl;
  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    logLevel: settings.logLevel,
    logFormat: settings.logFormat,
    webhookPath: settings.webhookPath,
    Octokit: options.Octokit ?? AppOctokit,
    ...(baseUrl ? { baseUrl } : {}),
  });

  let identity: AppIdentity;
  try {
    identity = await fetchAppIdentity(probot);
  } catch (error) {
    const status = (error as { status?: number }).status;
    throw new Error(
      `GitHub did not accept the App's credentials (GET /app${status ? ` answered ${status}` : ` failed: ${(error as Error).message}`}): check APP_ID and the private key${baseUrl ? `, and that ${baseUrl} is the GitHub API` : ""}.`,
    );
  }

  const backend = await openBackend(settings, options.backend);
  const { store, queue, locks } = backend;
  const replica = `${hostname()}:${process.pid}`;
  const metrics = ops?.createAppMetrics({ store, queue, repoLabels: settings.metrics.repoLabels }) ?? null;
  const client = new AgentRunClient({
    baseUrl: settings.service.baseUrl,
    token: settings.service.token,
    orgId: settings.service.orgId,
    budget: metrics ? ops!.observedBudget(backend.budget, metrics.budgetWaited) : backend.budget,
    timeScale: settings.timeScale,
    // node:http rather than Node's fetch: an App watching 1,000 runs stays about 14 MB smaller (src/http/node-fetch.ts).
    fetch: metrics ? ops!.observedFetch(nodeFetch, metrics.serviceRequest) : nodeFetch,
    logsPath: settings.service.logsPath,
    logger: probot.log.child({ name: "service" }),
  });
  const octokitFor = (installationId: number | null) => probot.auth(installationId ?? undefined);
  // GitHub's secondary limits belong to each installation: writes are paced per installation, by priority, shared through Redis.
  const pacer = createWritePacer({
    timeScale: options.githubPacingTimeScale ?? settings.timeScale,
    ...(backend.redis ? { redis: backend.redis, keyPrefix: `${backend.keyPrefix}:github-writes` } : {}),
    onRateLimited: (event) => probot.log.warn(event, "GitHub rate-limited a write; its installation's writes pause"),
    ...(metrics ? { onWrite: metrics.githubWrite } : {}),
  });
  const writer = createPacedThreadWriter(createOctokitThreadWriter(octokitFor, identity), pacer);
  const engine = new RunEngine({ store, client, writer, queue, locks, logger: probot.log.child({ name: "engine" }), timeScale: settings.timeScale, ...(metrics ? { observer: metrics } : {}), ...options.engine });
  const deps: AppDependencies = {
    store,
    queue,
    locks,
    engine,
    client,
    writer,
    identity,
    octokitFor,
    log: probot.log.child({ name: "worker" }),
    ...(metrics ? { observer: metrics } : {}),
    ...(options.imageFetch ? { images: { fetch: options.imageFetch } } : {}),
  };
  const middleware = await createNodeMiddleware(createAgentRunApp(deps), { probot, webhooksPath: settings.webhookPath });

  const githubWebUrl = githubWebUrlOf(baseUrl);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return void healthz(req, res, backend, identity);
    if (req.method === "GET" && path === "/metrics") return void serveMetrics(req, res, metrics, settings.metrics.token);
    if (req.method === "GET" && path === "/status") return void serveStatus(req, res, settings.statusToken, () => collectStatus({ store, budget: backend.budget, replica, backend: backend.kind }), githubWebUrl);
    if (metrics && path === settings.webhookPath) {
      const started = performance.now();
      res.once("finish", () => metrics.webhookAnswered(res.statusCode, (performance.now() - started) / 1000));
    }
    void middleware(req, res, () => {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found", webhookPath: settings.webhookPath }));
    });
  });

  await store.prune(DEDUPE_RETENTION_MS);
  const pruner = setInterval(() => void store.prune(DEDUPE_RETENTION_MS).catch(() => undefined), PRUNE_EVERY_MS).unref();
  await ensureEveryTaskHasAJob(store, queue);
  // Work left by a previous process (or a dead replica) is taken up with everything else.
  queue.start(createJobProcessor(deps, engine));
  const stopWork = async () => {
    clearInterval(pruner);
    engine.stop();
    await queue.stop();
    await pacer.stop();
    await backend.close();
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => resolve());
  }).catch(async (error: unknown) => {
    await stopWork();
    throw error;
  });

  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address === "::" ? "::1" : address.address}]` : address.address === "0.0.0.0" ? "127.0.0.1" : address.address;
  const url = `http://${host}:${address.port}`;
  probot.log.info({ url, webhookPath: settings.webhookPath, app: identity.slug, backend: backend.kind }, "agent-run-bridge app listening");

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await stopWork();
    })();
    return closing;
  };

  const idle = async () => {
    for (;;) {
      const [tasks, jobs] = await Promise.all([store.countByState(), queue.counts()]);
      const deliveries = jobs.delivery.waiting + jobs.delivery.delayed + jobs.delivery.active;
      const busy = (tasks.queued ?? 0) + (tasks.sending ?? 0) + (tasks.watching ?? 0) + (tasks.reporting ?? 0) + deliveries + jobs.task.waiting + jobs.task.active;
      if (busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  return { url, webhookUrl: `${url}${settings.webhookPath}`, identity, engine, store, backend, client, probot, settings, idle, close };
}

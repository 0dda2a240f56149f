/**
 * `startApp(env)`: the GitHub App as a server. Probot (signature check, installation tokens) behind
 * a node:http server that also answers `GET /healthz`; the durable store under DATA_DIR; the run
 * engine, which first recovers whatever a previous process left unfinished.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Redis } from "ioredis";
import { createNodeMiddleware, Probot, type ProbotOctokit } from "probot";
import { AgentRunClient } from "../service/client.js";
import { createInProcessBudget, createRedisBudget, type RateBudget } from "../service/budget.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import { RunEngine, type RunEngineOptions } from "./engine.js";
import { parseAppEnv, type AppSettings } from "./env.js";
import type { AppIdentity } from "./handlers/types.js";
import { createAgentRunApp, fetchAppIdentity } from "./index.js";
import { SqliteBridgeStore } from "./store/sqlite.js";
import type { BridgeStore } from "./store/types.js";
import { createOctokitThreadWriter } from "./thread-writer.js";

/** Deliveries and trigger keys are kept this long: GitHub lets people redeliver for days. */
export const DEDUPE_RETENTION_MS = 8 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;

export interface StartAppOptions {
  /** GitHub API base URL (a fake GitHub in tests and the demo); wins over GHE_HOST. */
  githubBaseUrl?: string;
  /** Probot's Octokit class; tests pass one with retries and throttling off. */
  Octokit?: typeof ProbotOctokit;
  /** Downloads of image attachments (tests point github.com at the fake). */
  imageFetch?: typeof fetch;
  /** Engine tuning (intervals before time scaling, watch timeout). */
  engine?: Pick<RunEngineOptions, "pollIntervalMs" | "progressEditIntervalMs" | "progressEditsPerMinute" | "watchTimeoutMs">;
}

export interface AppHandle {
  /** `http://host:port` the server listens on. */
  url: string;
  /** The full webhook URL. */
  webhookUrl: string;
  identity: AppIdentity;
  engine: RunEngine;
  store: BridgeStore;
  /** The service client (its rate budget is shared by every call the App makes). */
  client: AgentRunClient;
  probot: Probot;
  settings: AppSettings;
  /** Stops taking webhooks, lets in-flight engine steps settle, closes the store. Safe to call twice. */
  close(): Promise<void>;
}

/** One budget per API token across replicas: the key names the token by a hash, never the token. */
function budgetFor(settings: AppSettings): { budget: RateBudget; redis: Redis | null } {
  if (!settings.redisUrl) return { budget: createInProcessBudget({ timeScale: settings.timeScale }), redis: null };
  const redis = new Redis(settings.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const tokenHash = createHash("sha256").update(settings.service.token).digest("hex").slice(0, 16);
  const budget = createRedisBudget(redis, { timeScale: settings.timeScale, keyPrefix: `${BRIDGE_NAME}:budget:${settings.service.orgId}:${tokenHash}` });
  return { budget, redis };
}

function healthz(res: ServerResponse, store: BridgeStore, identity: AppIdentity): void {
  const body = JSON.stringify({ ok: true, app: identity.slug, version: BRIDGE_VERSION, tasks: store.countByState() });
  res.writeHead(200, { "content-type": "application/json" }).end(body);
}

/**
 * Starts the App. Throws AppConfigurationError (missing or invalid settings, listed together)
 * before anything else happens, or an Error when GitHub does not recognise the App's credentials.
 */
export async function startApp(env: Readonly<Record<string, string | undefined>>, options: StartAppOptions = {}): Promise<AppHandle> {
  const settings = parseAppEnv(env);
  const baseUrl = options.githubBaseUrl ?? settings.githubBaseUrl;
  const probot = new Probot({
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    logLevel: settings.logLevel,
    logFormat: settings.logFormat,
    webhookPath: settings.webhookPath,
    ...(baseUrl ? { baseUrl } : {}),
    ...(options.Octokit ? { Octokit: options.Octokit } : {}),
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

  const store = new SqliteBridgeStore(join(settings.dataDir, "bridge.sqlite"));
  const { budget, redis } = budgetFor(settings);
  const client = new AgentRunClient({
    baseUrl: settings.service.baseUrl,
    token: settings.service.token,
    orgId: settings.service.orgId,
    budget,
    timeScale: settings.timeScale,
    logsPath: settings.service.logsPath,
    logger: probot.log.child({ name: "service" }),
  });
  const engineLog = probot.log.child({ name: "engine" });
  const engine = new RunEngine({
    store,
    client,
    writer: createOctokitThreadWriter(async (installationId) => probot.auth(installationId ?? undefined)),
    logger: engineLog,
    timeScale: settings.timeScale,
    ...options.engine,
  });
  const appFn = createAgentRunApp({
    store,
    engine,
    client,
    identity,
    ...(options.imageFetch ? { images: { fetch: options.imageFetch } } : {}),
    ...(options.engine?.watchTimeoutMs !== undefined ? { watchTimeoutMs: options.engine.watchTimeoutMs } : {}),
  });
  const middleware = await createNodeMiddleware(appFn, { probot, webhooksPath: settings.webhookPath });

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return healthz(res, store, identity);
    void middleware(req, res, () => {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found", webhookPath: settings.webhookPath }));
    });
  });

  store.prune(DEDUPE_RETENTION_MS);
  const pruner = setInterval(() => store.prune(DEDUPE_RETENTION_MS), PRUNE_EVERY_MS).unref();
  // Recovery first: unfinished watches resume, calls cut off mid-flight are reported, before new work arrives.
  await engine.start();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => resolve());
  }).catch(async (error: unknown) => {
    clearInterval(pruner);
    await engine.stop();
    store.close();
    await redis?.quit().catch(() => undefined);
    throw error;
  });

  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address === "::" ? "::1" : address.address}]` : address.address === "0.0.0.0" ? "127.0.0.1" : address.address;
  const url = `http://${host}:${address.port}`;
  probot.log.info({ url, webhookPath: settings.webhookPath, app: identity.slug, dataDir: settings.dataDir }, "agent-run-bridge app listening");

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearInterval(pruner);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await engine.stop();
      store.close();
      await redis?.quit().catch(() => undefined);
    })();
    return closing;
  };

  return { url, webhookUrl: `${url}${settings.webhookPath}`, identity, engine, store, client, probot, settings, close };
}

/**
 * `startApp(env)`: the GitHub App as a server. Probot (signature check, installation tokens) behind
 * a node:http server that also answers `GET /healthz` (server.ts); a backend (embedded SQLite, or
 * Redis shared by replicas) holding the store and the work queue; the engine and the delivery
 * worker taking jobs.
 */
import { ownerAllowed } from "../core/allowed-owners.js";
import { githubServerAt, webUrlOfApiUrl, type GitHubServer } from "../core/github-hosts.js";
import type { Server } from "node:http";
import { hostname } from "node:os";
import { createNodeMiddleware, Probot, ProbotOctokit, type Logger } from "probot";
import { createRedactor, type Redactor } from "../core/redact.js";
import { imageHostsFor } from "../core/sanitize-output/image-hosts.js";
import { AgentRunClient } from "../service/client.js";
import { REPLAY_WINDOW_MS } from "../core/trigger-age.js";
import { openBackend, type Backend, type BackendOptions } from "./backend.js";
import type { NamespaceMove } from "./store/namespace.js";
import { RunEngine, type RunEngineOptions } from "./engine.js";
import { parseAppEnv, type AppSettings } from "./env.js";
import type { AppDependencies, AppIdentity } from "./handlers/types.js";
import { createAgentRunApp, fetchAppIdentity } from "./probot-app.js";
import { nodeFetch } from "../http/node-fetch.js";
import { taskJobId, type WorkQueue } from "./queue/types.js";
import type { BridgeStore } from "./store/types.js";
import { createRedactingLogger } from "./logger.js";
import { createOctokitThreadWriter, createPacedThreadWriter } from "./thread-writer.js";
import { createWritePacer, type WritePacer } from "../github/pacing.js";
import type { AppMetrics } from "./ops/metrics.js";
import { loadOptional, type OptionalPackage } from "./optional-deps.js";
import { installTracing } from "./ops/tracing.js";
import { redisPasswordOf } from "./redis-guard.js";
import { createAppServer, listen, urlOf, type HttpTimeouts } from "./server.js";
import { createJobProcessor } from "./worker.js";
import { createDeliveryRecovery, type DeliveryRecovery } from "./delivery-recovery.js";
import { createRunRecovery, type RunRecovery } from "./run-recovery.js";
import { DEFAULT_WATCH_TIMEOUT_MS } from "./engine.js";
import { createInstallationGate } from "./installation-gate.js";
import { ConditionalReadCache, readFilesConditionally } from "../github/conditional-reads.js";
import { RecentDeliveries } from "./ops/recent-deliveries.js";

/**
 * Deliveries and trigger keys are kept this long: GitHub lets people redeliver for days. A delivery
 * whose trigger is older is ignored by its age (core/trigger-age.ts), so the two are one figure.
 */
const DEDUPE_RETENTION_MS = REPLAY_WINDOW_MS;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;
const TRACING_PACKAGES: OptionalPackage[] = [
  "@opentelemetry/api",
  "@opentelemetry/sdk-trace-node",
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/resources",
];

export interface StartAppOptions {
  /** GitHub API base URL (a fake GitHub in tests and the demo); wins over GHE_HOST. */
  githubBaseUrl?: string;
  /** Probot's Octokit class; tests pass one with retries off. */
  Octokit?: typeof ProbotOctokit;
  /** Downloads of image attachments (tests point github.com at the fake). */
  imageFetch?: typeof fetch;
  /** Engine tuning (intervals before time scaling, watch timeout). */
  engine?: Pick<
    RunEngineOptions,
    "pollIntervalMs" | "progressEditIntervalMs" | "progressEditsPerMinute" | "watchTimeoutMs" | "sweepRunsList" | "sweepSourceType"
  >;
  backend?: BackendOptions;
  /** Shorter bounds on slow requests (tests). */
  httpTimeouts?: Partial<HttpTimeouts>;
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
  /** The sweep that has GitHub redeliver failed webhook deliveries (null with DELIVERY_RECOVERY_INTERVAL=0). */
  recovery: DeliveryRecovery | null;
  /** The sweep that watches again the runs threads show as working when the store lost them (null with RUN_RECOVERY_INTERVAL=0). */
  runRecovery: RunRecovery | null;
  /** Resolves once nothing is queued, sent, watched or reported, and no delivery waits (tests, demo). */
  idle(): Promise<void>;
  /** Stops taking webhooks and jobs, lets the steps in flight settle, closes the backend. Safe to call twice. */
  close(): Promise<void>;
}

/** Probot's Octokit without its process-wide write throttle: the App paces writes per installation itself. */
const AppOctokit = ProbotOctokit.defaults((options: { throttle?: object }) => ({
  ...options,
  throttle: { ...options.throttle, enabled: false },
})) as typeof ProbotOctokit;

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

/** One line when this start moved keys out of the token-keyed namespace of earlier versions, a warning per key it could not move. */
function reportNamespaceMove(log: Logger, move: NamespaceMove | null): void {
  if (!move || (move.moved === 0 && move.kept.length === 0)) return;
  log.info({ from: move.from, to: move.to, moved: move.moved }, "moved the App's Redis keys to a namespace the API token does not name");
  for (const key of move.kept)
    log.warn({ key }, "a Redis key exists under both the old and the new namespace: the old one was left as it is (see docs/upgrading.md)");
}

/** The metrics module, loaded only when metrics are on. */
type MetricsModule = typeof import("./ops/metrics.js");

function createProbot(settings: AppSettings, baseUrl: string | undefined, Octokit: typeof ProbotOctokit | undefined, log: Logger): Probot {
  return new Probot({
    log,
    appId: settings.appId,
    privateKey: settings.privateKey,
    secret: settings.webhookSecret,
    logLevel: settings.logLevel,
    logFormat: settings.logFormat,
    webhookPath: settings.webhookPath,
    Octokit: Octokit ?? AppOctokit,
    // node:http rather than Node's fetch, as for the service: the first fetch loads Node's undici and
    // compiles its HTTP parser (WebAssembly), a burst of about 30 MB resident the App kept as its
    // peak even idle (BENCHMARKS.md, memory). Probot passes it to its installation-token requests too.
    request: { fetch: nodeFetch },
    ...(baseUrl ? { baseUrl } : {}),
  });
}

/** The App's identity (`GET /app`), or an Error that says which credentials to check. */
async function identifyApp(probot: Probot, baseUrl: string | undefined): Promise<AppIdentity> {
  try {
    return await fetchAppIdentity(probot);
  } catch (error) {
    const status = (error as { status?: number }).status;
    throw new Error(
      `GitHub did not accept the App's credentials (GET /app${status ? ` answered ${status}` : ` failed: ${(error as Error).message}`}): check APP_ID and the private key${baseUrl ? `, and that ${baseUrl} is the GitHub API` : ""}.`,
    );
  }
}

function createServiceClient(
  settings: AppSettings,
  backend: Backend,
  probot: Probot,
  metrics: AppMetrics | null,
  ops: MetricsModule | null,
): AgentRunClient {
  return new AgentRunClient({
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
}

interface WorkerParts {
  settings: AppSettings;
  options: StartAppOptions;
  backend: Backend;
  probot: Probot;
  identity: AppIdentity;
  client: AgentRunClient;
  metrics: AppMetrics | null;
  /** The GitHub the App serves: which pasted images are its own and where the installation token may go. */
  github: GitHubServer;
  redactor: Redactor;
}

/** What takes the jobs: the paced thread writer, the engine, and the dependencies the handlers and the worker share. */
function createWorkers({ settings, options, backend, probot, identity, client, metrics, github, redactor }: WorkerParts): {
  pacer: WritePacer;
  engine: RunEngine;
  deps: AppDependencies;
} {
  const { store, queue, locks } = backend;
  // The repository configuration is read with conditional requests: an unchanged file costs a 304, not a fresh read.
  const fileReads = new ConditionalReadCache();
  const octokitFor = async (installationId: number | null) => {
    const octokit = await probot.auth(installationId ?? undefined);
    readFilesConditionally(octokit, fileReads);
    return octokit;
  };
  // GitHub's secondary limits belong to each installation: writes are paced per installation, by priority, shared through Redis.
  const pacer = createWritePacer({
    timeScale: options.githubPacingTimeScale ?? settings.timeScale,
    ...(backend.redis ? { redis: backend.redis, keyPrefix: `${backend.keyPrefix}:github-writes` } : {}),
    onRateLimited: (event) => probot.log.warn(event, "GitHub rate-limited a write; its installation's writes pause"),
    ...(metrics ? { onWrite: metrics.githubWrite } : {}),
  });
  const writer = createPacedThreadWriter(createOctokitThreadWriter(octokitFor, identity, redactor), pacer);
  const engine = new RunEngine({
    store,
    client,
    writer,
    queue,
    locks,
    leases: backend.leases,
    logger: probot.log.child({ name: "engine" }),
    timeScale: settings.timeScale,
    // Agent output renders images only from the GitHub the App serves (GHE_HOST's on an Enterprise Server).
    imageHosts: imageHostsFor(github),
    ...(settings.service.runsUrl ? { runsUrl: settings.service.runsUrl } : {}),
    ...(metrics ? { observer: metrics } : {}),
    ...options.engine,
  });
  const deps: AppDependencies = {
    store,
    queue,
    locks,
    engine,
    client,
    identity,
    octokitFor,
    log: probot.log.child({ name: "worker" }),
    ...(metrics ? { observer: metrics } : {}),
    installations: createInstallationGate(settings.allowedOwners, probot.log.child({ name: "installations" })),
    images: { server: github, ...(options.imageFetch ? { fetch: options.imageFetch } : {}) },
    // In memory: the status page's window on this replica's latest deliveries, bounded.
    deliveries: new RecentDeliveries(),
  };
  return { pacer, engine, deps };
}

/**
 * What the App never writes, to GitHub or to its logs: the built-in rules (tokens, keys, credentials),
 * its own secrets by value, and the operator's REDACT_PATTERNS.
 */
function appRedactor(settings: AppSettings): Redactor {
  const redisPassword = settings.redisPassword ?? redisPasswordOf(settings.redisUrl);
  const secrets = [
    { value: settings.service.token, label: "API token" },
    { value: settings.webhookSecret, label: "webhook secret" },
    ...(settings.webhookSecretPrevious ? [{ value: settings.webhookSecretPrevious, label: "previous webhook secret" }] : []),
    ...(settings.statusToken ? [{ value: settings.statusToken, label: "status token" }] : []),
    ...(settings.metrics.token ? [{ value: settings.metrics.token, label: "metrics token" }] : []),
    ...(redisPassword ? [{ value: redisPassword, label: "Redis password" }] : []),
  ];
  return createRedactor({ secrets, patterns: settings.redactPatterns });
}

/** Resolves once nothing is queued, sent, watched or reported, and no delivery waits. */
async function waitUntilIdle(store: BridgeStore, queue: WorkQueue): Promise<void> {
  for (;;) {
    const [tasks, jobs] = await Promise.all([store.countByState(), queue.counts()]);
    const deliveries = jobs.delivery.waiting + jobs.delivery.delayed + jobs.delivery.active;
    const busy =
      (tasks.queued ?? 0) +
      (tasks.sending ?? 0) +
      (tasks.watching ?? 0) +
      (tasks.reporting ?? 0) +
      deliveries +
      jobs.task.waiting +
      jobs.task.active;
    if (busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts the background work: old deliveries and trigger keys pruned now and every few hours, every
 * unfinished task's job queued, and the queue taking jobs. Returns what stops it all again: the
 * backend last, since the engine, the queue and the pacer use its connections until they stop.
 */
async function startBackgroundWork(
  backend: Backend,
  engine: RunEngine,
  pacer: WritePacer,
  deps: AppDependencies,
): Promise<() => Promise<void>> {
  const { store, queue } = backend;
  await store.prune(DEDUPE_RETENTION_MS);
  const pruner = setInterval(() => void store.prune(DEDUPE_RETENTION_MS).catch(() => undefined), PRUNE_EVERY_MS).unref();
  await ensureEveryTaskHasAJob(store, queue);
  // Work left by a previous process (or a dead replica) is taken up with everything else.
  queue.start(createJobProcessor(deps, engine));
  engine.start();
  return async () => {
    clearInterval(pruner);
    await engine.stop();
    await queue.stop();
    await pacer.stop();
    await backend.close();
  };
}

/**
 * The handle's close(): the server stops taking requests (idle keep-alive connections are dropped
 * so that it does not wait for them), then the work stops. A second call gets the first one's promise.
 */
function closeOnce(server: Server, stopWork: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await stopWork();
    })();
    return closing;
  };
}

/** On start and every RUN_RECOVERY_INTERVAL: runs their threads show as working that the store lost are watched again. */
function startRunRecovery(
  settings: AppSettings,
  options: StartAppOptions,
  backend: Backend,
  engine: RunEngine,
  probot: Probot,
  identity: AppIdentity,
  deps: AppDependencies,
): RunRecovery | null {
  if (settings.runRecoveryIntervalMs === 0) return null;
  const runRecovery = createRunRecovery({
    store: backend.store,
    leases: backend.leases,
    engine,
    appOctokit: () => probot.auth(),
    octokitFor: (installationId) => deps.octokitFor(installationId),
    self: { appSlug: identity.slug, botLogins: identity.botLogins },
    serves: (account) => ownerAllowed(settings.allowedOwners, account),
    intervalMs: settings.runRecoveryIntervalMs,
    maxRequests: settings.runRecoveryMaxRequests,
    watchTimeoutMs: options.engine?.watchTimeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS,
    log: probot.log.child({ name: "run-recovery" }),
  });
  runRecovery.start();
  return runRecovery;
}

/**
 * Starts the App. Throws AppConfigurationError (missing or invalid settings, listed together, or a
 * Redis that cannot be reached) before anything else happens, or an Error when GitHub does not
 * recognise the App's credentials.
 */
export async function startApp(env: Readonly<Record<string, string | undefined>>, options: StartAppOptions = {}): Promise<AppHandle> {
  const settings = parseAppEnv(env);
  // prom-client (about 10 MB resident) is loaded only when metrics are on; before anything opens, so that a missing one leaves nothing behind.
  const ops = settings.metrics.enabled
    ? await loadOptional("GET /metrics (METRICS or METRICS_TOKEN)", ["prom-client"], () => import("./ops/metrics.js"))
    : null;
  // Likewise the OpenTelemetry SDK: with OTEL_TRACES_EXPORTER unset, no @opentelemetry module is loaded (test/e2e/app/tracing-off.test.ts).
  const otel = settings.tracing
    ? await loadOptional("Tracing (OTEL_TRACES_EXPORTER=otlp)", TRACING_PACKAGES, () => import("./ops/otel.js"))
    : null;
  const baseUrl = options.githubBaseUrl ?? settings.githubBaseUrl;
  const redactor = appRedactor(settings);
  const probot = createProbot(settings, baseUrl, options.Octokit, await createRedactingLogger(settings, redactor));
  const identity = await identifyApp(probot, baseUrl);

  const backend = await openBackend(settings, options.backend);
  reportNamespaceMove(probot.log, backend.namespaceMove);
  const { store, queue } = backend;
  const metrics =
    ops?.createAppMetrics({
      store,
      queue,
      repoLabels: settings.metrics.repoLabels,
      automationLabels: settings.metrics.automationLabels,
    }) ?? null;
  const client = createServiceClient(settings, backend, probot, metrics, ops);
  const github = githubServerAt(webUrlOfApiUrl(baseUrl));
  const { pacer, engine, deps } = createWorkers({ settings, options, backend, probot, identity, client, metrics, github, redactor });
  const middleware = await createNodeMiddleware(createAgentRunApp(deps), { probot, webhooksPath: settings.webhookPath });
  const server = createAppServer({
    settings,
    backend,
    identity,
    metrics,
    middleware,
    githubBaseUrl: baseUrl,
    replica: `${hostname()}:${process.pid}`,
    ...(deps.deliveries ? { deliveries: deps.deliveries } : {}),
    log: probot.log.child({ name: "webhooks" }),
    ...(options.httpTimeouts ? { timeouts: options.httpTimeouts } : {}),
  });

  const stopTracing =
    otel && settings.tracing ? installTracing(otel.startTracing(settings.tracing, probot.log.child({ name: "tracing" }))) : async () => {};
  const stopWork = await startBackgroundWork(backend, engine, pacer, deps).then((stop) => async () => {
    await stop();
    await stopTracing();
  });
  await listen(server, settings.port, settings.host).catch(async (error: unknown) => {
    await stopWork();
    throw error;
  });

  const url = urlOf(server);
  probot.log.info({ url, webhookPath: settings.webhookPath, app: identity.slug, backend: backend.kind }, "agent-run-bridge app listening");

  // Once listening: the deliveries it has GitHub send again arrive here.
  const recovery =
    settings.deliveryRecoveryIntervalMs > 0
      ? createDeliveryRecovery({
          store,
          leases: backend.leases,
          appOctokit: () => probot.auth(),
          intervalMs: settings.deliveryRecoveryIntervalMs,
          log: probot.log.child({ name: "delivery-recovery" }),
          ...(metrics ? { observer: metrics } : {}),
        })
      : null;
  recovery?.start();
  const runRecovery = startRunRecovery(settings, options, backend, engine, probot, identity, deps);

  return {
    url,
    webhookUrl: `${url}${settings.webhookPath}`,
    identity,
    engine,
    store,
    backend,
    client,
    probot,
    settings,
    recovery,
    runRecovery,
    idle: () => waitUntilIdle(store, queue),
    close: closeOnce(server, async () => {
      await recovery?.stop();
      await runRecovery?.stop();
      await stopWork();
    }),
  };
}

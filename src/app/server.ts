/**
 * The App's HTTP face: one node:http server that answers `GET /healthz` (probes), `GET /metrics`
 * (Prometheus, when on) and `GET /status` (a page for people, behind a token), and hands every
 * other request to Probot's webhook middleware.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { listeningUrl } from "../http/listening-url.js";
import { BRIDGE_VERSION } from "../version.js";
import type { Backend } from "./backend.js";
import type { AppSettings } from "./env.js";
import type { AppIdentity } from "./handlers/types.js";
import type { AppMetrics } from "./ops/metrics.js";
import { createOperatorGate, type Guard } from "./ops/operator-gate.js";
import { PROBE_TIMEOUT_MS, withTimeout } from "./ops/probe-time.js";
import {
  answerCrossSiteSignIn,
  answerSignedIn,
  answerSignIn,
  answerSignInLater,
  bearerAccess,
  signInAccess,
  signInAttempt,
  statusAccess,
} from "./ops/status-access.js";
import { collectStatus, renderStatusPage, STATUS_PAGE_HEADERS, type StatusSnapshot } from "./ops/status-page.js";
import { withSpan, type SpanAttributes } from "./ops/tracing.js";
import type { RecentDeliveries } from "./ops/recent-deliveries.js";
import { APP_EVENTS } from "./probot-app.js";
import { isWebhookPath, refuseUnfitDelivery, unverifiedBytesAllowance, type RefusedDelivery } from "./webhook-intake.js";

/** Plain `/healthz` is open (load balancers); `?verbose` shows the work in flight, so it wants the status token. */
async function healthz(
  req: IncomingMessage,
  res: ServerResponse,
  backend: Backend,
  identity: AppIdentity,
  replica: string,
  guard: Guard,
  statusToken: string | undefined,
): Promise<void> {
  const verbose = new URL(req.url ?? "/", "http://x").searchParams.has("verbose");
  if (verbose) {
    const verdict = statusToken === undefined ? { access: "absent" as const } : guard(() => statusAccess(req, statusToken));
    if ("turnedAway" in verdict) return tooManyWrongTokens(res, verdict.waitS);
    if (verdict.access !== "granted") return unauthorized(res, "status", VERBOSE_HEALTH_NEEDS);
  }
  const base = { app: identity.slug, version: BRIDGE_VERSION, backend: backend.kind, replica };
  try {
    await withTimeout(Promise.all([backend.store.ping(), backend.queue.ping()]), PROBE_TIMEOUT_MS, "the store");
    const details = verbose
      ? {
          tasks: await withTimeout(backend.store.countByState(), PROBE_TIMEOUT_MS, "the store"),
          queue: await withTimeout(backend.queue.counts(), PROBE_TIMEOUT_MS, "the queue"),
        }
      : {};
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, ...base, ...details }));
  } catch (error) {
    res
      .writeHead(503, { "content-type": "application/json" })
      .end(JSON.stringify({ ok: false, ...base, reason: (error as Error).message }));
  }
}

/** The web address of the GitHub whose API the App talks to (links on the status page). */
function githubWebUrlOf(apiBaseUrl: string | undefined): string {
  if (!apiBaseUrl) return "https://github.com";
  return apiBaseUrl.replace(/\/api\/v3\/?$/, "").replace(/\/+$/, "");
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "Not found" }));
}

function unauthorized(res: ServerResponse, realm: string, message = "A valid token is needed."): void {
  res.writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": `Bearer realm="${realm}"` }).end(`${message}\n`);
}

function tooManyWrongTokens(res: ServerResponse, waitS: number): void {
  res
    .writeHead(429, { "content-type": "text/plain; charset=utf-8", "retry-after": String(waitS), "cache-control": "no-store" })
    .end(`Too many wrong tokens from this address: try again in ${waitS} s.\n`);
}

const VERBOSE_HEALTH_NEEDS = "GET /healthz?verbose needs STATUS_TOKEN as `Authorization: Bearer …` (plain /healthz needs nothing).";

/** Off (404) unless METRICS=true or METRICS_TOKEN is set; with a token, only a bearer of it is answered. */
async function serveMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: AppMetrics | null,
  guard: Guard,
  token: string | undefined,
): Promise<void> {
  if (!metrics) return notFound(res);
  if (token !== undefined) {
    const verdict = guard(() => bearerAccess(req, token));
    if ("turnedAway" in verdict) return tooManyWrongTokens(res, verdict.waitS);
    if (verdict.access !== "granted") return unauthorized(res, "metrics");
  }
  try {
    const body = await metrics.render();
    res.writeHead(200, { "content-type": metrics.registry.contentType }).end(body);
  } catch (error) {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end(`metrics unavailable: ${(error as Error).message}\n`);
  }
}

/**
 * `POST /status` from the sign-in form: the form is read first, then judged and counted in one turn
 * (ops/operator-gate.ts); a wrong token shows the form again.
 */
async function signIn(req: IncomingMessage, res: ServerResponse, token: string, guard: Guard): Promise<void> {
  const attempt = await signInAttempt(req);
  if (attempt === "cross_site") return answerCrossSiteSignIn(res);
  const verdict = guard(() => signInAccess(attempt.given, token));
  if ("turnedAway" in verdict) return answerSignInLater(res, verdict.waitS);
  if (verdict.access !== "granted") return answerSignIn(res, "That is not the status token.");
  answerSignedIn(req, res, token);
}

/** 404 unless STATUS_TOKEN is set; then only for its bearer, or a browser signed in through the page's form (ops/status-access.ts). */
async function serveStatus(
  req: IncomingMessage,
  res: ServerResponse,
  token: string | undefined,
  guard: Guard,
  collect: () => Promise<StatusSnapshot>,
  githubWebUrl: string,
): Promise<void> {
  if (token === undefined) return notFound(res);
  if (req.method === "POST") return signIn(req, res, token, guard);
  const verdict = guard(() => statusAccess(req, token));
  if ("turnedAway" in verdict) return answerSignInLater(res, verdict.waitS);
  if (verdict.access !== "granted") return answerSignIn(res);
  try {
    const html = renderStatusPage(await withTimeout(collect(), PROBE_TIMEOUT_MS * 2, "the store"), { githubWebUrl });
    res.writeHead(200, STATUS_PAGE_HEADERS).end(html);
  } catch (error) {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8" }).end(`status unavailable: ${(error as Error).message}\n`);
  }
}

export interface AppServerParts {
  settings: AppSettings;
  backend: Backend;
  identity: AppIdentity;
  metrics: AppMetrics | null;
  /** Probot's webhook middleware; `next` answers what it does not take. */
  middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => unknown;
  /** The GitHub API base the App talks to (undefined: api.github.com). */
  githubBaseUrl: string | undefined;
  /** `host:pid`, shown on the status page. */
  replica: string;
  /** This replica's recent deliveries, listed on the status page. */
  deliveries?: RecentDeliveries;
  /** Where refused webhook deliveries are logged, one line each. */
  log: { warn(fields: object, message: string): void };
  /** Bounds on slow requests (tests shorten them). */
  timeouts?: Partial<HttpTimeouts>;
}

/**
 * How long a request may take to arrive: its headers, and the whole request with its body. GitHub
 * sends a delivery at once (and gives up on an answer after 10 s), so a slow sender is not GitHub.
 * Node checks them every `checkEveryMs`.
 */
export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
  checkEveryMs: number;
}

const HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

/** The one log line of a refused delivery: who, what, how big, why; never the payload. */
function logRefusal(log: AppServerParts["log"], refusal: RefusedDelivery): void {
  log.warn({ refusedDelivery: refusal }, `webhook delivery refused (${refusal.status} ${refusal.reason})`);
}

export function createAppServer(parts: AppServerParts): Server {
  const { settings, backend, identity, metrics, middleware, githubBaseUrl, replica, log } = parts;
  const githubWebUrl = githubWebUrlOf(githubBaseUrl);
  const timeouts = { ...HTTP_TIMEOUTS, ...parts.timeouts };
  const intake = {
    secret: settings.webhookSecret,
    previousSecret: settings.webhookSecretPrevious,
    unverified: unverifiedBytesAllowance(),
    actsOn: new Set<string>(APP_EVENTS),
    onRefused: (refusal: RefusedDelivery) => logRefusal(log, refusal),
  };
  // One count of wrong tokens for every operators' view: guesses at /metrics and /status add up.
  const gate = createOperatorGate(settings.trustProxy);
  const serverOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkEveryMs,
  };
  return createServer(serverOptions, (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const guard: Guard = (check) => gate.judge(req, check);
    if (req.method === "GET" && path === "/healthz") return void healthz(req, res, backend, identity, replica, guard, settings.statusToken);
    if (req.method === "GET" && path === "/metrics") return void serveMetrics(req, res, metrics, guard, settings.metrics.token);
    if ((req.method === "GET" || req.method === "POST") && path === "/status")
      return void serveStatus(
        req,
        res,
        settings.statusToken,
        guard,
        () =>
          collectStatus({
            store: backend.store,
            budget: backend.budget,
            replica,
            backend: backend.kind,
            recoveryIntervalMs: settings.deliveryRecoveryIntervalMs,
            deliveries: parts.deliveries?.list() ?? [],
          }),
        githubWebUrl,
      );
    if (metrics && path === settings.webhookPath) {
      const started = performance.now();
      res.once("finish", () => metrics.webhookAnswered(res.statusCode, (performance.now() - started) / 1000));
    }
    const handOn = () =>
      middleware(req, res, () => {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: "Not found", webhookPath: settings.webhookPath }));
      });
    if (req.method === "POST" && isWebhookPath(req.url, settings.webhookPath)) {
      // The trace's root: everything Probot's handler does runs inside it, and it ends with the answer.
      void withSpan(
        "webhook POST",
        webhookHeaders(req),
        (span) => {
          void refuseUnfitDelivery(req, res, intake).then((refused) => (refused ? undefined : handOn()));
          return new Promise<void>((resolve) =>
            res.once("close", () => {
              span.setAttributes({ "http.response.status_code": res.statusCode });
              resolve();
            }),
          );
        },
        { kind: "server" },
      );
      return;
    }
    void handOn();
  });
}

/** What a webhook's span says of it before it is verified: GitHub's delivery id and event, as sent. */
function webhookHeaders(req: IncomingMessage): SpanAttributes {
  const header = (name: string) => (typeof req.headers[name] === "string" ? req.headers[name].slice(0, 100) : undefined);
  return { "http.request.method": "POST", "github.delivery.id": header("x-github-delivery"), "github.event": header("x-github-event") };
}

/** Resolves once the server listens on `port` and `host`; rejects with the listen error (EADDRINUSE, say). */
export function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}

/** `http://host:port` a listening server is reached at: a wildcard address is reached on loopback. */
export function urlOf(server: Server): string {
  return listeningUrl(server.address() as AddressInfo);
}

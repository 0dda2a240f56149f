/**
 * The fake GitHub REST API server: fastify on loopback, GitHub's auth, error and rate-limit
 * conventions, a request log without credentials, injectable faults and a write feed.
 */
import { createPublicKey, randomBytes, randomUUID, verify, type KeyObject } from "node:crypto";
import { EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from "fastify";
import { DOCS, decodedPathOf, notFound, queryOf, setRateLimitHeaders, type RateLimitCounter } from "./http.js";
import {
  classifyToken,
  methodMatches,
  pathMatches,
  type FakeWrite,
  type FaultSpec,
  type InjectedFault,
  type PathPattern,
  type RecordedRequest,
  type ServedAs,
  type TokenKind,
} from "./recorder.js";
import { registerAppManifestRoutes } from "./routes/app-manifests.js";
import { registerAttachmentRoutes, ATTACHMENT_DOWNLOAD_PATH, ATTACHMENT_PATH } from "./routes/attachments.js";
import { JOB_LOG_DOWNLOAD_PATH, registerCheckRoutes } from "./routes/checks.js";
import type { RouteContext } from "./routes/context.js";
import { registerIssueRoutes } from "./routes/issues.js";
import { registerPullRoutes } from "./routes/pulls.js";
import { registerReviewRoutes } from "./routes/reviews.js";
import { registerRepositoryRoutes } from "./routes/repos.js";
import {
  createWebhookSender,
  registerHookDeliveryRoutes,
  type FakeHookDelivery,
  type HookDeliverySeed,
  type WebhookTarget,
} from "./webhooks.js";
import { applySeed, createFakeState, findRepository, type FakeGitHubSeed, type FakeGitHubState, type FakeIssueComment } from "./state.js";

export interface FakeGitHubOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  seed?: FakeGitHubSeed;
  /** Clock for timestamps and rate-limit resets (default: real time). */
  now?: () => Date;
  /** Base of `html_url` fields (default https://github.com; with `enterprise`, the fake's own origin). */
  htmlUrl?: string;
  /**
   * GitHub Enterprise Server's layout: REST only under `/api/v3`, GraphQL only at `/api/graphql`
   * (`viewer` answers the seed's writer), attachments and downloads on the web host, 404 for every
   * other path (`offPathCalls` lists those requests).
   */
  enterprise?: boolean;
  /**
   * With github.com's layout, serve GraphQL at `POST /graphql` as api.github.com does (`viewer`
   * answers the seed's writer). Off by default: most tests put `startViewerFront` in front instead.
   */
  graphql?: boolean;
}

type FakeGitHubEvents = { write: [FakeWrite]; request: [RecordedRequest] };

export interface FakeGitHub {
  /**
   * API base URL without trailing slash: Octokit's `baseUrl`, an Action's `GITHUB_API_URL`. On
   * github.com's layout the fake's origin (`/api/v3` under it works too); with `enterprise`, `{origin}/api/v3`.
   */
  readonly url: string;
  /** The fake's origin: the web host (GITHUB_SERVER_URL, GHE_HOST) where attachments live. */
  readonly webUrl: string;
  /** Where GraphQL is served (`{origin}/api/graphql`); with github.com's layout there is none (answered 404). */
  readonly graphqlUrl: string;
  readonly enterprise: boolean;
  readonly state: FakeGitHubState;
  /** Every request in arrival order (authorization header removed). */
  readonly requests: RecordedRequest[];
  /**
   * The App's public keys, as its settings page holds them (GitHub allows several at once): from
   * then on an App JWT must carry an RS256 signature one of them verifies, else 401. null (the
   * default): any JWT-shaped token passes.
   */
  setAppPublicKeys(keys: readonly string[] | null): void;
  /** Every write the bot made, in order. */
  readonly writes: FakeWrite[];
  readonly events: EventEmitter<FakeGitHubEvents>;
  /** Recorded requests with this method (`"*"` for any) whose path matches. */
  callsTo(method: string, path: PathPattern): RecordedRequest[];
  /** Recorded requests matching none of the expected (method, path) pairs. */
  unexpectedCalls(expected: readonly (readonly [method: string, path: PathPattern])[]): RecordedRequest[];
  /** Requests to routes the fake does not implement (answered 404). */
  unknownRouteCalls(): RecordedRequest[];
  /** With `enterprise`: requests to paths an Enterprise Server does not serve (answered 404). Always empty otherwise. */
  offPathCalls(): RecordedRequest[];
  /** Forgets recorded requests and writes (state stays). */
  clearRequests(): void;
  /** Calls `listener` for every write; returns an unsubscribe function. */
  onWrite(listener: (write: FakeWrite) => void): () => void;
  /** Answers the next `times` matching requests with a fault instead of the real route. */
  injectFault(fault: FaultSpec): InjectedFault;
  clearFaults(): void;
  /**
   * Holds the next matching request before its route runs (GitHub slow at one chosen moment):
   * `arrived` resolves when it comes, and it is answered as usual once `release()` is called.
   */
  holdNext(method: string, path: PathPattern): HeldRequest;
  /** Adds more seed data to the running fake. */
  seed(more: FakeGitHubSeed): void;
  /** Stores an image and returns its URL on the fake (usable in comment bodies). */
  addAttachment(bytes: Uint8Array, contentType: string, options?: { private?: boolean; id?: string }): string;
  attachmentUrl(id: string): string;
  /** Every webhook delivery attempt GitHub made (sent or recorded), in the order made. */
  readonly hookDeliveries: readonly FakeHookDelivery[];
  /** Where deliveries go (the App's webhook URL) and the secret they are signed with; null: nowhere (every attempt fails). */
  setWebhookTarget(target: WebhookTarget | null): void;
  /** GitHub delivers an event to the target: signed, recorded with the App's answer (status_code 0 when unreachable). */
  sendWebhook(event: string, payload: object, options?: { guid?: string }): Promise<FakeHookDelivery>;
  /** Puts a past attempt in the delivery log without sending it. */
  recordHookDelivery(seed: HookDeliverySeed): FakeHookDelivery;
  /** Resolves once every delivery sent so far, redeliveries included, has been answered. */
  webhooksSettled(): Promise<void>;
  /** The comments currently on an issue or pull request, oldest first. */
  commentsOn(repo: string, issueNumber: number): FakeIssueComment[];
  close(): Promise<void>;
}

/** Whether `Bearer <header>.<payload>.<signature>` is an RS256 JWT that one of `keys` verifies. */
function jwtVerifiedByOneOf(authorization: string, keys: readonly KeyObject[]): boolean {
  const [header, payload, signature] = authorization
    .replace(/^\S+\s+/, "")
    .trim()
    .split(".");
  if (!header || !payload || !signature) return false;
  const signed = Buffer.from(`${header}.${payload}`);
  return keys.some((key) => verify("RSA-SHA256", signed, key, Buffer.from(signature, "base64url")));
}

interface RouteFlags {
  public?: boolean;
  optionalAuth?: boolean;
}

/** A request the fake keeps waiting (`holdNext`). */
interface HeldRequest {
  arrived: Promise<void>;
  release(): void;
}

interface PendingHold {
  method: string;
  path: PathPattern;
  arrive(): void;
  released: Promise<void>;
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const now = options.now ?? (() => new Date());
  const state = createFakeState(options.seed ?? {}, now);
  const requests: RecordedRequest[] = [];
  const writes: FakeWrite[] = [];
  const faults: InjectedFault[] = [];
  const holds: PendingHold[] = [];
  const events = new EventEmitter<FakeGitHubEvents>();
  const counter: RateLimitCounter = { limit: 5000, used: 0, resetEpochSeconds: 0 };
  const authKinds = new WeakMap<FastifyRequest, TokenKind>();
  const faulted = new WeakSet<FastifyRequest>();
  const arrivals = new WeakMap<FastifyRequest, number>();
  const enterprise = options.enterprise ?? false;
  // Decided on the raw request before routing, read back when the request is recorded.
  const served = new WeakMap<IncomingMessage, { servedAs: ServedAs; sentPath: string }>();

  const ctx: RouteContext = {
    state,
    api: "",
    html: (options.htmlUrl ?? "https://github.com").replace(/\/+$/, ""),
    downloads: "",
    downloadSignature: randomBytes(12).toString("hex"),
    emitWrite: (write) => {
      writes.push(write);
      events.emit("write", write);
    },
  };

  const app = Fastify({
    logger: false,
    bodyLimit: 10 * 1024 * 1024,
    // GitHub Enterprise clients (Probot's GHE_HOST) put the API under /api/v3; in enterprise mode nothing else is REST.
    rewriteUrl: (request) => {
      const url = request.url ?? "/";
      const { servedAs, path } = routeOf(url, enterprise);
      served.set(request, { servedAs, sentPath: decodedPath(url) });
      return path;
    },
  });

  // GitHub reads JSON bodies and tolerates an empty one; other bodies are kept as text.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error("Problems parsing JSON"), { statusCode: 400 }), undefined);
    }
  });
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  let appPublicKeys: KeyObject[] | null = null;
  app.addHook("onRequest", async (request, reply) => {
    arrivals.set(request, Date.now());
    const { kind, valid } = classifyToken(request.headers.authorization);
    if (kind === "app_jwt" && appPublicKeys && !jwtVerifiedByOneOf(request.headers.authorization!, appPublicKeys)) {
      authKinds.set(request, kind);
      return reply.code(401).send({ message: "A JSON web token could not be decoded", documentation_url: DOCS, status: "401" });
    }
    authKinds.set(request, kind);
    const flags = (request.routeOptions.config ?? {}) as RouteFlags;
    if (flags.public || flags.optionalAuth) return;
    if (kind === "none") {
      return reply.code(401).send({ message: "Requires authentication", documentation_url: DOCS, status: "401" });
    }
    if (!valid) return reply.code(401).send({ message: "Bad credentials", documentation_url: DOCS, status: "401" });
  });

  app.addHook("preHandler", async (request, reply) => {
    const path = decodedPathOf(request);
    const hold = holds.findIndex((h) => methodMatches(h.method, request.method) && pathMatches(h.path, path));
    if (hold !== -1) {
      const [taken] = holds.splice(hold, 1);
      taken!.arrive();
      await taken!.released;
    }
    const fault = faults.find((f) => f.remaining > 0 && methodMatches(f.method, request.method) && pathMatches(f.path, path));
    if (!fault) return;
    fault.remaining -= 1;
    faulted.add(request);
    for (const [name, value] of Object.entries(fault.headers)) reply.header(name, value);
    return reply.code(fault.status).send(fault.body);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    setRateLimitHeaders(reply, counter, now().getTime());
    reply.header("x-github-api-version-selected", "2022-11-28");
    reply.header("x-github-request-id", randomUUID().toUpperCase());
    const layout = served.get(request.raw);
    const recorded: RecordedRequest = {
      method: request.method,
      sentPath: layout?.sentPath ?? decodedPathOf(request),
      servedAs: layout?.servedAs ?? "api",
      path: decodedPathOf(request).replace(OFF_PATH_PREFIX_PATTERN, ""),
      query: queryOf(request),
      body: request.body,
      headers: headersWithoutCredentials(request),
      auth: authKinds.get(request) ?? "none",
      status: reply.statusCode,
      route: request.routeOptions.url ?? null,
      fault: faulted.has(request),
      receivedAt: arrivals.get(request) ?? Date.now(),
    };
    requests.push(recorded);
    events.emit("request", recorded);
    return payload;
  });

  app.setNotFoundHandler((_request, reply) => notFound(reply));
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    reply.code(status).send({ message: error.message, documentation_url: DOCS, status: String(status) });
  });

  registerRepositoryRoutes(app, ctx);
  registerIssueRoutes(app, ctx);
  registerPullRoutes(app, ctx);
  registerReviewRoutes(app, ctx);
  registerCheckRoutes(app, ctx);
  registerAttachmentRoutes(app, ctx);
  registerAppManifestRoutes(app, ctx);
  if (enterprise || options.graphql) registerGraphqlRoute(app, ctx);
  const webhooks = createWebhookSender(state);
  registerHookDeliveryRoutes(app, { state, api: () => ctx.api }, webhooks);

  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const url = enterprise ? `${origin}/api/v3` : origin;
  ctx.api = url;
  ctx.downloads = origin;
  if (enterprise && options.htmlUrl === undefined) ctx.html = origin;

  const attachmentUrl = (id: string) => `${origin}${ATTACHMENT_PATH}/${id}`;

  return {
    url,
    webUrl: origin,
    graphqlUrl: `${origin}${GHES_GRAPHQL_PATH}`,
    enterprise,
    state,
    requests,
    setAppPublicKeys: (keys) => {
      appPublicKeys = keys === null ? null : keys.map((key) => createPublicKey(key));
    },
    writes,
    events,
    callsTo: (method, path) => requests.filter((r) => methodMatches(method, r.method) && pathMatches(path, r.path)),
    unexpectedCalls: (expected) =>
      requests.filter((r) => !expected.some(([method, path]) => methodMatches(method, r.method) && pathMatches(path, r.path))),
    unknownRouteCalls: () => requests.filter((r) => r.route === null),
    offPathCalls: () => requests.filter((r) => r.servedAs === "off"),
    clearRequests: () => {
      requests.length = 0;
      writes.length = 0;
    },
    onWrite: (listener) => {
      events.on("write", listener);
      return () => events.off("write", listener);
    },
    injectFault: (spec) => {
      const fault: InjectedFault = {
        method: spec.method,
        path: spec.path,
        times: spec.times ?? 1,
        status: spec.status,
        headers: spec.headers ?? {},
        body: spec.body ?? { message: `Injected fault ${spec.status}`, documentation_url: DOCS, status: String(spec.status) },
        remaining: spec.times ?? 1,
      };
      faults.push(fault);
      return fault;
    },
    clearFaults: () => {
      faults.length = 0;
    },
    holdNext: (method, path) => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ method, path, arrive, released });
      return { arrived, release };
    },
    seed: (more) => applySeed(state, more),
    addAttachment: (bytes, contentType, attachmentOptions = {}) => {
      const id = attachmentOptions.id ?? randomUUID();
      applySeed(state, { attachments: [{ id, bytes, content_type: contentType, private: attachmentOptions.private ?? false }] });
      return attachmentUrl(id);
    },
    attachmentUrl,
    hookDeliveries: webhooks.deliveries,
    setWebhookTarget: (target) => {
      webhooks.target = target;
    },
    sendWebhook: (event, payload, sendOptions) => webhooks.send(event, payload, sendOptions),
    recordHookDelivery: (seed) => webhooks.record(seed),
    webhooksSettled: () => webhooks.settled(),
    commentsOn: (repo, issueNumber) => {
      const repository = findRepository(state, repo);
      if (!repository) return [];
      const key = `${repository.owner}/${repository.name}`;
      return state.issueComments.filter((c) => c.repo === key && c.issue_number === issueNumber).sort((a, b) => a.id - b.id);
    },
    close: () => app.close(),
  };
}

const GHES_API_PREFIX = "/api/v3";
const GHES_GRAPHQL_PATH = "/api/graphql";
/** The web host's paths: pasted attachments and the signed downloads GitHub redirects to. */
const WEB_PATH_PREFIXES = [`${ATTACHMENT_PATH}/`, `${ATTACHMENT_DOWNLOAD_PATH}/`, `${JOB_LOG_DOWNLOAD_PATH}/`];
/** The web host's pages of the App manifest flow (routes/app-manifests.ts), for a user and for an organization. */
const WEB_PAGE_PATTERN = /^\/(?:organizations\/[^/]+\/)?settings\/apps\//;
/** Off-path requests are routed under this prefix, which no route serves, so they answer 404. */
const OFF_PATH_PREFIX = "/_not_served_by_github_enterprise";
const OFF_PATH_PREFIX_PATTERN = new RegExp(`^${OFF_PATH_PREFIX}`);

function pathPart(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function decodedPath(url: string): string {
  const path = pathPart(url);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Which part of GitHub a request URL reaches, and the path the fake's routes see. */
function routeOf(url: string, enterprise: boolean): { servedAs: ServedAs; path: string } {
  const path = pathPart(url);
  if (path === GHES_API_PREFIX || path.startsWith(`${GHES_API_PREFIX}/`)) {
    // An Enterprise Server has no GraphQL under its REST base.
    if (enterprise && path === `${GHES_API_PREFIX}/graphql`) return { servedAs: "off", path: `${OFF_PATH_PREFIX}${url}` };
    return { servedAs: "api", path: url.slice(GHES_API_PREFIX.length) || "/" };
  }
  if (WEB_PATH_PREFIXES.some((prefix) => path.startsWith(prefix)) || WEB_PAGE_PATTERN.test(path)) return { servedAs: "web", path: url };
  if (!enterprise) return { servedAs: "api", path: url };
  if (path === GHES_GRAPHQL_PATH) return { servedAs: "graphql", path: url.replace(GHES_GRAPHQL_PATH, "/graphql") };
  return { servedAs: "off", path: `${OFF_PATH_PREFIX}${url}` };
}

/** GraphQL as far as the bridge uses it: `viewer { login }`, answered with the seed's writer (who the token writes as). */
function registerGraphqlRoute(app: FastifyInstance, ctx: RouteContext): void {
  app.post("/graphql", async (request, reply) => {
    const query = (request.body as { query?: unknown } | undefined)?.query;
    if (typeof query !== "string" || query.trim() === "") {
      return reply.code(400).send({ message: "A query attribute must be specified and must be a string.", documentation_url: DOCS });
    }
    if (/\bviewer\s*\{\s*login\s*\}/.test(query)) return { data: { viewer: { login: ctx.state.writer.login } } };
    return { errors: [{ message: "This fake GitHub answers only `viewer { login }`." }] };
  });
}

function headersWithoutCredentials(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === "authorization" || name === "cookie" || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/**
 * The four endpoints of spec §4 and those real deployments add (the logs under `/v1/alpha/`, the
 * organization's runs and repositories), routed at the paths of `API_PATHS`. Each request passes,
 * in order: switched-off endpoint (404) → injected faults → authentication (401) → rate limits
 * (429) → validation (400, or 422 in the FastAPI error style) → organization access (403) →
 * lookup (404) → the action. Handlers return a status and body; `answer` sends it, or plays an
 * after-action fault instead.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { API_PATHS, CreateRunRequestSchema, ResumeRunRequestSchema } from "../service/wire.js";
import type { ErrorStyle } from "./types.js";
import type { EmulatorState } from "./control.js";
import type { FaultDecision } from "./faults.js";
import type { LimitedEndpoint } from "./rate-limiter.js";
import type { RunRecord } from "./store.js";
import { pageOf } from "./store.js";
import { parseIntegerParam, validateBody, validateLogsQuery, validateRepositoriesQuery, validateRunsQuery } from "./validation.js";
import type { ValidationIssue } from "./validation.js";

export type ApiRouteName = keyof typeof API_PATHS;

export interface ApiRoute {
  method: "GET" | "POST";
  /** Fastify pattern with `:org_id` and `:agent_run_id`. */
  url: string;
  limit: LimitedEndpoint;
}

// Sentinel ids turn API_PATHS into route patterns, so that the routes follow the wire paths.
const ORG_SENTINEL = 987_654_321;
const RUN_SENTINEL = 123_456_789;

function toPattern(path: string): string {
  const pattern = path.replace(String(ORG_SENTINEL), ":org_id").replace(String(RUN_SENTINEL), ":agent_run_id");
  if (!pattern.includes(":org_id")) throw new Error(`API path ${path} does not contain the organization id`);
  return pattern;
}

export const API_ROUTES: Readonly<Record<ApiRouteName, ApiRoute>> = {
  createRun: { method: "POST", url: toPattern(API_PATHS.createRun(ORG_SENTINEL)), limit: "create" },
  getRun: { method: "GET", url: toPattern(API_PATHS.getRun(ORG_SENTINEL, RUN_SENTINEL)), limit: "standard" },
  resumeRun: { method: "POST", url: toPattern(API_PATHS.resumeRun(ORG_SENTINEL)), limit: "standard" },
  runLogs: { method: "GET", url: toPattern(API_PATHS.runLogs(ORG_SENTINEL, RUN_SENTINEL)), limit: "standard" },
  runLogsAlpha: { method: "GET", url: toPattern(API_PATHS.runLogsAlpha(ORG_SENTINEL, RUN_SENTINEL)), limit: "standard" },
  listRuns: { method: "GET", url: toPattern(API_PATHS.listRuns(ORG_SENTINEL)), limit: "standard" },
  listRepositories: { method: "GET", url: toPattern(API_PATHS.listRepositories(ORG_SENTINEL)), limit: "standard" },
};

interface RequestContext {
  token: string;
  orgIds: readonly number[];
  userId: number;
  faults: FaultDecision;
}

interface ApiAnswer {
  status: number;
  body: unknown;
}

/** What a route that is not there answers, in either style: FastAPI's own body for an unknown path. */
const ROUTE_NOT_FOUND = { detail: "Not Found" };

/** Error answers in the configured style: the spec's `{detail}`, or real deployments' `{message, status_code}` and 422. */
export function errorAnswers(style: ErrorStyle) {
  const failure = (status: number, text: string): ApiAnswer => ({
    status,
    body: style === "fastapi" ? { message: text, status_code: status } : { detail: text },
  });
  return {
    failure,
    invalid: (detail: ValidationIssue[]): ApiAnswer => ({ status: style === "fastapi" ? 422 : 400, body: { detail } }),
    notFound: (runId: number) => failure(404, style === "fastapi" ? "Agent run not found." : `agent run ${runId} not found`),
    forbidden: (orgId: number) =>
      failure(403, `this API token has no access to organization ${orgId}: use the organization id the token was issued for`),
  };
}

/** Whether a route answers now: the spec's four always do; the others as `endpoints` says. */
function isServed(name: ApiRouteName, state: EmulatorState): boolean {
  switch (name) {
    case "runLogs":
      return state.endpoints.logs.includes("spec");
    case "runLogsAlpha":
      return state.endpoints.logs.includes("alpha");
    case "listRuns":
      return state.endpoints.listRuns;
    case "listRepositories":
      return state.endpoints.listRepositories;
    default:
      return true;
  }
}

function routeNameOf(request: FastifyRequest): ApiRouteName | undefined {
  const url = request.routeOptions.url;
  return (Object.keys(API_ROUTES) as ApiRouteName[]).find(
    (name) => API_ROUTES[name].url === url && API_ROUTES[name].method === request.method,
  );
}

function bearerToken(header: string | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

export function registerApiRoutes(app: FastifyInstance, state: EmulatorState): void {
  const { store, clock, limiter, faults, options } = state;
  const contexts = new WeakMap<FastifyRequest, RequestContext>();
  const tokens = new Map(options.tokens.map((t, index) => [t.token, { orgIds: t.orgIds, userId: t.userId ?? index + 1 }]));
  const { failure, invalid, notFound, forbidden } = errorAnswers(options.errorStyle);

  function send(reply: FastifyReply, result: ApiAnswer): FastifyReply {
    return reply.code(result.status).send(result.body);
  }

  function tooManyRequests(reply: FastifyReply, detail: string, retryAfterSeconds: number | null): FastifyReply {
    if (retryAfterSeconds !== null) reply.header("retry-after", String(retryAfterSeconds));
    return send(reply, failure(429, `rate limit exceeded: ${detail}`));
  }

  function dropConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    state.stats.droppedConnections += 1;
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }

  function serverError(reply: FastifyReply, status: number): FastifyReply {
    return send(reply, failure(status, `the service is temporarily unavailable (injected fault ${status}); try again`));
  }

  function answer(request: FastifyRequest, reply: FastifyReply, result: ApiAnswer): FastifyReply {
    const decision = contexts.get(request)?.faults;
    if (decision?.afterAction && decision.drop) return dropConnection(request, reply);
    if (decision?.afterAction && decision.serverErrorStatus !== null) return serverError(reply, decision.serverErrorStatus);
    return reply.code(result.status).send(result.body);
  }

  function orgAccess(request: FastifyRequest, orgId: number): ApiAnswer | undefined {
    const orgIds = contexts.get(request)!.orgIds;
    return orgIds.includes(orgId) ? undefined : forbidden(orgId);
  }

  /** While the organization lists repositories, a `repo_id` must be one of them. */
  function repositoryIssue(orgId: number, repoId: number | null | undefined): ValidationIssue | undefined {
    if (repoId === undefined || repoId === null) return undefined;
    const listed = state.repositories.filter((repository) => repository.orgId === orgId);
    if (listed.length === 0 || listed.some((repository) => repository.id === repoId)) return undefined;
    return { loc: ["body", "repo_id"], msg: `repository ${repoId} is not a repository of organization ${orgId}`, type: "value_error" };
  }

  function findRun(orgId: number, runId: number): RunRecord | undefined {
    const record = store.find(runId);
    // A run of another organization is reported as missing: its existence is not disclosed.
    return record && record.organizationId === orgId ? record : undefined;
  }

  /** Integer path ids; their issues are reported together with the body's, as FastAPI does. */
  function pathIds(request: FastifyRequest, names: Array<"org_id" | "agent_run_id">) {
    const params = request.params as Record<string, string>;
    const issues: ValidationIssue[] = [];
    const ids: Record<string, number> = {};
    for (const name of names) {
      const parsed = parseIntegerParam("path", name, params[name]);
      if (parsed.ok) ids[name] = parsed.value;
      else issues.push(parsed.issue);
    }
    return { issues, orgId: ids.org_id ?? 0, runId: ids.agent_run_id ?? 0 };
  }

  void app.register(async (api) => {
    api.addHook("onRequest", async (request, reply) => {
      const name = routeNameOf(request);
      // Fail closed: a request that is not one of the API routes never reaches a handler unchecked.
      if (!name) return reply.code(404).send(ROUTE_NOT_FOUND);
      state.stats.requests += 1;
      state.stats.byRoute[name] = (state.stats.byRoute[name] ?? 0) + 1;
      // A switched-off endpoint is absent, as on a deployment without it: counted, nothing else checked.
      if (!isServed(name, state)) return reply.code(404).send(ROUTE_NOT_FOUND);

      const decision = faults.decide();
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      if (!decision.afterAction && decision.drop) return dropConnection(request, reply);
      if (!decision.afterAction && decision.serverErrorStatus !== null) return serverError(reply, decision.serverErrorStatus);
      if (decision.storm) {
        const retryAfter = decision.storm.retryAfterSeconds;
        const seconds = retryAfter === "default" ? (options.retryAfterHeader ? 1 : null) : retryAfter;
        return tooManyRequests(reply, "too many requests (injected rate-limit storm)", seconds);
      }

      const token = bearerToken(request.headers.authorization);
      const holder = token === undefined ? undefined : tokens.get(token);
      if (token === undefined || holder === undefined) {
        reply.header("www-authenticate", "Bearer");
        return send(
          reply,
          failure(
            401,
            token === undefined
              ? "missing API token: send the header Authorization: Bearer <API token>"
              : "invalid API token: check the token you send in Authorization: Bearer <API token>",
          ),
        );
      }

      if (options.rateLimits) {
        const decided = limiter.tryAcquire(token, API_ROUTES[name].limit, clock.now());
        if (!decided.allowed) {
          const realMs = clock.toRealMs(decided.waitMs);
          const seconds = options.retryAfterHeader ? Math.max(1, Math.ceil(realMs / 1000)) : null;
          return tooManyRequests(reply, `${decided.window.describe} per API token; retry in ${(realMs / 1000).toFixed(3)} s`, seconds);
        }
      }
      contexts.set(request, { token, orgIds: holder.orgIds, userId: holder.userId, faults: decision });
    });

    api.addHook("onResponse", async (_request, reply) => {
      if (reply.statusCode === 429) state.stats.rateLimited += 1;
      if (reply.statusCode >= 500) state.stats.serverErrors += 1;
    });

    api.route({
      method: API_ROUTES.createRun.method,
      url: API_ROUTES.createRun.url,
      handler: async (request, reply) => {
        const { issues, orgId } = pathIds(request, ["org_id"]);
        const body = validateBody(CreateRunRequestSchema, request.body);
        if (issues.length > 0 || !body.ok) return answer(request, reply, invalid([...issues, ...(body.ok ? [] : body.detail)]));
        const denied = orgAccess(request, orgId);
        if (denied) return answer(request, reply, denied);
        const unknownRepository = repositoryIssue(orgId, body.value.repo_id);
        if (unknownRepository) return answer(request, reply, invalid([unknownRepository]));
        const record = store.create(orgId, body.value, contexts.get(request)!.userId);
        state.stats.runsCreated += 1;
        return answer(request, reply, { status: 200, body: store.toWire(record) });
      },
    });

    api.route({
      method: API_ROUTES.getRun.method,
      url: API_ROUTES.getRun.url,
      handler: async (request, reply) => {
        const { issues, orgId, runId } = pathIds(request, ["org_id", "agent_run_id"]);
        if (issues.length > 0) return answer(request, reply, invalid(issues));
        const denied = orgAccess(request, orgId);
        if (denied) return answer(request, reply, denied);
        const record = findRun(orgId, runId);
        if (!record) return answer(request, reply, notFound(runId));
        return answer(request, reply, { status: 200, body: store.toWire(record) });
      },
    });

    api.route({
      method: API_ROUTES.resumeRun.method,
      url: API_ROUTES.resumeRun.url,
      handler: async (request, reply) => {
        const { issues, orgId } = pathIds(request, ["org_id"]);
        const body = validateBody(ResumeRunRequestSchema, request.body);
        if (issues.length > 0 || !body.ok) return answer(request, reply, invalid([...issues, ...(body.ok ? [] : body.detail)]));
        const denied = orgAccess(request, orgId);
        if (denied) return answer(request, reply, denied);
        const runId = body.value.agent_run_id;
        const record = findRun(orgId, runId);
        if (!record) return answer(request, reply, notFound(runId));
        const outcome = store.resume(record, body.value.prompt);
        if (!outcome.resumed) {
          return answer(request, reply, failure(409, `agent run ${runId} is still running; resume it once it has finished`));
        }
        state.stats.runsResumed += 1;
        return answer(request, reply, { status: 200, body: store.toWire(outcome.record) });
      },
    });

    const logsHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { issues, orgId, runId } = pathIds(request, ["org_id", "agent_run_id"]);
      const query = validateLogsQuery(request.query as Record<string, unknown>);
      if (issues.length > 0 || !query.ok) return answer(request, reply, invalid([...issues, ...(query.ok ? [] : query.detail)]));
      const denied = orgAccess(request, orgId);
      if (denied) return answer(request, reply, denied);
      const record = findRun(orgId, runId);
      if (!record) return answer(request, reply, notFound(runId));
      return answer(request, reply, { status: 200, body: store.logsPage(record, query.value.skip, query.value.limit) });
    };
    api.route({ method: API_ROUTES.runLogs.method, url: API_ROUTES.runLogs.url, handler: logsHandler });
    api.route({ method: API_ROUTES.runLogsAlpha.method, url: API_ROUTES.runLogsAlpha.url, handler: logsHandler });

    api.route({
      method: API_ROUTES.listRuns.method,
      url: API_ROUTES.listRuns.url,
      handler: async (request, reply) => {
        const { issues, orgId } = pathIds(request, ["org_id"]);
        const query = validateRunsQuery(request.query as Record<string, unknown>);
        if (issues.length > 0 || !query.ok) return answer(request, reply, invalid([...issues, ...(query.ok ? [] : query.detail)]));
        const denied = orgAccess(request, orgId);
        if (denied) return answer(request, reply, denied);
        return answer(request, reply, { status: 200, body: store.runsPage(orgId, query.value) });
      },
    });

    api.route({
      method: API_ROUTES.listRepositories.method,
      url: API_ROUTES.listRepositories.url,
      handler: async (request, reply) => {
        const { issues, orgId } = pathIds(request, ["org_id"]);
        const query = validateRepositoriesQuery(request.query as Record<string, unknown>);
        if (issues.length > 0 || !query.ok) return answer(request, reply, invalid([...issues, ...(query.ok ? [] : query.detail)]));
        const denied = orgAccess(request, orgId);
        if (denied) return answer(request, reply, denied);
        const repositories = state.repositories
          .filter((repository) => repository.orgId === orgId)
          .sort((a, b) => a.id - b.id)
          .map(({ orgId: organization_id, ...repository }) => ({ ...repository, organization_id }));
        return answer(request, reply, { status: 200, body: pageOf(repositories, query.value.skip, query.value.limit) });
      },
    });
  });
}

/**
 * The four endpoints of spec §4 and those real deployments add (the logs under `/v1/alpha/`, the
 * organization's runs and repositories), routed at the paths of `API_PATHS`. Each request passes,
 * in order: switched-off endpoint (404) → injected faults → authentication (401) → rate limits
 * (429) (api-gate.ts) → validation (400, or 422 in the FastAPI error style) → organization access
 * (403) → lookup (404) → the action (api-actions.ts). Actions return a status and body; the gate
 * sends it, or plays an after-action fault instead.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_PATHS } from "../service/wire.js";
import { ROUTE_ACTIONS, type ActionScope } from "./api-actions.js";
import { ApiGate, errorAnswers } from "./api-gate.js";
import type { EmulatorState } from "./control.js";
import type { LimitedEndpoint } from "./rate-limiter.js";

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

/** What a route that is not there answers, in either style: FastAPI's own body for an unknown path. */
const ROUTE_NOT_FOUND = { detail: "Not Found" };

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

export function registerApiRoutes(app: FastifyInstance, state: EmulatorState): void {
  const scope: ActionScope = { state, answers: errorAnswers(state.options.errorStyle) };
  const gate = new ApiGate(state, scope.answers.failure);
  void app.register(async (api) => {
    api.addHook("onRequest", async (request, reply) => {
      const name = routeNameOf(request);
      // Fail closed: a request that is not one of the API routes never reaches a handler unchecked.
      if (!name) return reply.code(404).send(ROUTE_NOT_FOUND);
      state.stats.requests += 1;
      state.stats.byRoute[name] = (state.stats.byRoute[name] ?? 0) + 1;
      // A switched-off endpoint is absent, as on a deployment without it: counted, nothing else checked.
      if (!isServed(name, state)) return reply.code(404).send(ROUTE_NOT_FOUND);
      return gate.admit(request, reply, API_ROUTES[name].limit);
    });

    api.addHook("onResponse", async (_request, reply) => {
      if (reply.statusCode === 429) state.stats.rateLimited += 1;
      if (reply.statusCode >= 500) state.stats.serverErrors += 1;
    });

    for (const name of Object.keys(API_ROUTES) as ApiRouteName[]) {
      const action = ROUTE_ACTIONS[name];
      api.route({
        method: API_ROUTES[name].method,
        url: API_ROUTES[name].url,
        handler: async (request, reply) => gate.answer(request, reply, action(request, gate.callerOf(request), scope)),
      });
    }
  });
}

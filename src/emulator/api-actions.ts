/**
 * Each API route's own part, once the shared checks (api-gate.ts) have let a request through:
 * validation of its path ids and body or query (400, or 422 in the FastAPI error style; every
 * issue reported together, as FastAPI does) → organization access (403) → lookup (404) → the
 * action. Each returns the status and body to send.
 */
import type { FastifyRequest } from "fastify";
import { CreateRunRequestSchema, ResumeRunRequestSchema } from "../service/wire.js";
import type { EmulatorState } from "./control.js";
import type { ApiAnswer, Caller, ErrorAnswers } from "./api-gate.js";
import type { RunRecord } from "./store.js";
import { pageOf } from "./store.js";
import { parseIntegerParam, validateBody, validateLogsQuery, validateRepositoriesQuery, validateRunsQuery } from "./validation.js";
import type { Validated, ValidationIssue } from "./validation.js";

/** What an action works with: the emulator's state and the error answers in its style. */
export interface ActionScope {
  state: EmulatorState;
  answers: ErrorAnswers;
}

type RouteAction = (request: FastifyRequest, caller: Caller, scope: ActionScope) => ApiAnswer;

type PathIdName = "org_id" | "agent_run_id";

/** A request that passed its route's checks: its ids, its parsed body or query, and who sent it. */
interface CheckedRequest<Input> {
  orgId: number;
  runId: number;
  input: Input;
  caller: Caller;
}

interface RouteSpec<Input> {
  /** The integer ids in the route's path. */
  ids: readonly PathIdName[];
  /** Reads the body or the query. */
  read(request: FastifyRequest): Validated<Input>;
  /** Runs once the request is valid and its organization is one of the caller's. */
  act(checked: CheckedRequest<Input>, scope: ActionScope): ApiAnswer;
}

/** For a route that reads neither body nor query. */
const NO_INPUT: Validated<undefined> = { ok: true, value: undefined };
const ORG_ONLY: readonly PathIdName[] = ["org_id"];
const ORG_AND_RUN: readonly PathIdName[] = ["org_id", "agent_run_id"];

const ok = (body: unknown): ApiAnswer => ({ status: 200, body });

/** Integer path ids; their issues are reported together with the body's, as FastAPI does. */
function pathIds(request: FastifyRequest, names: readonly PathIdName[]) {
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

const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/** Validation, then organization access, then the route's own action. */
function defineRoute<Input>(spec: RouteSpec<Input>): RouteAction {
  return (request, caller, scope) => {
    const { issues, orgId, runId } = pathIds(request, spec.ids);
    const input = spec.read(request);
    if (issues.length > 0 || !input.ok) return scope.answers.invalid([...issues, ...(input.ok ? [] : input.detail)]);
    if (!caller.orgIds.includes(orgId)) return scope.answers.forbidden(orgId);
    return spec.act({ orgId, runId, input: input.value, caller }, scope);
  };
}

function findRun(state: EmulatorState, orgId: number, runId: number): RunRecord | undefined {
  const record = state.store.find(runId);
  // A run of another organization is reported as missing: its existence is not disclosed.
  return record && record.organizationId === orgId ? record : undefined;
}

/** While the organization lists repositories, a `repo_id` must be one of them. */
function repositoryIssue(state: EmulatorState, orgId: number, repoId: number | null | undefined): ValidationIssue | undefined {
  if (repoId === undefined || repoId === null) return undefined;
  const listed = state.repositories.filter((repository) => repository.orgId === orgId);
  if (listed.length === 0 || listed.some((repository) => repository.id === repoId)) return undefined;
  return { loc: ["body", "repo_id"], msg: `repository ${repoId} is not a repository of organization ${orgId}`, type: "value_error" };
}

const createRun = defineRoute({
  ids: ORG_ONLY,
  read: (request) => validateBody(CreateRunRequestSchema, request.body),
  act: ({ orgId, input, caller }, { state, answers }) => {
    const unknownRepository = repositoryIssue(state, orgId, input.repo_id);
    if (unknownRepository) return answers.invalid([unknownRepository]);
    const record = state.store.create(orgId, input, caller.userId);
    state.stats.runsCreated += 1;
    const { userId, durationMs } = state.otherRuns.setting;
    for (const sourceType of state.otherRuns.afterCreate()) state.store.createOther(orgId, sourceType, userId, durationMs);
    return ok(state.store.toWire(record));
  },
});

const getRun = defineRoute({
  ids: ORG_AND_RUN,
  read: () => NO_INPUT,
  act: ({ orgId, runId }, { state, answers }) => {
    const record = findRun(state, orgId, runId);
    return record ? ok(state.store.toWire(record)) : answers.notFound(runId);
  },
});

const resumeRun = defineRoute({
  ids: ORG_ONLY,
  read: (request) => validateBody(ResumeRunRequestSchema, request.body),
  act: ({ orgId, input }, { state, answers }) => {
    const runId = input.agent_run_id;
    const record = findRun(state, orgId, runId);
    if (!record) return answers.notFound(runId);
    const outcome = state.store.resume(record, input.prompt, state.resumeWhileRunning);
    if (!outcome.resumed) return answers.failure(409, `agent run ${runId} is still running; resume it once it has finished`);
    state.stats.runsResumed += 1;
    return ok(state.store.toWire(outcome.record));
  },
});

/** The spec's logs path and the `/v1/alpha/` one answer alike. */
const runLogs = defineRoute({
  ids: ORG_AND_RUN,
  read: (request) => validateLogsQuery(queryOf(request)),
  act: ({ orgId, runId, input }, { state, answers }) => {
    const record = findRun(state, orgId, runId);
    return record ? ok(state.store.logsPage(record, input.skip, input.limit)) : answers.notFound(runId);
  },
});

const listRuns = defineRoute({
  ids: ORG_ONLY,
  read: (request) => validateRunsQuery(queryOf(request)),
  act: ({ orgId, input }, { state }) => ok(state.store.runsPage(orgId, input)),
});

const listRepositories = defineRoute({
  ids: ORG_ONLY,
  read: (request) => validateRepositoriesQuery(queryOf(request)),
  act: ({ orgId, input }, { state }) => {
    const repositories = state.repositories
      .filter((repository) => repository.orgId === orgId)
      .sort((a, b) => a.id - b.id)
      .map(({ orgId: organization_id, ...repository }) => ({ ...repository, organization_id }));
    return ok(pageOf(repositories, input.skip, input.limit));
  },
});

/** Each route's action, by the route's name in `API_ROUTES`. */
export const ROUTE_ACTIONS = { createRun, getRun, resumeRun, runLogs, runLogsAlpha: runLogs, listRuns, listRepositories };

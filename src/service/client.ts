/**
 * `AgentRunClient`, the typed client of the Agent Run Service: one method per endpoint, each
 * checking its request before sending (wire-checks.ts) and reading its answer with the wire
 * schemas. How a call travels (budget, retries, errors) is transport.ts; the endpoints real
 * deployments add, optional-endpoints.ts and logs.ts; waiting for a run, wait.ts.
 */
import type { RateBudget } from "./budget.js";
import { resolveClientOptions, type AgentRunClientOptions, type CallOptions, type ServiceLogger } from "./client-options.js";
import { logEntriesFrom, LogsPathInUse } from "./logs.js";
import { InterruptSupport } from "./interrupts.js";
import { OptionalEndpoints, type OptionalEndpoint, type OptionalListing } from "./optional-endpoints.js";
import { classifyRunStatus } from "./status.js";
import { ServiceTransport } from "./transport.js";
import { pollUntilFinal, type WaitOptions } from "./wait.js";
import { definedOnly, dropNullish, parse, validate, validateRunId } from "./wire-checks.js";
import {
  API_PATHS,
  AgentRunSchema,
  AgentRunWithLogsSchema,
  CreateRunRequestSchema,
  ListRepositoriesQuerySchema,
  ListRunsQuerySchema,
  LogsQuerySchema,
  RepositoriesPageSchema,
  ResumeRunRequestSchema,
  RunsPageSchema,
  type AgentRun,
  type AgentRunWithLogs,
  type CreateRunRequest,
  type ListRepositoriesQuery,
  type ListRunsQuery,
  type LogEntry,
  type RepositoriesPage,
  type RunsPage,
} from "./wire.js";

export type { AgentRunClientOptions, CallOptions, SentAheadRequest, ServiceLogger } from "./client-options.js";
export type { OptionalEndpoint, OptionalListing } from "./optional-endpoints.js";
export { RunStillGoingError, type WaitOptions } from "./wait.js";

export class AgentRunClient {
  readonly orgId: number;
  readonly budget: RateBudget;
  private readonly transport: ServiceTransport;
  /** Each poll of a wait may last this long past the wait's deadline (the per-request timeout). */
  private readonly timeoutMs: number;
  private readonly logger: ServiceLogger;
  private readonly logsPathInUse: LogsPathInUse;
  private readonly optionalEndpoints: OptionalEndpoints;
  private readonly reportedStatuses = new Set<string>();
  /** Whether this deployment takes a follow-up while the run works (detected on first refusal, remembered a while). */
  readonly interrupts: InterruptSupport;

  constructor(options: AgentRunClientOptions) {
    const settings = resolveClientOptions(options);
    this.orgId = settings.orgId;
    this.budget = settings.budget;
    this.transport = new ServiceTransport(settings);
    this.timeoutMs = settings.timeoutMs;
    this.logger = settings.logger;
    this.logsPathInUse = new LogsPathInUse(settings.logsPath, settings.logger);
    this.optionalEndpoints = new OptionalEndpoints(settings.logger);
    this.interrupts = new InterruptSupport(settings.logger);
  }

  /** Which logs path this client uses now: `spec`, `alpha`, or undefined while not yet detected. */
  get logsPath(): "spec" | "alpha" | undefined {
    return this.logsPathInUse.current;
  }

  /** Whether an optional endpoint answered 404/405 to this client (it is not asked again). */
  isUnsupported(endpoint: OptionalEndpoint): boolean {
    return this.optionalEndpoints.isUnsupported(endpoint);
  }

  /** Starts a run. Retried only when the service certainly did not act (429, connection refused). */
  async createRun(request: CreateRunRequest, options: CallOptions = {}): Promise<AgentRun> {
    const body = validate(CreateRunRequestSchema, request, "create request");
    const data = await this.transport.send("POST", API_PATHS.createRun(this.orgId), {
      ...options,
      body: dropNullish(body),
      kind: "create",
      idempotent: false,
    });
    return this.noteStatus(parse(AgentRunSchema, data, "create response"));
  }

  async getRun(runId: number, options: CallOptions = {}): Promise<AgentRun> {
    const id = validateRunId(runId);
    const data = await this.transport.send("GET", API_PATHS.getRun(this.orgId, id), { ...options, kind: "read", idempotent: true });
    return this.noteStatus(parse(AgentRunSchema, data, "run"));
  }

  /** Continues a finished run with a follow-up. Sends exactly `agent_run_id` and `prompt` (spec §4.3). */
  async resumeRun(runId: number, prompt: string, options: CallOptions = {}): Promise<AgentRun> {
    const body = validate(ResumeRunRequestSchema, { agent_run_id: runId, prompt }, "resume request");
    const data = await this.transport.send("POST", API_PATHS.resumeRun(this.orgId), { ...options, body, kind: "read", idempotent: false });
    return this.noteStatus(parse(AgentRunSchema, data, "resume response"));
  }

  /**
   * Sends a follow-up to a run that is still working (`follow_up: interrupt`): a resume while it runs.
   * Throws InterruptRefusedError when the service will not take one (remembered: see `interrupts`);
   * like any resume it is never repeated blindly after a timeout or a dropped connection.
   */
  async interruptRun(runId: number, prompt: string, options: CallOptions = {}): Promise<AgentRun> {
    try {
      return await this.resumeRun(runId, prompt, options);
    } catch (error) {
      throw this.interrupts.judge(error, runId);
    }
  }

  /**
   * One page of a run's logs (ALPHA). Until a path has answered, a 404 on the spec's path is tried
   * again on the `/v1/alpha/` path; the one that answers is kept for every later call. When both
   * answer 404 the run itself is missing, and the spec path's NotFoundError is thrown.
   */
  async listLogs(runId: number, query: { skip?: number; limit?: number } = {}, options: CallOptions = {}): Promise<AgentRunWithLogs> {
    const id = validateRunId(runId);
    const q = validate(LogsQuerySchema, query, "logs query");
    return this.logsPathInUse.fetch(API_PATHS.runLogsAlpha(this.orgId, id), async (which) => {
      const path = which === "alpha" ? API_PATHS.runLogsAlpha(this.orgId, id) : API_PATHS.runLogs(this.orgId, id);
      const data = await this.transport.send("GET", path, {
        ...options,
        query: { skip: q.skip, limit: q.limit },
        kind: "read",
        idempotent: true,
      });
      return this.noteStatus(parse(AgentRunWithLogsSchema, data, "logs response"));
    });
  }

  /**
   * One page of the organization's runs, newest first (real deployments; not in the spec). A
   * deployment without the endpoint (404/405) gets `unsupported`, said once, and is not asked again.
   */
  async listRuns(query: ListRunsQuery = {}, options: CallOptions = {}): Promise<OptionalListing<RunsPage>> {
    const q = validate(ListRunsQuerySchema, query, "runs query");
    const path = API_PATHS.listRuns(this.orgId);
    const fetchPage = () => this.transport.send("GET", path, { ...options, query: definedOnly(q), kind: "read", idempotent: true });
    return this.optionalEndpoints.list({ endpoint: "listRuns", path, schema: RunsPageSchema, what: "runs page", fetchPage });
  }

  /** One page of the organization's repositories (real deployments; not in the spec), detected like `listRuns`. */
  async listRepositories(query: ListRepositoriesQuery = {}, options: CallOptions = {}): Promise<OptionalListing<RepositoriesPage>> {
    const q = validate(ListRepositoriesQuerySchema, query, "repositories query");
    const path = API_PATHS.listRepositories(this.orgId);
    const fetchPage = () => this.transport.send("GET", path, { ...options, query: definedOnly(q), kind: "read", idempotent: true });
    return this.optionalEndpoints.list({
      endpoint: "listRepositories",
      path,
      schema: RepositoriesPageSchema,
      what: "repositories page",
      fetchPage,
    });
  }

  /** Says once per value that a status is unknown: such runs are watched until their deadline. */
  private noteStatus<R extends { status?: string | null }>(run: R): R {
    const status = run.status;
    if (typeof status === "string" && classifyRunStatus(status) === "unknown" && !this.reportedStatuses.has(status)) {
      this.reportedStatuses.add(status);
      this.logger.warn(
        `The service reported the run status "${status.slice(0, 60)}", which the bridge does not know: such runs are watched until their deadline.`,
      );
    }
    return run;
  }

  /** Every log entry of a run from `skip` on, in as few requests as the page size allows. */
  async *iterateLogs(runId: number, options: CallOptions & { skip?: number; pageSize?: number } = {}): AsyncGenerator<LogEntry> {
    yield* logEntriesFrom((skip, limit) => this.listLogs(runId, { skip, limit }, options), options);
  }

  /** Polls until the run reaches a final phase; the interval grows from short to a cap, jittered. */
  async waitForRun(runId: number, options: WaitOptions = {}): Promise<AgentRun> {
    return pollUntilFinal(runId, (callOptions) => this.getRun(runId, callOptions), options, this.timeoutMs);
  }
}

import pRetry from "p-retry";
import type * as z from "zod/mini";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import { createInProcessBudget, defaultWindows, type BudgetKind, type RateBudget } from "./budget.js";
import {
  AgentRunError,
  ConfigurationError,
  DeadlineError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  NotFoundError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  certainlyNotActedOn,
  errorForStatus,
  readErrorBody,
} from "./errors.js";
import { serviceUrl } from "./paths.js";
import { classifyRunStatus, isFinalPhase, type RunPhase } from "./status.js";
import {
  API_PATHS,
  AgentRunSchema,
  AgentRunWithLogsSchema,
  CreateRunRequestSchema,
  ListRepositoriesQuerySchema,
  ListRunsQuerySchema,
  LOGS_PAGE_MAX,
  LogsPathChoiceSchema,
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
  type LogsPathChoice,
  type RepositoriesPage,
  type RunsPage,
} from "./wire.js";

/** Where the client writes the few things an operator should know (one line each, never a token). */
export interface ServiceLogger {
  warn(message: string): void;
}

/** The optional endpoints of real deployments that the client detects (spec §4.5, facts.md). */
export type OptionalEndpoint = "listRuns" | "listRepositories";

/** An optional endpoint's answer: a page, or "this deployment has no such endpoint" (404/405, remembered per client). */
export type OptionalListing<P> = { kind: "page"; page: P } | { kind: "unsupported"; endpoint: OptionalEndpoint };

const defaultLogger: ServiceLogger = { warn: (message) => console.warn(`agent-run-bridge: ${message}`) };

export interface SentAheadRequest {
  method: "GET";
  url: URL;
  response: Promise<Response>;
}

/** One key per address whatever the order of its query parameters. */
function requestKey(method: string, url: URL): string {
  const query = new URLSearchParams(url.searchParams);
  query.sort();
  return `${method} ${url.origin}${url.pathname}?${query.toString()}`;
}

export interface AgentRunClientOptions {
  /** The service's base address; the spec names no host, so it must be configured. */
  baseUrl: string;
  token: string;
  orgId: number;
  budget?: RateBudget;
  /** Scales the default budget's windows and the wait after an unexplained 429 (1 = real time). */
  timeScale?: number;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  /** Retries for retryable failures (429s do not use them up; deadlines bound them). Default 5. */
  retries?: number;
  /** Backoff bounds (ms) between retries. Defaults 500 ms → 30 s, doubled, with jitter. */
  backoff?: { minMs?: number; maxMs?: number };
  userAgent?: string;
  fetch?: typeof fetch;
  /**
   * The logs endpoint's path: `auto` (default) tries the spec's and, on a 404, the `/v1/alpha/` one
   * real deployments publish, then keeps whichever answered; `spec` or `alpha` pins one.
   */
  logsPath?: LogsPathChoice;
  /** Default: one line on stderr per event. */
  logger?: ServiceLogger;
  /**
   * Requests a caller sent before this client existed, with this client's base URL, token and user
   * agent (the Action's head start): the first call to the same method and address takes the answer
   * over instead of sending again, counted by the budget and read as any answer; a failed one is
   * retried as any failure.
   */
  sentAhead?: readonly SentAheadRequest[];
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Epoch ms. Waits for budget, retries and polls stop here. */
  deadline?: number;
  /**
   * Called after rate budget is granted, right before each attempt goes on the wire: a durable
   * caller records "sent, outcome unknown" here, so a crash mid-call is never blindly repeated.
   */
  beforeSend?: () => void | Promise<void>;
}

export interface WaitOptions extends CallOptions {
  /** Called on the first poll and whenever the status changes. */
  onUpdate?: (run: AgentRun, phase: RunPhase) => void;
  intervalMs?: { initial?: number; max?: number; factor?: number };
}

interface SendOptions extends CallOptions {
  body?: unknown;
  query?: Record<string, number | string>;
  kind: BudgetKind;
  /** Safe to repeat after an ambiguous failure (a timeout, a 500): reads are, creates and resumes are not. */
  idempotent: boolean;
}

/** Without Retry-After, an unexplained 429 is waited out for the documented window. */
const DEFAULT_CALL_DEADLINE_MS = 10 * 60_000;

/** A watch reached its deadline while the run kept going; `lastRun` is the last state seen. */
export class RunStillGoingError extends DeadlineError {
  override name = "RunStillGoingError";
  constructor(
    message: string,
    readonly lastRun: AgentRun,
  ) {
    super(message);
  }
}

export class AgentRunClient {
  readonly orgId: number;
  readonly budget: RateBudget;
  private readonly baseUrl: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoff: { minMs: number; maxMs: number };
  private readonly userAgent: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeScale: number;
  private readonly logger: ServiceLogger;
  /** The logs path in use: pinned by the options, or the one that answered first. */
  private logsPathInUse: "spec" | "alpha" | undefined;
  private readonly unsupported = new Set<OptionalEndpoint>();
  private readonly reportedStatuses = new Set<string>();
  private readonly sentAhead = new Map<string, Promise<Response>>();

  constructor(options: AgentRunClientOptions) {
    const problems: string[] = [];
    let base: URL | undefined;
    try {
      base = new URL(options.baseUrl);
      if (base.protocol !== "http:" && base.protocol !== "https:") problems.push("the base URL must be http(s)");
    } catch {
      problems.push("the base URL is missing or not a URL (set AGENT_RUN_API_URL or --api-url)");
    }
    if (!options.token || typeof options.token !== "string") {
      problems.push("the API token is missing (set AGENT_RUN_API_TOKEN or --token)");
    }
    if (!Number.isInteger(options.orgId) || options.orgId <= 0) {
      problems.push("the organization id must be a positive integer (set AGENT_RUN_ORG_ID or --org-id)");
    }
    const logsPath = LogsPathChoiceSchema.safeParse(options.logsPath ?? "auto");
    if (!logsPath.success) problems.push(`the logs path must be auto, spec or alpha (AGENT_RUN_LOGS_PATH), got "${String(options.logsPath)}"`);
    if (problems.length > 0 || !base) throw new ConfigurationError(`Cannot create the Agent Run client: ${problems.join("; ")}.`);
    this.baseUrl = base.toString().replace(/\/+$/, "");
    this.token = options.token;
    this.orgId = options.orgId;
    this.timeScale = options.timeScale ?? 1;
    this.budget = options.budget ?? createInProcessBudget({ timeScale: this.timeScale });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retries = options.retries ?? 5;
    this.backoff = { minMs: options.backoff?.minMs ?? 500, maxMs: options.backoff?.maxMs ?? 30_000 };
    this.userAgent = options.userAgent ?? `${BRIDGE_NAME}/${BRIDGE_VERSION}`;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.logger = options.logger ?? defaultLogger;
    this.logsPathInUse = logsPath.data === "auto" ? undefined : logsPath.data;
    for (const request of options.sentAhead ?? []) this.sentAhead.set(requestKey(request.method, request.url), request.response);
  }

  /** Which logs path this client uses now: `spec`, `alpha`, or undefined while not yet detected. */
  get logsPath(): "spec" | "alpha" | undefined {
    return this.logsPathInUse;
  }

  /** Whether an optional endpoint answered 404/405 to this client (it is not asked again). */
  isUnsupported(endpoint: OptionalEndpoint): boolean {
    return this.unsupported.has(endpoint);
  }

  /** Starts a run. Retried only when the service certainly did not act (429, connection refused). */
  async createRun(request: CreateRunRequest, options: CallOptions = {}): Promise<AgentRun> {
    const body = validate(CreateRunRequestSchema, request, "create request");
    const data = await this.send("POST", API_PATHS.createRun(this.orgId), { ...options, body: dropNullish(body), kind: "create", idempotent: false });
    return this.noteStatus(parse(AgentRunSchema, data, "create response"));
  }

  async getRun(runId: number, options: CallOptions = {}): Promise<AgentRun> {
    const id = validateRunId(runId);
    const data = await this.send("GET", API_PATHS.getRun(this.orgId, id), { ...options, kind: "read", idempotent: true });
    return this.noteStatus(parse(AgentRunSchema, data, "run"));
  }

  /** Continues a finished run with a follow-up. Sends exactly `agent_run_id` and `prompt` (spec §4.3). */
  async resumeRun(runId: number, prompt: string, options: CallOptions = {}): Promise<AgentRun> {
    const body = validate(ResumeRunRequestSchema, { agent_run_id: runId, prompt }, "resume request");
    const data = await this.send("POST", API_PATHS.resumeRun(this.orgId), { ...options, body, kind: "read", idempotent: false });
    return this.noteStatus(parse(AgentRunSchema, data, "resume response"));
  }

  /**
   * One page of a run's logs (ALPHA). Until a path has answered, a 404 on the spec's path is tried
   * again on the `/v1/alpha/` path; the one that answers is kept for every later call. When both
   * answer 404 the run itself is missing, and the spec path's NotFoundError is thrown.
   */
  async listLogs(runId: number, query: { skip?: number; limit?: number } = {}, options: CallOptions = {}): Promise<AgentRunWithLogs> {
    const id = validateRunId(runId);
    const q = validate(LogsQuerySchema, query, "logs query");
    const fetchFrom = async (which: "spec" | "alpha") => {
      const path = which === "alpha" ? API_PATHS.runLogsAlpha(this.orgId, id) : API_PATHS.runLogs(this.orgId, id);
      const data = await this.send("GET", path, { ...options, query: { skip: q.skip, limit: q.limit }, kind: "read", idempotent: true });
      return this.noteStatus(parse(AgentRunWithLogsSchema, data, "logs response"));
    };
    if (this.logsPathInUse) return fetchFrom(this.logsPathInUse);
    let page: AgentRunWithLogs;
    try {
      page = await fetchFrom("spec");
    } catch (specError) {
      if (!(specError instanceof NotFoundError)) throw specError;
      try {
        page = await fetchFrom("alpha");
      } catch (alphaError) {
        throw alphaError instanceof NotFoundError ? specError : alphaError;
      }
      if (!this.logsPathInUse) {
        this.logger.warn(`The logs endpoint answers at ${pathTemplate(API_PATHS.runLogsAlpha(this.orgId, id))} (not the spec's path): this client uses that path from now on.`);
      }
      this.logsPathInUse = "alpha";
      return page;
    }
    this.logsPathInUse = "spec";
    return page;
  }

  /**
   * One page of the organization's runs, newest first (real deployments; not in the spec). A
   * deployment without the endpoint (404/405) gets `unsupported`, said once, and is not asked again.
   */
  async listRuns(query: ListRunsQuery = {}, options: CallOptions = {}): Promise<OptionalListing<RunsPage>> {
    const q = validate(ListRunsQuerySchema, query, "runs query");
    return this.listOptional("listRuns", API_PATHS.listRuns(this.orgId), definedOnly(q), options, RunsPageSchema, "runs page");
  }

  /** One page of the organization's repositories (real deployments; not in the spec), detected like `listRuns`. */
  async listRepositories(query: ListRepositoriesQuery = {}, options: CallOptions = {}): Promise<OptionalListing<RepositoriesPage>> {
    const q = validate(ListRepositoriesQuerySchema, query, "repositories query");
    return this.listOptional("listRepositories", API_PATHS.listRepositories(this.orgId), definedOnly(q), options, RepositoriesPageSchema, "repositories page");
  }

  private async listOptional<S extends z.ZodMiniType>(
    endpoint: OptionalEndpoint,
    path: string,
    query: Record<string, number | string>,
    options: CallOptions,
    schema: S,
    what: string,
  ): Promise<OptionalListing<z.output<S>>> {
    if (this.unsupported.has(endpoint)) return { kind: "unsupported", endpoint };
    let data: unknown;
    try {
      data = await this.send("GET", path, { ...options, query, kind: "read", idempotent: true });
    } catch (error) {
      if (error instanceof AgentRunError && (error.status === 404 || error.status === 405)) {
        if (!this.unsupported.has(endpoint)) {
          this.unsupported.add(endpoint);
          this.logger.warn(`The service has no ${pathTemplate(path)} endpoint (${error.status}): ${OPTIONAL_FEATURE[endpoint]} is off for this client.`);
        }
        return { kind: "unsupported", endpoint };
      }
      throw error;
    }
    return { kind: "page", page: parse(schema, data, what) };
  }

  /** Says once per value that a status is unknown: such runs are watched until their deadline. */
  private noteStatus<R extends { status?: string | null }>(run: R): R {
    const status = run.status;
    if (typeof status === "string" && classifyRunStatus(status) === "unknown" && !this.reportedStatuses.has(status)) {
      this.reportedStatuses.add(status);
      this.logger.warn(`The service reported the run status "${status.slice(0, 60)}", which the bridge does not know: such runs are watched until their deadline.`);
    }
    return run;
  }

  /** Every log entry of a run from `skip` on, in as few requests as the page size allows. */
  async *iterateLogs(runId: number, options: CallOptions & { skip?: number; pageSize?: number } = {}): AsyncGenerator<LogEntry> {
    const limit = Math.min(options.pageSize ?? LOGS_PAGE_MAX, LOGS_PAGE_MAX);
    let skip = options.skip ?? 0;
    for (;;) {
      const page = await this.listLogs(runId, { skip, limit }, options);
      for (const entry of page.logs) yield entry;
      skip += page.logs.length;
      const total = page.total_logs;
      if (page.logs.length < limit) return;
      if (typeof total === "number" && skip >= total) return;
    }
  }

  /** Polls until the run reaches a final phase; the interval grows from short to a cap, jittered. */
  async waitForRun(runId: number, options: WaitOptions = {}): Promise<AgentRun> {
    const initial = options.intervalMs?.initial ?? 2_000;
    const max = options.intervalMs?.max ?? 30_000;
    const factor = options.intervalMs?.factor ?? 1.5;
    let interval = initial;
    let lastStatus: string | null | undefined = undefined;
    let first = true;
    for (;;) {
      // The last poll happens at the deadline itself: give that one request its own timeout of grace.
      const callDeadline = options.deadline === undefined ? undefined : options.deadline + this.timeoutMs;
      const run = await this.getRun(runId, { signal: options.signal, deadline: callDeadline });
      const phase = classifyRunStatus(run.status);
      if (first || run.status !== lastStatus) options.onUpdate?.(run, phase);
      first = false;
      lastStatus = run.status;
      if (isFinalPhase(phase)) return run;
      let pause = jitter(interval);
      if (options.deadline !== undefined) {
        const left = options.deadline - Date.now();
        if (left <= 0) {
          throw new RunStillGoingError(
            `Run ${runId} is still ${run.status ?? "running"} at the deadline; it keeps going: follow it at ${run.web_url ?? "its web page"}.`,
            run,
          );
        }
        // One last look exactly at the deadline rather than giving up a pause early.
        pause = Math.min(pause, left);
      }
      await sleep(pause, options.signal);
      interval = Math.min(max, interval * factor);
    }
  }

  private async send(method: "GET" | "POST", path: string, options: SendOptions): Promise<unknown> {
    try {
      return await this.sendWithRetries(method, path, options);
    } catch (error) {
      // p-retry rejects with the signal's own reason when aborted between attempts: keep one error type.
      if (options.signal?.aborted && !(error instanceof AgentRunError)) {
        throw new DeadlineError(`The request was cancelled: ${String(options.signal.reason ?? "aborted")}.`, { method, path });
      }
      throw error;
    }
  }

  private async sendWithRetries(method: "GET" | "POST", path: string, options: SendOptions): Promise<unknown> {
    const deadline = options.deadline ?? Date.now() + DEFAULT_CALL_DEADLINE_MS;
    const url = serviceUrl(this.baseUrl, path, options.query);

    const attempt = async (): Promise<unknown> => {
      await this.budget.acquire(options.kind, { signal: options.signal, deadline });
      await options.beforeSend?.();
      return this.sendOnce(method, path, url, options);
    };

    return pRetry(attempt, {
      retries: this.retries,
      factor: 2,
      minTimeout: this.backoff.minMs,
      maxTimeout: this.backoff.maxMs,
      randomize: true,
      maxRetryTime: Math.max(0, deadline - Date.now()),
      signal: options.signal,
      onFailedAttempt: async ({ error }) => {
        if (error instanceof RateLimitError) {
          // Honour Retry-After; without it, wait out the documented window. Shared through the budget.
          const windows = defaultWindows(this.timeScale);
          const windowMs = options.kind === "create" ? windows.create.durationMs : windows.shared.durationMs;
          const waitMs = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : windowMs;
          if (Date.now() + waitMs > deadline) throw error;
          this.budget.pause(options.kind === "create" ? "create" : "read", waitMs);
        }
      },
      // A 429 is the service pacing us, not a failure: it does not use up a retry (the deadline bounds it).
      shouldConsumeRetry: ({ error }) => !(error instanceof RateLimitError),
      shouldRetry: ({ error }) => {
        if (Date.now() >= deadline) return false;
        if (!options.idempotent) return certainlyNotActedOn(error);
        return error instanceof RateLimitError || error instanceof ServerError || error instanceof NetworkError || error instanceof TimeoutError;
      },
    });
  }

  private async sendOnce(method: string, path: string, url: URL, options: SendOptions): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    const key = requestKey(method, url);
    const ahead = this.sentAhead.get(key);
    this.sentAhead.delete(key);
    try {
      response = ahead ? await untilAborted(ahead, signal) : await this.fetchImpl(url, {
        method,
        headers: {
          accept: "application/json",
          authorization: `Bearer ${this.token}`,
          "user-agent": this.userAgent,
          ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal,
      });
    } catch (error) {
      throw this.transportError(error, method, path, options.signal, timeout);
    }

    const text = await response.text().catch((error: unknown) => {
      throw this.transportError(error, method, path, options.signal, timeout);
    });
    if (!response.ok) {
      throw errorForStatus(response.status, {
        method,
        path,
        ...readErrorBody(text),
        retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
      });
    }
    try {
      return text === "" ? null : JSON.parse(text);
    } catch {
      throw new InvalidResponseError(`The service answered ${response.status} with a body that is not JSON.`, { method, path, status: response.status });
    }
  }

  private transportError(error: unknown, method: string, path: string, userSignal: AbortSignal | undefined, timeout: AbortSignal): Error {
    if (error instanceof AgentRunError) return error;
    if (userSignal?.aborted) {
      return new DeadlineError(`The request was cancelled: ${String(userSignal.reason ?? "aborted")}.`, { method, path });
    }
    if (timeout.aborted) {
      return new TimeoutError(
        `No answer within ${this.timeoutMs} ms: the service may still have acted on it; check before repeating a create.`,
        { method, path },
      );
    }
    const code = networkCode(error);
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    return new NetworkError(
      notSent
        ? `Cannot reach the service (${code}): check AGENT_RUN_API_URL and that the service is up.`
        : `The connection to the service failed (${code ?? "network error"}): the request may or may not have reached it.`,
      { method, path, certainlyNotSent: notSent, cause: error },
    );
  }
}

/** A request sent ahead, awaited as this call's own: its signal (the caller's, the timeout) still ends the wait. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error as Error);
      },
    );
  });
}

/** Connection-level failures that happen before a request can reach the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      current = errors[0];
      continue;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function validate<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new RequestValidationError(
      what,
      result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)),
    );
  }
  return result.data;
}

function validateRunId(runId: number): number {
  if (!Number.isInteger(runId) || runId <= 0) throw new RequestValidationError("run id", [`must be a positive integer, got ${String(runId)}`]);
  return runId;
}

function parse<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const detail = result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
    throw new InvalidResponseError(`The service's ${what} cannot be read: ${detail}.`);
  }
  return result.data;
}

/** What each optional endpoint enables, for the one log line that says it is off. */
const OPTIONAL_FEATURE: Record<OptionalEndpoint, string> = {
  listRuns: "finding runs whose create was interrupted (crash recovery)",
  listRepositories: "finding a repository's repo_id from the service's list",
};

/** A path with its ids as placeholders, for messages: `/v1/organizations/{org_id}/agent/run/{id}/logs`. */
function pathTemplate(path: string): string {
  return path.replace(/\/organizations\/\d+/, "/organizations/{org_id}").replace(/\/run\/\d+(?=\/|$)/, "/run/{id}");
}

function definedOnly(query: Record<string, number | string | undefined>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, number | string] => entry[1] !== undefined));
}

function dropNullish(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null));
}

/** Retry-After as seconds: either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - Date.now()) / 1000);
}

function jitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DeadlineError(`Stopped waiting: ${String(signal.reason ?? "aborted")}.`));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DeadlineError(`Stopped waiting: ${String(signal?.reason ?? "aborted")}.`));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * What an `AgentRunClient` is configured with, and the settings it resolves them to: defaults
 * filled in, and every problem with the base URL, token, organization and logs path reported
 * together in one ConfigurationError, before anything is sent.
 */
import { BRIDGE_NAME, BRIDGE_VERSION } from "../version.js";
import { createInProcessBudget, type RateBudget, type ReadPriority } from "./budget.js";
import { ConfigurationError } from "./errors.js";
import { LogsPathChoiceSchema, type LogsPathChoice } from "./wire.js";

/** Where the client writes the few things an operator should know (one line each, never a token). */
export interface ServiceLogger {
  warn(message: string): void;
}

const defaultLogger: ServiceLogger = { warn: (message) => console.warn(`agent-run-bridge: ${message}`) };

export interface SentAheadRequest {
  method: "GET";
  url: URL;
  response: Promise<Response>;
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
  /** A read's turn among waiting reads (budget.ts): `report`, `sweep`, `status` (default), `progress`. */
  priority?: ReadPriority;
  /** Among waiting reads of one priority, smaller goes first (epoch ms; budget.ts). Default: first come first served. */
  order?: number;
  /**
   * Called after rate budget is granted, right before each attempt goes on the wire: a durable
   * caller records "sent, outcome unknown" here, so a crash mid-call is never blindly repeated.
   */
  beforeSend?: () => void | Promise<void>;
}

/** The options with every default filled in. */
export interface ClientSettings {
  /** Without trailing slashes. */
  baseUrl: string;
  token: string;
  orgId: number;
  budget: RateBudget;
  timeScale: number;
  timeoutMs: number;
  retries: number;
  backoff: { minMs: number; maxMs: number };
  userAgent: string;
  fetch: typeof fetch;
  logger: ServiceLogger;
  /** The pinned logs path; undefined for `auto` (detected on first use). */
  logsPath: "spec" | "alpha" | undefined;
  sentAhead: readonly SentAheadRequest[];
}

/** The problems with the options a client cannot work without, each with the setting that fixes it. */
function problemsOf(options: AgentRunClientOptions): { problems: string[]; base: URL | undefined } {
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
  return { problems, base };
}

export function resolveClientOptions(options: AgentRunClientOptions): ClientSettings {
  const { problems, base } = problemsOf(options);
  const logsPath = LogsPathChoiceSchema.safeParse(options.logsPath ?? "auto");
  if (!logsPath.success)
    problems.push(`the logs path must be auto, spec or alpha (AGENT_RUN_LOGS_PATH), got "${String(options.logsPath)}"`);
  if (problems.length > 0 || !base) throw new ConfigurationError(`Cannot create the Agent Run client: ${problems.join("; ")}.`);
  const timeScale = options.timeScale ?? 1;
  return {
    baseUrl: base.toString().replace(/\/+$/, ""),
    token: options.token,
    orgId: options.orgId,
    budget: options.budget ?? createInProcessBudget({ timeScale }),
    timeScale,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 5,
    backoff: { minMs: options.backoff?.minMs ?? 500, maxMs: options.backoff?.maxMs ?? 30_000 },
    userAgent: options.userAgent ?? `${BRIDGE_NAME}/${BRIDGE_VERSION}`,
    fetch: options.fetch ?? globalThis.fetch,
    logger: options.logger ?? defaultLogger,
    logsPath: logsPath.data === "auto" ? undefined : logsPath.data,
    sentAhead: options.sentAhead ?? [],
  };
}

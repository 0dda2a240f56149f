/**
 * One error hierarchy for every failure of the service a user can act on. Messages say what to do
 * next; they carry the method, path, status and the server's own words, never the token.
 */
import { ErrorBodySchema } from "./wire.js";

/** One rejected field of a validation failure: `prompt`, `repo_id`, `query.limit`… and why. */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface ServiceErrorDetails {
  method?: string;
  path?: string;
  status?: number;
  /** The server's `message` or `detail`, flattened to one line. */
  serverMessage?: string;
  /** The fields a validation failure (FastAPI's `detail: [{loc, msg}]`) names. */
  fieldIssues?: FieldIssue[];
  /** Seconds the server asked us to wait (Retry-After), when it said so. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AgentRunError extends Error {
  override name = "AgentRunError";
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly serverMessage?: string;
  /** The rejected fields, when the service named them (empty otherwise). */
  readonly fieldIssues: readonly FieldIssue[];

  constructor(message: string, details: ServiceErrorDetails = {}) {
    super(composeMessage(message, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.fieldIssues = details.fieldIssues ?? [];
  }

  /** The names of the rejected fields, e.g. ["prompt"]. */
  get rejectedFields(): string[] {
    return [...new Set(this.fieldIssues.map((issue) => issue.field))];
  }
}

function composeMessage(message: string, d: ServiceErrorDetails): string {
  const where = d.method && d.path ? ` [${d.method} ${d.path}]` : "";
  const server = d.serverMessage ? ` Server said: ${d.serverMessage}` : "";
  return `${message}${where}${server}`;
}

/** A request the bridge refused to send because it breaks the spec. Nothing was sent. */
export class RequestValidationError extends AgentRunError {
  override name = "RequestValidationError";
  readonly issues: string[];
  constructor(what: string, issues: string[]) {
    super(`Invalid ${what}: ${issues.join("; ")}. Nothing was sent.`);
    this.issues = issues;
  }
}

/**
 * The base of a failure that adds nothing but its own name: `error.name` (what `String(error)`
 * starts with) is given as a string, since the Action's bundle is minified and renames classes.
 */
function namedFailure(errorName: string): typeof AgentRunError {
  return class extends AgentRunError {
    override name = errorName;
  };
}

/** Missing or malformed client configuration (base URL, token, organization). */
export class ConfigurationError extends namedFailure("ConfigurationError") {}

/** The service answered with something the bridge cannot read (e.g. a run without an `id`). */
export class InvalidResponseError extends namedFailure("InvalidResponseError") {}

// One class per status a caller may want to catch (errorForStatus picks it).
export class BadRequestError extends namedFailure("BadRequestError") {}
export class AuthenticationError extends namedFailure("AuthenticationError") {}
export class PermissionError extends namedFailure("PermissionError") {}
export class NotFoundError extends namedFailure("NotFoundError") {}
export class PaymentRequiredError extends namedFailure("PaymentRequiredError") {}
export class UnprocessableError extends namedFailure("UnprocessableError") {}
export class RateLimitError extends AgentRunError {
  override name = "RateLimitError";
  readonly retryAfterSeconds?: number;
  constructor(message: string, details: ServiceErrorDetails = {}) {
    super(message, details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
export class ClientRequestError extends namedFailure("ClientRequestError") {}
export class ServerError extends namedFailure("ServerError") {}
/** The connection failed. `certainlyNotSent` is true when the service cannot have acted (refused). */
export class NetworkError extends AgentRunError {
  override name = "NetworkError";
  readonly certainlyNotSent: boolean;
  constructor(message: string, details: ServiceErrorDetails & { certainlyNotSent: boolean }) {
    super(message, details);
    this.certainlyNotSent = details.certainlyNotSent;
  }
}
export class TimeoutError extends namedFailure("TimeoutError") {}
/** A resume of a run that is still working, refused by the service (see interrupts.ts): nothing reached the agent. */
export class InterruptRefusedError extends namedFailure("InterruptRefusedError") {}
/** A wait (for a run, or for rate budget) passed its deadline or was aborted. */
export class DeadlineError extends namedFailure("DeadlineError") {}

/** "prompt", "prompt and repo_id", "prompt, model and repo_id". */
function listFields(fields: readonly string[]): string {
  if (fields.length <= 1) return fields.join("");
  return `${fields.slice(0, -1).join(", ")} and ${fields.at(-1)}`;
}

/** What a 400 or 422 that named the rejected fields says to do: "The service rejected `prompt` (400): fix that field…". */
function rejectedFields(fields: readonly string[], status: number): string | undefined {
  if (fields.length === 0) return undefined;
  const named = listFields(fields.map((field) => `\`${field}\``));
  return `The service rejected ${named} (${status}): fix ${fields.length === 1 ? "that field" : "those fields"} and send again.`;
}

/** Maps an HTTP failure to the error a user can act on. */
export function errorForStatus(status: number, details: ServiceErrorDetails): AgentRunError {
  const d = { ...details, status };
  const fields = [...new Set((details.fieldIssues ?? []).map((issue) => issue.field))];
  switch (status) {
    case 400:
      return new BadRequestError(
        rejectedFields(fields, status) ?? "The service rejected the request parameters (400): check the values sent.",
        d,
      );
    case 401:
      return new AuthenticationError("The API token was rejected (401): check AGENT_RUN_API_TOKEN (or --token / api-token).", d);
    case 403:
      return new PermissionError(
        "The API token has no permission for this organization or run (403): check AGENT_RUN_ORG_ID and the token's access.",
        d,
      );
    case 404:
      return new NotFoundError("Not found (404): check the run id and that it belongs to the organization in AGENT_RUN_ORG_ID.", d);
    case 402:
      return new PaymentRequiredError(
        "The organization's plan allowance is used up (402): add credits or raise the plan before starting more runs.",
        d,
      );
    case 422:
      return new UnprocessableError(
        rejectedFields(fields, status) ?? "The service could not process the request (422): fix the fields it names.",
        d,
      );
    case 429:
      return new RateLimitError("The service's rate limit was exceeded (429): slow down, or wait for the window to pass.", d);
    default:
      if (status >= 500) {
        return new ServerError(`The service failed (${status}): try again later; if it persists, report it.`, d);
      }
      return new ClientRequestError(`The service refused the request (${status}).`, d);
  }
}

/** True when the error says the call certainly did not act on the service (safe to repeat a create). */
export function certainlyNotActedOn(error: unknown): boolean {
  if (error instanceof RateLimitError) return true;
  if (error instanceof NetworkError) return error.certainlyNotSent;
  return false;
}

/**
 * True when a create (or resume) went out and its answer was lost: a timeout, a connection that
 * broke after sending, a 5xx (a proxy's 502/503/504 as much as the service's own) or a success
 * the client could not read. The service may have made the run: such a call is reconciled against
 * the runs list, never sent again blindly, and never reported as "could not run".
 */
export function answerLost(error: unknown): boolean {
  if (certainlyNotActedOn(error)) return false;
  return (
    error instanceof TimeoutError || error instanceof NetworkError || error instanceof ServerError || error instanceof InvalidResponseError
  );
}

/** What became of a lost answer, without the server's words or the request path (they belong in the logs). */
export function lostAnswerInWords(error: unknown): string {
  if (error instanceof TimeoutError) return "no answer came back in time";
  if (error instanceof ServerError) {
    const status = error.status ?? 500;
    const proxy = status === 502 || status === 503 || status === 504 ? " (a proxy in front of the service may have given up waiting)" : "";
    return `a ${status} came back instead of the run${proxy}`;
  }
  if (error instanceof NetworkError) return "the connection broke before the answer came back";
  if (error instanceof InvalidResponseError) return "the answer could not be read";
  return "no usable answer came back";
}

/**
 * A create whose answer was lost, and the runs list could not settle whether the service made the
 * run (no list, a list too long to cover the window, or the list failing too). Nothing was sent again.
 */
export class OutcomeUnknownError extends AgentRunError {
  override name = "OutcomeUnknownError";
  /** Why the list could not tell, for the message ("the service does not list runs"). */
  readonly reason: string;
  /** What became of the answer, in public words (lostAnswerInWords). */
  readonly what: string;
  /** Epoch ms at which the create was sent: a run started around then is the one to look for. */
  readonly sentAt: number;
  /** The metadata the create carried, to find its run by on the service. */
  readonly match: Readonly<Record<string, string>>;
  constructor(lost: unknown, reason: string, sentAt: number, match: Readonly<Record<string, string>>) {
    super(
      `The agent run may have started: the create was sent, but ${lostAnswerInWords(lost)}, and ${reason}. It was not sent again, so that no second run is made; look for a run started around ${new Date(sentAt).toISOString()} with metadata ${describeMatch(match)} before starting another.`,
      { cause: lost },
    );
    this.reason = reason;
    this.what = lostAnswerInWords(lost);
    this.sentAt = sentAt;
    this.match = match;
  }
}

/** The ids a create's run is found by (bridgeMatchOf), as messages name them: `delivery_id=…, bridge_task_id=…`. */
export function describeMatch(match: Readonly<Record<string, string>>): string {
  return Object.entries(match)
    .map(([key, value]) => `${key}=${value}`)
    .join(", ");
}

/**
 * Reads an error body in any shape real deployments use: `{message, status_code}`, `{detail: "…"}`
 * or FastAPI's `{detail: [{loc, msg, type}]}`. FastAPI's `loc` starts with where the field was
 * ("body", "query", "path"); a body field is named alone (`prompt`), the others keep their place
 * (`query.limit`), so that "prompt: field required" reads like the request the caller wrote.
 */
export function readErrorBody(text: string): { serverMessage?: string; fieldIssues: FieldIssue[] } {
  if (!text) return { fieldIssues: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const plain = text.slice(0, 300).trim();
    return plain ? { serverMessage: plain, fieldIssues: [] } : { fieldIssues: [] };
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) return { fieldIssues: [] };
  const { message, detail } = parsed.data;
  if (Array.isArray(detail)) {
    const fieldIssues = detail.map((issue) => ({
      field: fieldName(issue.loc ?? []),
      message: (issue.msg ?? issue.type ?? "invalid").trim(),
    }));
    const serverMessage = fieldIssues
      .map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message))
      .join("; ")
      .slice(0, 500);
    return { serverMessage: serverMessage || message?.slice(0, 500), fieldIssues };
  }
  const said = typeof detail === "string" ? detail : message;
  return said ? { serverMessage: said.slice(0, 500), fieldIssues: [] } : { fieldIssues: [] };
}

function fieldName(loc: ReadonlyArray<string | number>): string {
  const [where, ...rest] = loc.map(String);
  if (where === "body") return rest.join(".");
  return [where, ...rest].filter((part) => part !== undefined).join(".");
}

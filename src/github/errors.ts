/**
 * GitHub failures a user can act on, one class each, with a message that says what to do next.
 * Built from Octokit's RequestError (read structurally: status, request, response), keeping the
 * method, path and GitHub's own words; never a header, so never a token.
 */

export interface GitHubErrorDetails {
  status?: number;
  method?: string;
  /** URL path without query string. */
  path?: string;
  /** GitHub's `message`, plus the `errors` of a 422, on one line. */
  githubMessage?: string;
  cause?: unknown;
}

export class GitHubError extends Error {
  override name = "GitHubError";
  readonly status?: number;
  readonly method?: string;
  readonly path?: string;
  readonly githubMessage?: string;

  constructor(message: string, details: GitHubErrorDetails = {}) {
    const where = details.method && details.path ? ` [${details.method} ${details.path}]` : "";
    const said = details.githubMessage ? ` GitHub said: ${details.githubMessage}` : "";
    super(`${message}${where}${said}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.githubMessage = details.githubMessage;
  }
}

/** Input the bridge refused to send (e.g. an empty or oversized comment body). Nothing was sent. */
export class GitHubInputError extends GitHubError {
  override name = "GitHubInputError";
}
/** 401: the credentials are wrong or expired. */
export class GitHubAuthenticationError extends GitHubError {
  override name = "GitHubAuthenticationError";
}
/** 403 (not a rate limit): the token lacks a permission or the resource is locked. */
export class GitHubPermissionError extends GitHubError {
  override name = "GitHubPermissionError";
}
/** 404/410: absent, deleted, expired, or invisible to this token. */
export class GitHubNotFoundError extends GitHubError {
  override name = "GitHubNotFoundError";
}
/** 422: GitHub refused the data. */
export class GitHubValidationError extends GitHubError {
  override name = "GitHubValidationError";
}
/** The rate-limit headers of GitHub's answer, parsed (they carry no credential). */
export interface RateLimitSignals {
  /** `retry-after`, in seconds. */
  retryAfterSeconds?: number;
  /** `x-ratelimit-remaining`. */
  remaining?: number;
  /** `x-ratelimit-reset`, in epoch seconds. */
  resetEpochSeconds?: number;
}

/** 403/429 with a rate-limit signal: wait `retryAfterSeconds`, then retry. */
export class GitHubRateLimitError extends GitHubError {
  override name = "GitHubRateLimitError";
  readonly retryAfterSeconds: number;
  /** What GitHub said about waiting, so a pacer can tell "retry-after: 60" from "no advice, 60 s by default". */
  readonly signals: RateLimitSignals;
  constructor(message: string, retryAfterSeconds: number, details: GitHubErrorDetails = {}, signals: RateLimitSignals = {}) {
    super(message, details);
    this.retryAfterSeconds = retryAfterSeconds;
    this.signals = signals;
  }
}
/** 5xx: GitHub's side failed; retrying later usually works. */
export class GitHubServerError extends GitHubError {
  override name = "GitHubServerError";
}
/** No answer at all (connection refused, DNS, timeout). */
export class GitHubNetworkError extends GitHubError {
  override name = "GitHubNetworkError";
}

interface RequestErrorShape {
  status: number;
  message: string;
  request?: { method?: string; url?: string };
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

function isRequestError(error: unknown): error is RequestErrorShape & Error {
  return error instanceof Error && typeof (error as { status?: unknown }).status === "number";
}

/** Seconds to wait after a rate-limit answer: retry-after, else until x-ratelimit-reset, else 60 (GitHub's advice). */
export function retryAfterSeconds(headers: Record<string, string | number | undefined>, nowMs: number = Date.now()): number | undefined {
  const retryAfter = Number(headers["retry-after"]);
  if (headers["retry-after"] !== undefined && Number.isFinite(retryAfter)) return Math.max(0, retryAfter);
  if (String(headers["x-ratelimit-remaining"]) === "0") {
    const reset = Number(headers["x-ratelimit-reset"]);
    if (Number.isFinite(reset)) return Math.max(1, Math.ceil(reset - nowMs / 1000));
  }
  return undefined;
}

function numericHeader(headers: Record<string, string | number | undefined>, name: string): number | undefined {
  const raw = headers[name];
  if (raw === undefined || String(raw).trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function rateLimitSignals(headers: Record<string, string | number | undefined>): RateLimitSignals {
  return {
    retryAfterSeconds: numericHeader(headers, "retry-after"),
    remaining: numericHeader(headers, "x-ratelimit-remaining"),
    resetEpochSeconds: numericHeader(headers, "x-ratelimit-reset"),
  };
}

/**
 * Milliseconds GitHub asks us to wait, to the millisecond: `retry-after`, else (when no requests
 * remain) until `x-ratelimit-reset`; undefined when it gave no advice (then wait at least a minute).
 */
export function rateLimitWaitMs(signals: RateLimitSignals, nowMs: number = Date.now()): number | undefined {
  if (signals.retryAfterSeconds !== undefined) return Math.max(0, signals.retryAfterSeconds * 1000);
  if (signals.remaining === 0 && signals.resetEpochSeconds !== undefined) return Math.max(0, signals.resetEpochSeconds * 1000 - nowMs);
  return undefined;
}

function githubWords(data: unknown): string | undefined {
  if (typeof data === "string") return data.trim().slice(0, 300) || undefined;
  if (typeof data !== "object" || data === null) return undefined;
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  const parts: string[] = [];
  if (typeof message === "string") parts.push(message);
  if (Array.isArray(errors)) {
    for (const e of errors) {
      if (typeof e === "string") parts.push(e);
      else if (typeof e === "object" && e !== null) {
        const { field, code, message: m } = e as { field?: unknown; code?: unknown; message?: unknown };
        parts.push([field, m ?? code].filter((x) => typeof x === "string").join(": "));
      }
    }
  }
  return parts.filter(Boolean).join("; ") || undefined;
}

function pathOnly(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).pathname;
  } catch {
    return url.split("?")[0];
  }
}

/**
 * The GitHubError for a failed octokit call made while `doing` (e.g. "creating a comment on
 * acme/widgets#7"). Errors that are not HTTP answers become GitHubNetworkError; a GitHubError is
 * returned as is.
 */
export function toGitHubError(error: unknown, doing: string): GitHubError {
  if (error instanceof GitHubError) return error;
  // Octokit reports a request that got no answer as status 500 without a response.
  if (!isRequestError(error) || error.status === 0 || (error.status === 500 && !error.response)) {
    const reason = error instanceof Error ? error.message : String(error);
    return new GitHubNetworkError(`Could not reach GitHub while ${doing}: ${reason}. Check the API URL and the network.`, { cause: error });
  }
  const status = error.status;
  const headers = error.response?.headers ?? {};
  const details: GitHubErrorDetails = {
    status,
    method: error.request?.method,
    path: pathOnly(error.request?.url),
    githubMessage: githubWords(error.response?.data),
    cause: error,
  };
  const wait = retryAfterSeconds(headers);
  const saysRateLimit = /rate limit/i.test(details.githubMessage ?? "");
  if (status === 429 || (status === 403 && (wait !== undefined || saysRateLimit))) {
    const seconds = wait ?? 60;
    return new GitHubRateLimitError(
      `GitHub rate-limited ${doing} (${status}); retry in ${seconds} s.`,
      seconds,
      details,
      rateLimitSignals(headers),
    );
  }
  if (status === 401) {
    return new GitHubAuthenticationError(
      `GitHub rejected the credentials while ${doing} (401): check the App's ID and private key, or the token you passed, and that it has not expired.`,
      details,
    );
  }
  if (status === 403) {
    return new GitHubPermissionError(
      `GitHub refused ${doing} (403): the token lacks a permission. For the App, check its permissions and that it is installed on the repository; in a workflow, grant it under \`permissions:\`.`,
      details,
    );
  }
  if (status === 404 || status === 410) {
    return new GitHubNotFoundError(
      `GitHub found nothing while ${doing} (${status}): it does not exist any more, or this token cannot see it (private repository, App not installed there).`,
      details,
    );
  }
  if (status === 422) return new GitHubValidationError(`GitHub rejected the data while ${doing} (422).`, details);
  if (status >= 500) return new GitHubServerError(`GitHub failed while ${doing} (${status}); try again later.`, details);
  return new GitHubError(`GitHub answered ${status} while ${doing}.`, details);
}

/** Runs one octokit call and rethrows its failure as a GitHubError that says what was being done. */
export async function callGitHub<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toGitHubError(error, doing);
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof GitHubNotFoundError || (isRequestError(error) && (error.status === 404 || error.status === 410));
}

/**
 * How one call reaches the service: rate budget, then the request (or the answer to one sent
 * ahead), then the response read into data or into the error a user can act on. Retried within the
 * call's deadline when that is safe: 429s always (they do not use up a retry), reads also after a
 * 5xx, a network failure or a timeout, creates and resumes only when the service certainly did not act.
 */
import pRetry from "p-retry";
import { defaultWindows, type BudgetKind, type BudgetSlot } from "./budget.js";
import type { CallOptions, ClientSettings } from "./client-options.js";
import {
  AgentRunError,
  DeadlineError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  certainlyNotActedOn,
  errorForStatus,
  readErrorBody,
} from "./errors.js";
import { serviceUrl } from "./paths.js";

export interface SendOptions extends CallOptions {
  body?: unknown;
  query?: Record<string, number | string>;
  kind: BudgetKind;
  /** Safe to repeat after an ambiguous failure (a timeout, a 500): reads are, creates and resumes are not. */
  idempotent: boolean;
}

const DEFAULT_CALL_DEADLINE_MS = 10 * 60_000;

/**
 * The most of one answer the client reads. A page of 100 log entries or a run is far below it; a
 * server that sends more gets an InvalidResponseError instead of the process's memory.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The shortest pause after a 429 without Retry-After, in real seconds (scaled with the windows). */
const RATE_LIMIT_BACKOFF_FLOOR_MS = 2_000;

/**
 * The pause after the `refusals`-th 429 in a row of one call when the service gave no Retry-After:
 * a random time from a couple of seconds up to a ceiling that doubles with each refusal and stops at
 * the window. A full window would waste most of it (the oldest request usually leaves it sooner),
 * and the jitter keeps callers refused together from coming back together.
 */
export function rateLimitBackoffMs(refusals: number, windowMs: number, timeScale: number, random: () => number = Math.random): number {
  const floor = Math.min(windowMs, RATE_LIMIT_BACKOFF_FLOOR_MS * timeScale);
  const ceiling = Math.min(windowMs, floor * 2 ** Math.max(1, refusals));
  return Math.round(floor + random() * (ceiling - floor));
}

/** Connection-level failures that happen before a request can reach the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/** One key per address whatever the order of its query parameters. */
function requestKey(method: string, url: URL): string {
  const query = new URLSearchParams(url.searchParams);
  query.sort();
  return `${method} ${url.origin}${url.pathname}?${query.toString()}`;
}

export class ServiceTransport {
  private readonly sentAhead = new Map<string, Promise<Response>>();

  constructor(private readonly settings: ClientSettings) {
    for (const request of settings.sentAhead) this.sentAhead.set(requestKey(request.method, request.url), request.response);
  }

  /** The call's data (null for an empty body), or the error a user can act on. */
  async send(method: "GET" | "POST", path: string, options: SendOptions): Promise<unknown> {
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
    const { budget, retries, backoff, timeScale } = this.settings;
    const deadline = options.deadline ?? Date.now() + DEFAULT_CALL_DEADLINE_MS;
    const url = serviceUrl(this.settings.baseUrl, path, options.query);

    let refusals = 0;
    let slot: BudgetSlot | null = null;
    const attempt = async (): Promise<unknown> => {
      slot = null;
      slot = await budget.acquire(options.kind, { signal: options.signal, deadline, priority: options.priority, order: options.order });
      await options.beforeSend?.();
      return this.sendOnce(method, path, url, options);
    };

    return pRetry(attempt, {
      retries,
      factor: 2,
      minTimeout: backoff.minMs,
      maxTimeout: backoff.maxMs,
      randomize: true,
      maxRetryTime: Math.max(0, deadline - Date.now()),
      signal: options.signal,
      onFailedAttempt: async ({ error }) => {
        if (error instanceof RateLimitError) {
          // Honour Retry-After; without it, back off with jitter (rateLimitBackoffMs). Shared through the budget.
          refusals++;
          const windows = defaultWindows(timeScale);
          const windowMs = options.kind === "create" ? windows.create.durationMs : windows.shared.durationMs;
          const waitMs =
            error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : rateLimitBackoffMs(refusals, windowMs, timeScale);
          const withinDeadline = Date.now() + waitMs <= deadline;
          if (withinDeadline) budget.pause(options.kind === "create" ? "create" : "read", waitMs);
          // The service did not count a call it refused: neither do we. Given back after the pause, so
          // that the freed slot does not send the next caller straight into the same full window.
          if (slot) budget.giveBack(slot);
          slot = null;
          if (!withinDeadline) throw error;
        }
      },
      // A 429 is the service pacing us, not a failure: it does not use up a retry (the deadline bounds it).
      shouldConsumeRetry: ({ error }) => !(error instanceof RateLimitError),
      shouldRetry: ({ error }) => {
        if (Date.now() >= deadline) return false;
        if (!options.idempotent) return certainlyNotActedOn(error);
        return (
          error instanceof RateLimitError || error instanceof ServerError || error instanceof NetworkError || error instanceof TimeoutError
        );
      },
    });
  }

  private async sendOnce(method: string, path: string, url: URL, options: SendOptions): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await this.answerTo(method, url, options.body, signal);
    } catch (error) {
      throw this.transportError(error, method, path, options.signal, timeout);
    }

    const text = await readTextAtMost(response, MAX_RESPONSE_BYTES).catch((error: unknown) => {
      if (error instanceof ResponseTooLarge) {
        throw new InvalidResponseError(
          `The service answered ${response.status} with more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB; the client reads at most that much of an answer.`,
          { method, path, status: response.status },
        );
      }
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
      throw new InvalidResponseError(`The service answered ${response.status} with a body that is not JSON.`, {
        method,
        path,
        status: response.status,
      });
    }
  }

  /** The answer to the same request sent ahead, taken once; else a request sent now. */
  private answerTo(method: string, url: URL, body: unknown, signal: AbortSignal): Promise<Response> {
    const key = requestKey(method, url);
    const ahead = this.sentAhead.get(key);
    this.sentAhead.delete(key);
    if (ahead) return untilAborted(ahead, signal);
    return this.settings.fetch(url, {
      method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${this.settings.token}`,
        "user-agent": this.settings.userAgent,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    });
  }

  private transportError(error: unknown, method: string, path: string, userSignal: AbortSignal | undefined, timeout: AbortSignal): Error {
    if (error instanceof AgentRunError) return error;
    if (userSignal?.aborted) {
      return new DeadlineError(`The request was cancelled: ${String(userSignal.reason ?? "aborted")}.`, { method, path });
    }
    if (timeout.aborted) {
      return new TimeoutError(
        `No answer within ${this.settings.timeoutMs} ms: the service may still have acted on it; check before repeating a create.`,
        { method, path },
      );
    }
    // A fetch that caps whole bodies (the App's node:http fetch) ends an oversized answer as a TypeError with a
    // named cause: the same answer would come again, so it is no network failure to retry.
    if (error instanceof TypeError && error.cause instanceof Error && error.cause.name === "ResponseBodyTooLargeError") {
      return new InvalidResponseError(`The service's answer was too large: ${error.cause.message}; nothing more was read.`, {
        method,
        path,
      });
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

/** Retry-After as seconds: either delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - Date.now()) / 1000);
}

class ResponseTooLarge extends Error {}

/**
 * The body as text, read as a stream when the fetch gives one (Node's fetch, node-fetch): past
 * `maxBytes` the rest is not read (the stream is cancelled) and ResponseTooLarge is thrown.
 */
async function readTextAtMost(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get("content-length")) > maxBytes) {
    await cancelBody(response.body);
    throw new ResponseTooLarge();
  }
  const body: unknown = response.body;
  if (!(typeof body === "object" && body !== null && Symbol.asyncIterator in body)) return response.text();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // Leaving the loop cancels the stream: the rest is never read.
    if (size > maxBytes) throw new ResponseTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function cancelBody(body: unknown): Promise<void> {
  if (typeof body === "object" && body !== null && "cancel" in body && typeof body.cancel === "function") {
    await (body.cancel as () => Promise<void>).call(body).catch(() => undefined);
  }
}

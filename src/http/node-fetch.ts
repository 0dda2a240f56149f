/**
 * The part of `fetch` that the Action's two clients (octokit's `request` and AgentRunClient) and the
 * App's two (Probot's octokit and AgentRunClient) use, over node:http and node:https.
 *
 * Why not Node's own fetch:
 * - the Action: on first use it loads and compiles the undici bundled inside Node, which costs a
 *   runner about 35 ms on Node 24 (and more on Node 20) before the step's first request, more than
 *   everything else the step does by then (BENCHMARKS.md, cold start). node:http is already
 *   compiled into Node.
 * - the App: every fetch builds WHATWG streams, Headers, a Request and a Response; an App polling
 *   1,000 runs kept about 14 MB more resident with it (BENCHMARKS.md, memory: 125 MB against 111 MB),
 *   and the first fetch compiles undici's HTTP parser (WebAssembly), a transient of about 30 MB
 *   that was the idle App's peak (113 MB against 77 MB without).
 * It is taken with `process.getBuiltinModule` on purpose: an ESM `import` of node:http reads every
 * export, and some are lazy getters that load that same undici.
 *
 * Used only where it is safe (see `canUseNodeFetch`): no proxy (the proxy path keeps undici), request
 * bodies that are strings or bytes. JSON responses are read whole; others stream (`NodeResponse`).
 * Redirects are followed as fetch follows them; an Authorization header is not carried to another origin.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";

type Transport = { request(url: URL, options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest };

/**
 * Each module is loaded on its first request: node:https brings TLS and crypto with it, and on
 * Node 24 a thread that reads the bundled root certificates (about 15 ms of a runner's start), which
 * a step that talks plain HTTP never needs.
 */
const MODULES = { "http:": "node:http", "https:": "node:https" } as const;
const transports: { "http:"?: Transport; "https:"?: Transport } = {};
const transportFor = (protocol: string): Transport | undefined => {
  if (protocol !== "http:" && protocol !== "https:") return undefined;
  return (transports[protocol] ??= process.getBuiltinModule(MODULES[protocol]));
};

const MAX_REDIRECTS = 20;
/**
 * The most a body read whole may hold. Every JSON answer the clients read (a page of 100 comments
 * at GitHub's 65,536 characters each, a page of 100 log entries) stays well below it; a server that
 * sends more is answered with an error instead of the process's memory.
 */
export const MAX_WHOLE_BODY_BYTES = 64 * 1024 * 1024;

/**
 * The cause's name when a body passed MAX_WHOLE_BODY_BYTES: the fetch still fails with a TypeError, as
 * fetch does, and a caller that tells this from a dropped connection (the service client: no retry,
 * since the same answer would come again) reads the name, not this module.
 */
export const BODY_TOO_LARGE = "ResponseBodyTooLargeError";

/** The headers of a response, as the two clients read them: `get` (AgentRunClient) and iteration (octokit); names in lower case. */
class ResponseHeaders implements Iterable<[string, string]> {
  private readonly values = new Map<string, string>();

  constructor(raw: IncomingMessage["headers"]) {
    for (const [name, value] of Object.entries(raw)) {
      if (value === undefined) continue;
      this.values.set(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.values.entries();
  }
}

/**
 * A response with the reading half of `Response`. A JSON body is read whole before `fetch`
 * resolves: it is parsed whole anyway, and a connection lost halfway then fails the fetch, where
 * octokit and AgentRunClient report it. Any other body (a job log, a download) is read as the
 * caller reads it: `body` streams it, so a caller that keeps only its end holds only that.
 */
class NodeResponse {
  readonly ok: boolean;
  readonly redirected: boolean;
  private taken = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: ResponseHeaders,
    readonly url: string,
    private readonly source: Buffer | IncomingMessage,
    redirected: boolean,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.ok = status >= 200 && status < 300;
    this.redirected = redirected;
  }

  /** The body's chunks, once, as Node's fetch's `body` is iterated (`for await`). */
  get body(): AsyncIterable<Uint8Array> {
    return chunksOf(this.take(), this.signal);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse((await this.bytes()).toString("utf8"));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  private bytes(): Promise<Buffer> {
    const source = this.take();
    return Buffer.isBuffer(source) ? Promise.resolve(source) : readAll(source, this.signal);
  }

  private take(): Buffer | IncomingMessage {
    if (this.taken) throw new TypeError("Body is unusable: Body has already been read");
    this.taken = true;
    return this.source;
  }
}

/** Whether a response's body is read before `fetch` resolves: JSON, and bodies that are empty by definition. */
function readsWhole(method: string, response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  if (method === "HEAD" || status === 204 || status === 205 || status === 304 || response.headers["content-length"] === "0") return true;
  const type = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/** Whether `nodeFetch` can take this request as Node's fetch would: no body, or a string or bytes. */
function canUseNodeFetch(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
}

type FetchInput = Parameters<typeof fetch>[0];

/**
 * `fetch(url, init)` for string or URL inputs and string or byte bodies; anything else (a Request
 * object, a stream or form body) goes to Node's own fetch.
 */
export const nodeFetch = (async (input: FetchInput, init?: RequestInit) => {
  if (!(typeof input === "string" || input instanceof URL) || !canUseNodeFetch(init)) return globalThis.fetch(input, init);
  let url = new URL(input);
  let method = (init?.method ?? "GET").toUpperCase();
  let body = init?.body as string | Uint8Array | null | undefined;
  const headers = headerRecord(init?.headers);
  const signal = init?.signal ?? undefined;
  for (let redirects = 0; ; redirects++) {
    const response = await send(url, method, headers, body, signal);
    const location = response.headers.location;
    const status = response.statusCode ?? 0;
    if (init?.redirect !== "manual" && [301, 302, 303, 307, 308].includes(status) && typeof location === "string") {
      response.resume();
      if (init?.redirect === "error")
        throw new TypeError("fetch failed", { cause: new Error(`redirected to ${location} with redirect: "error"`) });
      if (redirects >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
      // As fetch does: 303, and 301/302 after a POST, turn into a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        for (const name of Object.keys(headers)) if (/^content-/.test(name)) delete headers[name];
      }
      const next = new URL(location, url);
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
      continue;
    }
    const source = readsWhole(method, response) ? await readAll(response, signal) : response;
    return new NodeResponse(
      status,
      response.statusMessage ?? "",
      new ResponseHeaders(response.headers),
      url.href,
      source,
      redirects > 0,
      signal,
    );
  }
}) as unknown as typeof fetch;

function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  // Duck-typed: naming the global `Headers` would load undici.
  const entries = Array.isArray(headers)
    ? headers
    : typeof (headers as Headers).entries === "function"
      ? [...(headers as Headers).entries()]
      : Object.entries(headers);
  for (const [name, value] of entries) record[name!.toLowerCase()] = String(value);
  return record;
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | null | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  const transport = transportFor(url.protocol);
  if (!transport) return Promise.reject(new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) }));
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string> = { ...headers };
    if (body !== undefined && body !== null)
      outgoing["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    const request = transport.request(url, { method, headers: outgoing }, (response) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(response);
    });
    const onAbort = () => {
      request.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("fetch failed", { cause: error }));
    });
    request.end(body ?? undefined);
  });
}

async function* chunksOf(source: Buffer | IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  if (Buffer.isBuffer(source)) {
    if (source.length > 0) yield source;
    return;
  }
  const onAbort = () => source.destroy();
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // Leaving the loop early (a `break`, a throw) destroys the response: the rest is never read.
    for await (const chunk of source) yield chunk as Buffer;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError("terminated", { cause: error });
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (signal?.aborted) throw signal.reason;
}

/** The whole body, or a TypeError as soon as it passes MAX_WHOLE_BODY_BYTES (declared or sent); the rest is not read. */
function readAll(response: IncomingMessage, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (reason: unknown) => {
      signal?.removeEventListener("abort", onAbort);
      response.destroy();
      reject(reason);
    };
    const onAbort = () => stop(signal!.reason);
    const tooLarge = () => {
      const cause = new RangeError(`the response body is larger than ${MAX_WHOLE_BODY_BYTES} bytes`);
      cause.name = BODY_TOO_LARGE;
      stop(new TypeError("terminated", { cause }));
    };
    if (signal?.aborted) return onAbort();
    if (Number(response.headers["content-length"]) > MAX_WHOLE_BODY_BYTES) return tooLarge();
    signal?.addEventListener("abort", onAbort, { once: true });
    response.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WHOLE_BODY_BYTES) return tooLarge();
      chunks.push(chunk);
    });
    response.once("end", () => {
      signal?.removeEventListener("abort", onAbort);
      resolve(Buffer.concat(chunks));
    });
    response.once("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new TypeError("terminated", { cause: error }));
    });
  });
}

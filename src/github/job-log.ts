/**
 * The end of a failing job's log, for a CI-fix prompt. GitHub answers the log endpoint with a 302
 * to a short-lived signed download (blob storage); a log can be hundreds of megabytes, and only its
 * last bytes are used. So the redirect is followed here, not by the client's fetch: the download is
 * asked for its size (`Range: bytes=0-0`), then for the tail alone (`bytes=start-end`, the form
 * Azure Blob Storage accepts, which has no suffix ranges). A download that ignores ranges (200) is
 * read as a stream that keeps only its tail (src/http/stream-tail.ts). The download request never
 * carries the token: it is made with the client's fetch and headers of its own.
 */
import type { GitHubClient, RepoRef } from "./client.js";
import { readStreamTail } from "../http/stream-tail.js";
import { GitHubAuthenticationError, GitHubRateLimitError, toGitHubError } from "./errors.js";

export interface JobLogTail {
  text: string;
  truncated: boolean;
  unavailable: string | null;
}

/** Range answers as RFC 9110 defines them. */
const PARTIAL_CONTENT = 206;
const RANGE_NOT_SATISFIABLE = 416;

/** A download that failed, said for the prompt's note (no URL: it carries the signature). */
class LogDownloadError extends Error {}

export async function readJobLogTail(octokit: GitHubClient, repo: RepoRef, jobId: number, maxBytes: number): Promise<JobLogTail> {
  let location: string;
  try {
    const response = await octokit.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
      ...repo,
      job_id: jobId,
      request: { redirect: "manual", parseSuccessResponseBody: false },
    });
    const redirectedTo = response.headers.location;
    // A server that sends the log itself (no redirect): its tail, read as a stream.
    if (!isRedirect(response.status) || !redirectedTo) return await tailOfBody(response.data, maxBytes);
    await discard(response.data);
    location = new URL(redirectedTo, response.url).href;
  } catch (error) {
    const mapped = toGitHubError(error, `downloading the log of job ${jobId}`);
    // A missing log is worth a note in the prompt; lost credentials or a rate limit stop everything.
    if (mapped instanceof GitHubRateLimitError || mapped instanceof GitHubAuthenticationError) throw mapped;
    return { text: "", truncated: false, unavailable: mapped.message };
  }
  try {
    return await downloadTail(fetchOf(octokit), location, maxBytes, octokit.request.endpoint.DEFAULTS.request?.signal ?? undefined);
  } catch (error) {
    const reason = error instanceof LogDownloadError ? error.message : `the log download failed (${reasonOf(error)})`;
    return { text: "", truncated: false, unavailable: `${reason} while downloading the log of job ${jobId}` };
  }
}

function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The fetch the client itself uses (node:http, or the runner's proxy), as @octokit/request picks it. */
function fetchOf(octokit: GitHubClient): typeof fetch {
  return octokit.request.endpoint.DEFAULTS.request?.fetch ?? globalThis.fetch;
}

async function downloadTail(fetcher: typeof fetch, url: string, maxBytes: number, signal: AbortSignal | undefined): Promise<JobLogTail> {
  const get = (range: string) => fetcher(url, { headers: { range }, signal: signal ?? null });
  const probe = await get("bytes=0-0");
  // An empty log has no byte 0 (blob storage answers 416).
  if (probe.status !== PARTIAL_CONTENT && probe.status !== RANGE_NOT_SATISFIABLE) return tailOfResponse(probe, maxBytes);
  await discard(probe.body);
  if (probe.status === RANGE_NOT_SATISFIABLE) return { text: "", truncated: false, unavailable: null };
  const size = representationSize(probe.headers.get("content-range"));
  if (size === undefined) return tailOfResponse(await fetcher(url, { signal: signal ?? null }), maxBytes);
  const start = Math.max(0, size - maxBytes);
  const tail = await get(`bytes=${start}-${size - 1}`);
  if (tail.status !== PARTIAL_CONTENT) return tailOfResponse(tail, maxBytes);
  // Bounded even if the server sends more than it was asked for.
  const read = await readStreamTail(bodyOf(tail), maxBytes);
  return { ...tailText(read.bytes, start > 0 || read.totalBytes > maxBytes), unavailable: null };
}

/** A download answered whole (200) or refused. */
async function tailOfResponse(response: Response, maxBytes: number): Promise<JobLogTail> {
  if (response.status !== 200) {
    await discard(response.body);
    throw new LogDownloadError(`the log download answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  }
  return tailOfBody(response.body, maxBytes);
}

async function tailOfBody(body: unknown, maxBytes: number): Promise<JobLogTail> {
  if (!isChunkStream(body)) return { text: "", truncated: false, unavailable: "the log download returned no text" };
  const tail = await readStreamTail(body, maxBytes);
  return { ...tailText(tail.bytes, tail.totalBytes > maxBytes), unavailable: null };
}

function bodyOf(response: Response): AsyncIterable<Uint8Array> {
  const body: unknown = response.body;
  return isChunkStream(body) ? body : (async function* () {})();
}

/** The size after the slash of `Content-Range: bytes 0-0/12345`; undefined when unknown (`*`) or malformed. */
function representationSize(contentRange: string | null): number | undefined {
  const match = /^bytes\s+\d+-\d+\/(\d+)\s*$/i.exec(contentRange ?? "");
  if (!match) return undefined;
  const size = Number(match[1]);
  return Number.isSafeInteger(size) && size > 0 ? size : undefined;
}

/**
 * Lets go of a body not read (a redirect's, a probe's byte): leaving the loop cancels it, its
 * connection closed rather than drained. It is entered first: a body whose reading never started
 * would keep its connection, and with it the process, alive.
 */
async function discard(body: unknown): Promise<void> {
  if (!isChunkStream(body)) return;
  for await (const _chunk of body) break;
}

/** A fetch body: Node's web stream or node-fetch's chunks, both async-iterable. */
function isChunkStream(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === "object" && body !== null && Symbol.asyncIterator in body;
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** The last `maxBytes` bytes of `text` (UTF-8), from the first complete line when it had to cut. */
export function tailBytes(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  return tailText(bytes.subarray(bytes.length - maxBytes), true);
}

/**
 * The end of a log as text: when it was cut, without the character split at the cut (UTF-8
 * continuation bytes) and without the partial first line, if a full line remains.
 */
function tailText(bytes: Buffer, truncated: boolean): { text: string; truncated: boolean } {
  if (!truncated) return { text: bytes.toString("utf8"), truncated };
  let start = 0;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  let tail = bytes.subarray(start).toString("utf8");
  const newline = tail.indexOf("\n");
  if (newline !== -1 && newline < tail.length - 1) tail = tail.slice(newline + 1);
  return { text: tail, truncated };
}

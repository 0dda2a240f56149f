/**
 * The signed job-log download, served as blob storage serves it: one byte range when asked
 * (`Range: bytes=a-b`, `bytes=a-`, or RFC 9110's suffix `bytes=-n`), 206 with Content-Range, 416
 * past the end; the whole log (200) otherwise, or always when the state says ranges are ignored.
 * A log made on the fly is made once to learn its size, then again to send the part asked for.
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import type { FakeGitHubState, FakeJobLog, FakeJobLogDownload } from "./state.js";

type ByteRange = { start: number; end: number };

async function* chunksOf(log: FakeJobLog): AsyncGenerator<Buffer> {
  if (typeof log === "string") {
    yield Buffer.from(log, "utf8");
    return;
  }
  for await (const chunk of log()) yield typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk);
}

async function sizeOf(log: FakeJobLog): Promise<number> {
  if (typeof log === "string") return Buffer.byteLength(log, "utf8");
  let size = 0;
  for await (const chunk of chunksOf(log)) size += chunk.length;
  return size;
}

/** The one range of a `Range` header against a log of `size` bytes; null: none or several (served whole); "unsatisfiable": 416. */
function rangeOf(header: string | undefined, size: number): ByteRange | null | "unsatisfiable" {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    // A suffix longer than the log is the whole log (RFC 9110, 14.1.2).
    const length = Number(match[2]);
    return length === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== "" && Number(match[2]) < start) return null;
  return start >= size ? "unsatisfiable" : { start, end };
}

/** The bytes `range` covers, counted into `sent` as they are made. */
async function* slice(log: FakeJobLog, range: ByteRange, sent: FakeJobLogDownload): AsyncGenerator<Buffer> {
  let offset = 0;
  for await (const chunk of chunksOf(log)) {
    const from = Math.max(range.start - offset, 0);
    const to = Math.min(range.end + 1 - offset, chunk.length);
    offset += chunk.length;
    if (to <= from) {
      if (offset > range.end) return;
      continue;
    }
    const part = chunk.subarray(from, to);
    sent.bytesSent += part.length;
    yield part;
    if (offset > range.end) return;
  }
}

export async function sendJobLog(
  state: FakeGitHubState,
  jobId: number,
  log: FakeJobLog,
  rangeHeader: string | undefined,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const record: FakeJobLogDownload = { jobId, range: rangeHeader ?? null, status: 200, bytesSent: 0 };
  state.jobLogDownloads.push(record);
  reply.header("accept-ranges", state.jobLogRanges ? "bytes" : "none").type("text/plain; charset=utf-8");
  const size = await sizeOf(log);
  const range = state.jobLogRanges && rangeHeader !== undefined ? rangeOf(rangeHeader, size) : null;
  if (range === "unsatisfiable") {
    record.status = 416;
    return reply.code(416).header("content-range", `bytes */${size}`).send("");
  }
  if (range === null) return reply.header("content-length", size).send(Readable.from(slice(log, { start: 0, end: size - 1 }, record)));
  record.status = 206;
  return reply
    .code(206)
    .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
    .header("content-length", range.end - range.start + 1)
    .send(Readable.from(slice(log, range, record)));
}

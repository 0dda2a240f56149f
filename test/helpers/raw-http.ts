/**
 * HTTP/1.1 by hand over a TCP socket, for what fetch will not do: announce a body and not send it,
 * stream a chunked body until the server answers, or send half a request and wait.
 */
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  /** The status code of the first response line, or null when the server closed without answering. */
  status: number | null;
  /** Everything the server sent. */
  text: string;
  /** Body bytes written before the answer came (or the socket closed). */
  bytesSent: number;
}

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once("error", reject);
  });
}

/**
 * Sends `head` (request line and headers, without the blank line that ends them unless `unfinished`),
 * then body chunks from `nextChunk` until it returns null or the server answers; resolves once the
 * server closes or `waitMs` passes.
 */
export async function rawRequest(
  url: string,
  head: string,
  nextChunk: (() => Buffer | null) | null,
  waitMs = 10_000,
  unfinished = false,
): Promise<RawAnswer> {
  const socket = await open(url);
  let text = "";
  let bytesSent = 0;
  let answered = false;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    socket.on("data", (data: Buffer) => {
      text += data.toString("latin1");
      answered = true;
    });
    socket.on("error", () => undefined);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  socket.write(unfinished ? head : `${head}\r\n\r\n`);
  if (nextChunk) {
    for (let chunk = nextChunk(); chunk !== null && !answered && !socket.destroyed; chunk = nextChunk()) {
      bytesSent += chunk.length;
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), done]);
    }
  }
  await done;
  socket.destroy();
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  return { status: status ? Number(status) : null, text, bytesSent };
}

/** A chunked-encoding frame holding `size` bytes of `fill`. */
export function chunkFrame(size: number, fill = "a"): Buffer {
  return Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, fill), Buffer.from("\r\n")]);
}

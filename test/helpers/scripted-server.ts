import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer: a status with a JSON body, or `drop` to close the socket unanswered. */
export interface ScriptedResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  drop?: boolean;
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
  at: number;
}

/**
 * A real HTTP server on loopback that answers from a script, in order, and records every request:
 * for the failure modes a faithful emulator should not produce on demand (a 500 after acting, etc.).
 */
export async function startScriptedServer(script: ScriptedResponse[]): Promise<{
  url: string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
        at: Date.now(),
      });
      const next = script.shift() ?? { status: 500, body: { detail: "script exhausted" } };
      const answer = () => {
        if (next.drop) {
          req.socket.destroy();
          return;
        }
        res.writeHead(next.status ?? 200, { "content-type": "application/json", ...next.headers });
        res.end(next.body === undefined ? "" : JSON.stringify(next.body));
      };
      if (next.delayMs) setTimeout(answer, next.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (connection refused). */
export async function refusedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

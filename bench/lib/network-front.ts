/**
 * A network in front of a loopback server: each request reaches it half a round trip late, and its
 * answer comes back half a round trip later, as over a real network (connection set-up, which TCP
 * and TLS add on a new connection, is not counted: a real network costs more).
 */
import { createServer, request as forward, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface NetworkFront {
  url: string;
  close(): Promise<void>;
}

export async function startNetworkFront(targetUrl: string, roundTripMs: number): Promise<NetworkFront> {
  const target = new URL(targetUrl);
  const half = roundTripMs / 2;
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      await sleep(half);
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolveAnswer, reject) => {
        const outgoing = forward(
          { hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers },
          (response) => {
            const parts: Buffer[] = [];
            response.on("data", (part: Buffer) => parts.push(part));
            response.on("end", () =>
              resolveAnswer({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(parts) }),
            );
            response.on("error", reject);
          },
        );
        outgoing.on("error", reject);
        outgoing.end(Buffer.concat(chunks));
      });
      await sleep(half);
      const { "transfer-encoding": _chunked, connection: _connection, ...kept } = answer.headers;
      res.writeHead(answer.status, { ...kept, "content-length": String(answer.body.length) }).end(answer.body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

/**
 * A CONNECT proxy on loopback, as on a self-hosted runner with `http_proxy`: it tunnels every
 * request to `port` on 127.0.0.1 whatever host was asked for (so a client can reach a fake by a
 * name only the proxy resolves), and keeps the targets asked for.
 */
import { connect, type AddressInfo, type Socket } from "node:net";
import { createServer, type IncomingMessage } from "node:http";

export interface ConnectProxy {
  url: string;
  /** Each CONNECT's `host:port`, in order. */
  targets: string[];
  close(): Promise<void>;
}

export async function startConnectProxy(port: number): Promise<ConnectProxy> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    targets.push(req.url ?? "");
    const upstream = connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: proxyPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

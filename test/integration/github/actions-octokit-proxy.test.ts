/**
 * The Action's client behind a proxy, as on a self-hosted runner with `http_proxy`: a real CONNECT
 * proxy on loopback in front of the fake, which the client reaches by a name only the proxy
 * resolves. @actions/github reads GITHUB_API_URL and the proxy variables when first imported, so
 * this file sets them before anything imports it (vitest isolates modules per file).
 */
import { connect } from "node:net";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createActionOctokit, proxyFor } from "../../../src/action/octokit.js";
import { createComment } from "../../../src/github/index.js";
import { startFake } from "./setup.js";

/** A CONNECT proxy that tunnels every request to `port` on loopback, keeping the targets asked for. */
async function startConnectProxy(port: number): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
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

const saved = { http_proxy: process.env.http_proxy, no_proxy: process.env.no_proxy, GITHUB_API_URL: process.env.GITHUB_API_URL };
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the Action's client through a proxy", () => {
  it("sends every request through it, the head start's (with its abort signal) too", async () => {
    const fake = await startFake({
      app: { slug: "github-actions", name: "GitHub Actions" },
      repositories: [{ owner: "acme", name: "widgets" }],
      issues: [{ number: 3 }],
    });
    const proxy = await startConnectProxy(Number(new URL(fake.url).port));
    try {
      const apiUrl = `http://github.internal.test:${new URL(fake.url).port}`;
      process.env.GITHUB_API_URL = apiUrl;
      process.env.http_proxy = proxy.url;
      delete process.env.no_proxy;
      expect(proxyFor(apiUrl)).toBe(true);
      const octokit = await createActionOctokit("ghs_job_token", apiUrl, "agent-run-bridge/action/test", new AbortController().signal);
      const comment = await createComment(octokit, { owner: "acme", repo: "widgets" }, 3, "Through the proxy");
      expect(comment.author.login).toBe("github-actions[bot]");
      expect(proxy.targets).toEqual([`github.internal.test:${new URL(fake.url).port}`]);
    } finally {
      await proxy.close();
    }
  });
});

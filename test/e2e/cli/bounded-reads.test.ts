/**
 * The CLI reads at most MAX_RESPONSE_BYTES of one answer from the service (through Node's fetch, as
 * from a terminal): a server that sends a 65 MiB run gets a clear error, not the process's memory.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { MAX_RESPONSE_BYTES } from "../../../src/service/transport.js";
import { startScriptedServer } from "../../helpers/scripted-server.js";
import { cli } from "./helpers.js";

describe("an answer larger than the client reads", () => {
  it("get: exit 3 and a message that says so, without printing the run", async () => {
    const summary = "x".repeat(MAX_RESPONSE_BYTES + 1024 * 1024);
    const server = await startScriptedServer([{ status: 200, body: { id: 7, status: "completed", summary } }]);
    try {
      const result = await cli(["get", "7", "--api-url", server.url, "--token", "t0ken-for-test", "--org-id", "1"]);
      expect(result.code).toBe(3);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("The service answered 200 with more than 64 MiB");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("logs: a page sent chunked, without a length, stops being read past the limit", async () => {
    let sent = 0;
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"id": 7, "logs": [], "summary": "');
      const chunk = Buffer.alloc(1024 * 1024, "x");
      const more = () => {
        while (!response.destroyed && sent <= 2 * MAX_RESPONSE_BYTES) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", more);
        }
        response.end('"}');
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await cli(["logs", "7", "--api-url", url, "--token", "t0ken-for-test", "--org-id", "1", "--logs-path", "spec"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("The service answered 200 with more than 64 MiB");
      // The client stopped reading: the server could not send the whole twice-the-limit body.
      expect(sent).toBeLessThan(2 * MAX_RESPONSE_BYTES);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});

/**
 * The fetch over node:http (src/http/node-fetch.ts) of the Action's two clients and the App's service client, against real servers on loopback:
 * what octokit and AgentRunClient read from a response, redirects as fetch follows them, aborts,
 * and errors shaped as Node's fetch shapes them. AgentRunClient's whole failure suite also runs
 * over it (test/integration/service/client-failures.test.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Octokit } from "@octokit/core";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_TOO_LARGE, MAX_WHOLE_BODY_BYTES, nodeFetch } from "../../../src/http/node-fetch.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(handle: (req: Seen, res: ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(request);
      handle(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("nodeFetch", () => {
  it("sends method, headers and a string or byte body, and reads status, headers and the body three ways", async () => {
    const { url, seen } = await serve((_req, res) => {
      res
        .writeHead(201, { "content-type": "application/json", "X-Custom": "yes", "set-cookie": ["a=1", "b=2"] })
        .end(JSON.stringify({ ok: "é" }));
    });
    const response = await nodeFetch(`${url}/things?x=1`, {
      method: "post",
      headers: { "Content-Type": "application/json", Authorization: "Bearer t" },
      body: JSON.stringify({ name: "é" }),
    });
    expect(seen[0]).toMatchObject({ method: "POST", path: "/things?x=1", body: '{"name":"é"}' });
    expect(seen[0]!.headers).toMatchObject({
      "content-type": "application/json",
      authorization: "Bearer t",
      "content-length": String(Buffer.byteLength('{"name":"é"}')),
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${url}/things?x=1`);
    expect(response.headers.get("x-custom")).toBe("yes");
    expect(response.headers.get("X-CUSTOM")).toBe("yes");
    expect(response.headers.get("missing")).toBeNull();
    // What octokit does with the headers: iterate them as [name, value] pairs, names in lower case.
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/json",
      "x-custom": "yes",
      "set-cookie": "a=1, b=2",
    });
    expect(await response.json()).toEqual({ ok: "é" });

    await nodeFetch(url, { method: "PUT", body: new TextEncoder().encode("bytes") });
    expect(seen[1]).toMatchObject({ method: "PUT", body: "bytes" });
    const bytes = await (await nodeFetch(url)).arrayBuffer();
    expect(new TextDecoder().decode(bytes)).toBe(JSON.stringify({ ok: "é" }));
    expect((await nodeFetch(url)).ok).toBe(true);
  });

  it("says not ok on 4xx and 5xx and still reads the body", async () => {
    const { url } = await serve((_req, res) => res.writeHead(503, { "retry-after": "7" }).end("busy"));
    const response = await nodeFetch(url);
    expect([response.status, response.ok, response.headers.get("retry-after"), await response.text()]).toEqual([503, false, "7", "busy"]);
  });

  it("follows redirects as fetch does: a 302 after a POST becomes a GET without a body, a 307 keeps both", async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.path === "/found") return void res.writeHead(302, { location: "/final" }).end();
      if (req.path === "/temporary") return void res.writeHead(307, { location: `/final` }).end();
      res.writeHead(200).end(`${req.method} ${req.body}`);
    });
    const after302 = await nodeFetch(`${url}/found`, { method: "POST", headers: { "content-type": "text/plain" }, body: "payload" });
    expect(await after302.text()).toBe("GET ");
    expect(after302.url).toBe(`${url}/final`);
    expect(after302.redirected).toBe(true);
    expect(seen[1]!.headers["content-type"]).toBeUndefined();
    const after307 = await nodeFetch(`${url}/temporary`, { method: "POST", body: "payload" });
    expect(await after307.text()).toBe("POST payload");
  });

  it("never carries the Authorization header to another origin, and stops at redirect: manual", async () => {
    const other = await serve((_req, res) => res.writeHead(200).end("elsewhere"));
    const { url, seen } = await serve((req, res) => {
      if (req.path === "/same") return void res.writeHead(301, { location: "/here" }).end();
      if (req.path === "/away") return void res.writeHead(301, { location: `${other.url}/there` }).end();
      res.writeHead(200).end("here");
    });
    await nodeFetch(`${url}/same`, { headers: { authorization: "token secret" } });
    expect(seen[1]!.headers.authorization).toBe("token secret");
    expect(await (await nodeFetch(`${url}/away`, { headers: { authorization: "token secret" } })).text()).toBe("elsewhere");
    expect(other.seen[0]!.headers.authorization).toBeUndefined();

    const manual = await nodeFetch(`${url}/same`, { redirect: "manual" });
    expect([manual.status, manual.headers.get("location")]).toEqual([301, "/here"]);
  });

  it("hands a body that is not JSON over as it arrives: `body` yields the first chunk before the server has sent the rest", async () => {
    let finish: (() => void) | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first chunk\n");
      finish = () => res.end("last chunk\n");
    });
    // A reader that waited for the end would wait forever: bounded, so that it fails instead.
    const response = await nodeFetch(`${url}/log`, { signal: AbortSignal.timeout(5_000) });
    const chunks: string[] = [];
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks.push(Buffer.from(chunk).toString("utf8"));
      // The rest is sent only once the first chunk was read.
      if (chunks.length === 1) finish!();
    }
    expect(chunks.join("")).toBe("first chunk\nlast chunk\n");
    await expect(response.text()).rejects.toThrow("Body is unusable");
  });

  it("reads a JSON body whole before it resolves: a connection lost halfway fails the fetch", async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"partial": ');
      setTimeout(() => res.destroy(), 20);
    });
    await expect(nodeFetch(`${url}/page`)).rejects.toMatchObject({ name: "TypeError", message: "terminated" });
  });

  it("refuses a body read whole past MAX_WHOLE_BODY_BYTES, sent chunked or declared, JSON or text", async () => {
    const MIB = 1024 * 1024;
    const { url } = await serve((req, res) => {
      if (req.path === "/declared")
        return void res.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_WHOLE_BODY_BYTES + 1) }).end();
      res.writeHead(200, { "content-type": req.path === "/json" ? "application/json" : "text/plain" });
      const chunk = Buffer.alloc(MIB, 0x20);
      let sent = 0;
      // Past the limit by one chunk, written as the client drains it.
      const more = () => {
        while (sent <= MAX_WHOLE_BODY_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end("[]");
      };
      more();
    });
    const tooLarge = {
      name: "TypeError",
      message: "terminated",
      cause: { name: BODY_TOO_LARGE, message: `the response body is larger than ${MAX_WHOLE_BODY_BYTES} bytes` },
    };
    await expect(nodeFetch(`${url}/json`)).rejects.toMatchObject(tooLarge);
    await expect(nodeFetch(`${url}/declared`)).rejects.toMatchObject(tooLarge);
    await expect((await nodeFetch(`${url}/text`)).text()).rejects.toMatchObject(tooLarge);
  });

  it("gives up after 20 redirects with fetch's TypeError", async () => {
    const { url } = await serve((_req, res) => res.writeHead(302, { location: "/again" }).end());
    await expect(nodeFetch(url)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { message: "redirect count exceeded" },
    });
  });

  it("rejects with the signal's reason when aborted, and with a TypeError carrying the socket's code when nothing listens", async () => {
    const { url } = await serve(() => undefined);
    await expect(nodeFetch(url, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ name: "TimeoutError" });
    const aborted = new AbortController();
    aborted.abort(new Error("stop now"));
    await expect(nodeFetch(url, { signal: aborted.signal })).rejects.toThrow("stop now");

    const closed = await serve(() => undefined);
    await closers.pop()!();
    await expect(nodeFetch(closed.url)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
      cause: { code: "ECONNREFUSED" },
    });
  });

  it("carries octokit's requests to GitHub: data on success, a RequestError with the status otherwise", async () => {
    const github = await startFakeGitHub({ seed: { repositories: [{ owner: "octo-org", name: "widgets" }], issues: [{ number: 1 }] } });
    closers.push(() => github.close());
    const octokit = new Octokit({ auth: "token ghs_test", baseUrl: github.url, request: { fetch: nodeFetch } });
    const created = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      owner: "octo-org",
      repo: "widgets",
      issue_number: 1,
      body: "hello",
    });
    expect(created.status).toBe(201);
    expect(created.data.body).toBe("hello");
    expect(created.headers["content-type"]).toMatch(/application\/json/);
    await expect(
      octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner: "octo-org", repo: "widgets", path: "missing.yml" }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

/**
 * A loopback HTTP proxy in front of the emulator that keeps every request the bridge sent to the
 * Agent Run Service (method, path, JSON body), so tests can read prompts, images and metadata as
 * they went over the wire. Answers are passed through untouched.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

interface ServiceRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: Record<string, unknown> | null;
  status: number;
  /** When the request arrived (epoch ms). */
  at: number;
}

export interface ServiceRecorder {
  url: string;
  requests: ServiceRequest[];
  /** Requests whose answer the proxy lost (`loseAnswer`), with what the service answered when it got them (0: never forwarded). */
  lostAnswers: Array<{ method: string; path: string; forwarded: boolean; status: number; answer: LostAnswer["answer"] }>;
  /** Create bodies in order. */
  creates(): Array<Record<string, unknown>>;
  /** Resume bodies in order. */
  resumes(): Array<{ agent_run_id: number; prompt: string }>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface ServiceRecorderOptions {
  /** Called before a request is passed on; the request waits for it (a test holds one page back). */
  hold?: (request: { method: string; path: string; query: Record<string, string> }) => Promise<void> | void;
  /** Rewrites each JSON answer before it is passed back (a hostile or compromised service). */
  rewrite?: (answer: unknown, request: { method: string; path: string }) => unknown;
  /**
   * A proxy that loses the answer: called for each request before it is passed on. `forward`: the
   * service gets the request (and acts on it) first; then the client gets `answer` instead of the
   * service's answer: a status (a proxy's 502/503/504), `reset` (the socket destroyed) or `hang`
   * (nothing, until the client gives up). Null passes the request through as usual.
   */
  loseAnswer?: (request: { method: string; path: string }) => LostAnswer | null;
}

export interface LostAnswer {
  forward: boolean;
  answer: 502 | 503 | 504 | "reset" | "hang";
}

/** A proxy that loses the answers to the first `times` creates (POST …/agent/run) as `lost` says, and passes all else. */
export function losingCreates(lost: LostAnswer, times = 1): ServiceRecorderOptions {
  let left = times;
  return {
    loseAnswer: ({ method, path }) => (method === "POST" && path.endsWith("/agent/run") && left-- > 0 ? lost : null),
  };
}

export async function startServiceRecorder(targetUrl: string, options: ServiceRecorderOptions = {}): Promise<ServiceRecorder> {
  const requests: ServiceRequest[] = [];
  const lostAnswers: ServiceRecorder["lostAnswers"] = [];
  const server = createServer((req, res) => {
    const at = Date.now();
    void (async () => {
      const body = await readBody(req);
      if (options.hold) {
        const [heldPath, heldQuery] = (req.url ?? "/").split("?");
        await options.hold({
          method: req.method ?? "GET",
          path: heldPath!,
          query: Object.fromEntries(new URLSearchParams(heldQuery ?? "")),
        });
      }
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type", "accept", "user-agent"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const hasBody = req.method !== "GET" && req.method !== "HEAD" && body.length > 0;
      const lost = options.loseAnswer?.({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0]! });
      if (lost) {
        let status = 0;
        if (lost.forward) {
          const forwarded = await fetch(`${targetUrl}${req.url ?? "/"}`, { method: req.method, headers, ...(hasBody ? { body } : {}) });
          await forwarded.arrayBuffer();
          status = forwarded.status;
        }
        lostAnswers.push({
          method: req.method ?? "GET",
          path: (req.url ?? "/").split("?")[0]!,
          forwarded: lost.forward,
          status,
          answer: lost.answer,
        });
        if (lost.answer === "reset") req.socket.destroy();
        else if (lost.answer !== "hang")
          res
            .writeHead(lost.answer, { "content-type": "text/html" })
            .end(`<html><body><h1>${lost.answer} Gateway error</h1></body></html>`);
        return;
      }
      const answer = await fetch(`${targetUrl}${req.url ?? "/"}`, { method: req.method, headers, ...(hasBody ? { body } : {}) });
      let text = Buffer.from(await answer.arrayBuffer());
      if (options.rewrite && (answer.headers.get("content-type") ?? "").includes("json")) {
        const rewritten = options.rewrite(JSON.parse(text.toString("utf8")), {
          method: req.method ?? "GET",
          path: (req.url ?? "/").split("?")[0]!,
        });
        text = Buffer.from(JSON.stringify(rewritten), "utf8");
      }
      let parsed: Record<string, unknown> | null = null;
      if (hasBody) {
        try {
          parsed = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
        } catch {
          parsed = null;
        }
      }
      const [path, query] = (req.url ?? "/").split("?");
      requests.push({
        at,
        method: req.method ?? "GET",
        path: path!,
        query: Object.fromEntries(new URLSearchParams(query ?? "")),
        body: parsed,
        status: answer.status,
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "transfer-encoding" && name !== "content-encoding" && name !== "connection")
          out[name] = value;
      });
      res.writeHead(answer.status, out).end(text);
    })().catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const posts = (suffix: string) => requests.filter((r) => r.method === "POST" && r.path.endsWith(suffix) && r.status < 300);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    lostAnswers,
    creates: () => posts("/agent/run").map((r) => r.body!),
    resumes: () => posts("/agent/run/resume").map((r) => r.body as { agent_run_id: number; prompt: string }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

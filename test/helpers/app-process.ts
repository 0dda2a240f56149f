/**
 * The App as real child processes (`agent-run app` from source, configured by the environment only),
 * a round-robin HTTP proxy to spread deliveries over replicas as a load balancer would, and a private
 * `redis-server` that a test (or the demo) can kill and restart. Used by the end-to-end tests and by
 * `npm run demo -- --replicas 3`.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const READY_TIMEOUT_MS = 30_000;

export interface AppChild {
  /** A name for logs and failure messages ("replica 2"). */
  label: string;
  pid: number;
  /** `http://127.0.0.1:port`, once listening. */
  url: string;
  webhookUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: the process gets no chance to clean up (a crashed replica). */
  kill(): Promise<void>;
  /** SIGTERM and wait (bounded: SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnedApp {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** A child process's output as it comes, and its exit: what a test reads of any process it starts. */
export function watchChild(child: ChildProcessWithoutNullStreams): SpawnedApp {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** The preload that gives the App on Node 24 its own better-sqlite3 binding (node_modules holds the one for `npm ci`'s Node). */
const NODE24_PRELOAD = fileURLToPath(new URL("./node24/preload.mjs", import.meta.url));

/**
 * The Node and the preload the App runs on: under vitest, Node 24 (the image's and the Action's runtime) with its
 * own better-sqlite3 build, whatever Node runs the tests (test/setup/node24.ts provides both); elsewhere (the demo's
 * replicas) the Node that runs the caller, since vitest's provided values exist only inside a test run.
 */
function appRuntime(): { node: string; preload: string[]; env: Record<string, string> } {
  let provided: { node: string; binding: string };
  try {
    provided = { node: inject("appNode"), binding: inject("appSqliteBinding") };
  } catch {
    // Not inside a test's worker (a process a test started inherits VITEST=true, so the variable cannot tell).
    return { node: process.execPath, preload: [], env: {} };
  }
  return { node: provided.node, preload: ["--import", NODE24_PRELOAD], env: { AGENT_RUN_TEST_SQLITE_BINDING: provided.binding } };
}

/** Only what a server's environment would hold (PATH for node), nothing from the parent process. */
export function spawnAppProcess(env: Record<string, string>, nodeArgs: readonly string[] = []): SpawnedApp {
  const runtime = appRuntime();
  const child = spawn(runtime.node, [...nodeArgs, "--import", "tsx", ...runtime.preload, "src/cli/bin.ts", "app"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...runtime.env, ...env },
  });
  return watchChild(child);
}

/** Starts `agent-run app` and resolves once it says where it listens; rejects (with its output) if it exits first or takes too long. */
export async function startAppChild(env: Record<string, string>, label: string, nodeArgs: readonly string[] = []): Promise<AppChild> {
  const spawned = spawnAppProcess(env, nodeArgs);
  const { child } = spawned;
  const webhookUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${label} did not listen within ${READY_TIMEOUT_MS} ms:\n${spawned.stderr()}`));
    }, READY_TIMEOUT_MS);
    const check = () => {
      const match = /listening on (http:\/\/\S+\/api\/github\/webhooks)/.exec(spawned.stderr());
      if (!match) return;
      clearTimeout(timer);
      child.stderr.off("data", check);
      resolve(match[1]!);
    };
    child.stderr.on("data", check);
    void spawned.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code ?? signal}) before listening:\n${spawned.stderr()}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    label,
    pid: child.pid!,
    url: new URL(webhookUrl).origin,
    webhookUrl,
    stdout: spawned.stdout,
    stderr: spawned.stderr,
    exited: spawned.exited,
    async kill() {
      if (running()) child.kill("SIGKILL");
      await spawned.exited;
    },
    async stop(graceMs = 10_000) {
      if (running()) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const outcome = await spawned.exited;
      clearTimeout(timer);
      return outcome;
    },
  };
}

/** The JSON log lines an App process wrote (LOG_FORMAT=json), each with its message under `msg`. */
export function jsonLogLines(output: string): Array<Record<string, unknown> & { msg?: string }> {
  return output.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown> & { msg?: string }];
    } catch {
      return [];
    }
  });
}

export interface HttpProxy {
  url: string;
  webhookUrl: string;
  /** Requests forwarded to each target, in target order. */
  forwarded: number[];
  /** Which target got each delivery id (the last one, for redeliveries). */
  targetOf: Map<string, number>;
  /** Takes a target out of the rotation (a dead replica a load balancer has noticed). */
  remove(index: number): void;
  close(): Promise<void>;
}

export interface HttpProxyOptions {
  webhookPath?: string;
  /** Called before a request is forwarded; the request waits for it (a test holds one in flight this way). */
  beforeForward?: (request: { method: string; path: string }) => Promise<void> | void;
  /**
   * Whether to withhold the target's answer to this request: it is forwarded and takes effect, but
   * the caller never hears back (a process killed while waiting for an answer, as a test stages it).
   */
  withholdAnswer?: (request: { method: string; path: string }) => boolean;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A load balancer in front of the replicas (or a pass-through to one service): each request goes to
 * the next live target, round robin, with its raw body and headers untouched (a webhook signature
 * covers the exact bytes). A target that refuses the connection (not listening yet, or gone) never
 * saw the request, so it goes to the next one, as nginx's `proxy_next_upstream error` does; when
 * every target refuses, or one fails after taking the request, the answer is 502, as a proxy's would be.
 */
export async function startHttpProxy(targets: readonly string[], options: HttpProxyOptions = {}): Promise<HttpProxy> {
  const forwarded = targets.map(() => 0);
  const live = new Set(targets.map((_, index) => index));
  const targetOf = new Map<string, number>();
  let next = 0;
  const pick = () => {
    for (let i = 0; i < targets.length; i += 1) {
      const index = (next + i) % targets.length;
      if (live.has(index)) {
        next = index + 1;
        return index;
      }
    }
    return -1;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      await options.beforeForward?.({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0]! });
      const delivery = req.headers["x-github-delivery"];
      const withhold = options.withholdAnswer?.({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0]! }) ?? false;
      const forward = (triesLeft: number): void => {
        const index = pick();
        if (index < 0) return void res.writeHead(503).end("no target in the rotation");
        forwarded[index]! += 1;
        if (typeof delivery === "string") targetOf.set(delivery, index);
        const upstream = httpRequest(new URL(req.url ?? "/", targets[index]), { method: req.method, headers: req.headers }, (answer) => {
          if (withhold) return void answer.resume();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (res.headersSent) return;
          if (error.code === "ECONNREFUSED" && triesLeft > 1) {
            forwarded[index]! -= 1;
            if (typeof delivery === "string") targetOf.delete(delivery);
            return forward(triesLeft - 1);
          }
          res.writeHead(502).end(`target ${index + 1} did not answer`);
        });
        upstream.end(body);
      };
      forward(live.size);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    webhookUrl: `${url}${options.webhookPath ?? "/api/github/webhooks"}`,
    forwarded,
    targetOf,
    remove: (index) => void live.delete(index),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether `redis-server` can be started from the PATH. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync("redis-server", ["--version"], { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
}

/** Ports the OS picked and that stay bound (so distinct, and never handed to anyone else) until `release`. */
export interface ReservedPorts {
  ports: number[];
  release(): Promise<void>;
}

/**
 * `count` distinct ports, held together until released: a listener started meanwhile on port 0 (a
 * balancer in front of them) cannot be given one of them, as it could between a release and a start.
 */
export async function reservePorts(count: number): Promise<ReservedPorts> {
  const servers = Array.from({ length: count }, () => createNetServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))));
  return {
    ports: servers.map((server) => (server.address() as AddressInfo).port),
    release: async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

/** A port nobody listens on right now (the OS picks it; it is released before returning). */
export async function freePort(): Promise<number> {
  const reserved = await reservePorts(1);
  await reserved.release();
  return reserved.ports[0]!;
}

export interface PrivateRedis {
  port: number;
  /** `redis://` (or `rediss://` with `tls`), with the password (and user) it was started with. */
  url: string;
  /** Data directory (an append-only file, so that a killed server comes back with its data). */
  dir: string;
  /** SIGKILL: Redis vanishes without a goodbye, as when its host dies. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (it reloads its append-only file). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export interface PrivateRedisOptions {
  port?: number;
  durable?: boolean;
  /** `requirepass`: the default user needs this password (the URL carries it as `redis://:password@…`). */
  password?: string;
  /** An ACL user with every right (the URL then names it: `redis://user:password@…`); the default user is turned off. */
  user?: { name: string; password: string };
  /** `maxmemory-policy` (Redis's own default is noeviction). */
  maxmemoryPolicy?: string;
  /** Serves TLS only (no plain port) with this certificate and key, PEM files; the URL is then `rediss://`. */
  tls?: { certFile: string; keyFile: string };
  /** More `--directive value` arguments (`["--rename-command", "CONFIG", ""]`). */
  extraArgs?: string[];
}

/** redis-server's arguments for the options that guard it (password, ACL user, eviction policy, TLS). */
function guardArgs(port: number, options: PrivateRedisOptions): string[] {
  const args = options.tls
    ? [
        "--port",
        "0",
        "--tls-port",
        String(port),
        "--tls-cert-file",
        options.tls.certFile,
        "--tls-key-file",
        options.tls.keyFile,
        "--tls-auth-clients",
        "no",
      ]
    : ["--port", String(port)];
  if (options.password !== undefined) args.push("--requirepass", options.password);
  if (options.user)
    args.push("--user", "default", "off", "--user", options.user.name, "on", `>${options.user.password}`, "~*", "&*", "+@all");
  if (options.maxmemoryPolicy !== undefined) args.push("--maxmemory-policy", options.maxmemoryPolicy);
  return [...args, ...(options.extraArgs ?? [])];
}

function privateRedisUrl(port: number, options: PrivateRedisOptions): string {
  const credentials = options.user
    ? `${encodeURIComponent(options.user.name)}:${encodeURIComponent(options.user.password)}@`
    : options.password !== undefined
      ? `:${encodeURIComponent(options.password)}@`
      : "";
  return `${options.tls ? "rediss" : "redis"}://${credentials}127.0.0.1:${port}`;
}

/**
 * A `redis-server` of its own, on a free port, keeping its data in a temporary directory with an
 * append-only file fsynced on every write: killed with SIGKILL and restarted, it has everything it
 * had acknowledged (unless `durable: false`). Password, ACL user, eviction policy and TLS are the
 * test's to choose: the shared Redis on 6379 is never reconfigured.
 */
export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const port = options.port ?? (await freePort());
  // The test suite's throwaway server keeps nothing: an fsync per write would only slow the suite down.
  const persistence = options.durable === false ? ["--appendonly", "no"] : ["--appendonly", "yes", "--appendfsync", "always"];
  const dir = mkdtempSync(join(tmpdir(), "arb-redis-"));
  let child: ChildProcessWithoutNullStreams | null = null;
  const launch = async () => {
    const started = spawn("redis-server", [...guardArgs(port, options), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...persistence]);
    let output = "";
    started.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    started.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server on port ${port} was not ready within 10 s:\n${output}`)), 10_000);
      const check = () => {
        if (!/Ready to accept connections/.test(output)) return;
        clearTimeout(timer);
        resolve();
      };
      started.stdout.on("data", check);
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server on port ${port} exited (${code}):\n${output}`));
      });
      started.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    child = started;
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGKILL");
    await gone;
  };
  await launch();
  return {
    port,
    url: privateRedisUrl(port, options),
    dir,
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    close: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

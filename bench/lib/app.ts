/**
 * The App side of the benchmarks: the App bundled into one file and started as a child process with
 * plain `node` (no TypeScript loader in its memory or its timings), its environment, and webhook
 * deliveries signed like GitHub's.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, extname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { signature, testPrivateKey } from "../../test/helpers/app-harness.js";
import type { AppProcessMessage, MemoryReading, ParentMessage } from "./app-process.js";
import { BENCH_ORG_ID, WATCHER_TOKEN } from "./service.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const WEBHOOK_SECRET = "bench-webhook-secret";
const APP_ID = 1001;
export const OWNER = "octo-org";
export const REPO = "widgets";
export const REPO_ID = 4242;
const APP_ENTRY = join(ROOT, "src", "app", "main.ts");
const BUNDLE = join(ROOT, ".cache", "bench", "app-process.mjs");
const READY_TIMEOUT_MS = 60_000;

/** Whether the App exists in this checkout (it is built by another part of the project). */
export function appAvailable(): boolean {
  return existsSync(APP_ENTRY);
}

/** Bundles bench/lib/app-process.ts (and the App under it); packages stay in node_modules, as installed. */
export async function buildAppProcess(options: { outfile?: string; plugins?: Plugin[] } = {}): Promise<string> {
  const outfile = options.outfile ?? BUNDLE;
  const extension = extname(outfile);
  await build({
    absWorkingDir: ROOT,
    entryPoints: { [basename(outfile, extension)]: join(ROOT, "bench", "lib", "app-process.ts") },
    outdir: dirname(outfile),
    outExtension: { ".js": extension || ".js" },
    // Split like the compiled package loads: what the App imports on demand (the Redis backend) stays out until asked for.
    splitting: true,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "silent",
    plugins: options.plugins ?? [],
  });
  return outfile;
}

/** The App's private key (the fake GitHub accepts any well-formed app JWT); one per process, as in the tests. */
const appPrivateKey = testPrivateKey;

export interface AppEnvInput {
  githubUrl: string;
  serviceUrl: string;
  serviceToken: string;
  orgId: number;
  dataDir: string;
  timeScale: number;
}

/** Production configuration only: GitHub Enterprise variables point Probot at the fake GitHub. */
export function appEnv(input: AppEnvInput): NodeJS.ProcessEnv {
  const github = new URL(input.githubUrl);
  return {
    PATH: process.env.PATH ?? "",
    APP_ID: String(APP_ID),
    PRIVATE_KEY: appPrivateKey(),
    WEBHOOK_SECRET,
    PORT: "0",
    HOST: "127.0.0.1",
    GHE_HOST: github.host,
    GHE_PROTOCOL: github.protocol.replace(":", ""),
    LOG_LEVEL: "fatal",
    AGENT_RUN_API_URL: input.serviceUrl,
    AGENT_RUN_API_TOKEN: input.serviceToken,
    AGENT_RUN_ORG_ID: String(input.orgId),
    DATA_DIR: input.dataDir,
    // One factor for every rate window: the service's budget and intervals, and the App's GitHub write pacing.
    AGENT_RUN_TIME_SCALE: String(input.timeScale),
  };
}

/**
 * The environment of one App child on its own against the bench emulator at real speed, logging at info as
 * deployed (a refusal's log line is part of what it costs).
 */
export function appEnvAsDeployed(input: { githubUrl: string; serviceUrl: string; dataDir: string }): NodeJS.ProcessEnv {
  return { ...appEnv({ ...input, serviceToken: WATCHER_TOKEN, orgId: BENCH_ORG_ID, timeScale: 1 }), LOG_LEVEL: "info" };
}

export interface AppProcess {
  pid: number;
  url: string;
  webhookUrl: string;
  /** RSS and heap as the process has them now, then (when asked) the same after a full collection. */
  memory(options?: { afterGc?: boolean }): Promise<MemoryReading>;
  stop(): Promise<void>;
}

/** Forks the bundled App and resolves once it listens (recovery of stored tasks has started by then). */
export async function startAppProcess(bundle: string, env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Promise<AppProcess> {
  const child: ChildProcess = fork(bundle, [], {
    env,
    // --expose-gc only lets a reading also say what is live after a full collection; nothing else calls it.
    execArgv: ["--expose-gc", ...nodeArgs],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolvePromise) => child.once("exit", (code) => resolvePromise(code)));
  const ready = await new Promise<Extract<AppProcessMessage, { type: "ready" }>>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the App did not start within ${READY_TIMEOUT_MS} ms:\n${stderr}`)), READY_TIMEOUT_MS);
    child.on("message", (message: AppProcessMessage) => {
      if (message.type === "ready") {
        clearTimeout(timer);
        resolvePromise(message);
      } else if (message.type === "failed") {
        clearTimeout(timer);
        reject(new Error(`the App failed to start: ${message.message}\n${stderr}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the App exited with ${code} before it was ready:\n${stderr}`));
    });
  });
  const ask = (message: ParentMessage) => child.send(message);
  return {
    pid: child.pid!,
    url: ready.url,
    webhookUrl: ready.webhookUrl,
    memory: (options = {}) =>
      new Promise<MemoryReading>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error("the App did not answer a memory reading within 10 s")), 10_000);
        const onMessage = (message: AppProcessMessage) => {
          if (message.type !== "memory") return;
          clearTimeout(timer);
          child.off("message", onMessage);
          resolvePromise(message.reading);
        };
        child.on("message", onMessage);
        ask({ type: "memory", afterGc: options.afterGc ?? false });
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      ask({ type: "stop" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** POSTs a delivery as GitHub does; resolves with the status and when the answer arrived (performance.now()). */
export async function deliverWebhook(
  webhookUrl: string,
  name: string,
  payload: object,
  deliveryId: string,
): Promise<{ status: number; answeredAt: number }> {
  const body = JSON.stringify(payload);
  const response = await fetch(webhookUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/agent-run-bridge-bench",
      "x-github-event": name,
      "x-github-delivery": deliveryId,
      "x-github-hook-installation-target-type": "integration",
      "x-hub-signature-256": signature(body, WEBHOOK_SECRET),
    },
    body,
  });
  const answeredAt = performance.now();
  await response.arrayBuffer();
  return { status: response.status, answeredAt };
}

type Json = Record<string, unknown>;

interface WebhookExample {
  name: string;
  examples: Json[];
}

/** A real `issue_comment.created` payload from @octokit/webhooks-examples, pointed at the seeded repository and installation. */
export function issueCommentCreated(input: {
  issueNumber: number;
  commentId: number;
  body: string;
  login: string;
  installationId: number;
}): Json {
  const definitions = createRequire(import.meta.url)("@octokit/webhooks-examples") as WebhookExample[];
  const example = definitions.find((d) => d.name === "issue_comment")?.examples.find((e) => e.action === "created");
  if (!example) throw new Error("@octokit/webhooks-examples has no issue_comment.created example");
  const payload = structuredClone(example);
  const html = `https://github.com/${OWNER}/${REPO}`;
  const url = `${html}/issues/${input.issueNumber}`;
  const person = (template: unknown, login: string): Json => ({
    ...(template as Json),
    login,
    id: 50_000 + login.length,
    type: "User",
    html_url: `https://github.com/${login}`,
  });
  const repository = payload.repository as Json;
  payload.repository = {
    ...repository,
    id: REPO_ID,
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    private: false,
    html_url: html,
    default_branch: "main",
    owner: { ...(repository.owner as Json), login: OWNER, type: "Organization" },
  };
  payload.installation = { id: input.installationId, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMjAwMg==" };
  const issue = payload.issue as Json;
  payload.issue = {
    ...issue,
    number: input.issueNumber,
    title: `Issue ${input.issueNumber}`,
    body: "",
    html_url: url,
    state: "open",
    user: person(issue.user, "octocat"),
  };
  delete (payload.issue as Json).pull_request;
  const comment = payload.comment as Json;
  payload.comment = {
    ...comment,
    id: input.commentId,
    body: input.body,
    html_url: `${url}#issuecomment-${input.commentId}`,
    user: person(comment.user, input.login),
    performed_via_github_app: null,
  };
  payload.sender = person(payload.sender, input.login);
  return payload;
}

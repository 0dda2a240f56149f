/**
 * The container image, built from a clean clone's files with the project's Dockerfile on a local Node 24 base, and
 * run with its own command (entrypoint and CMD read from the image) against the emulator and the fake GitHub on
 * loopback, as `docker run` would run it: /healthz answers and the image's HEALTHCHECK passes; a signed `/agent`
 * comment creates one run whose result reaches the tracking comment; SIGTERM ends the App with 0 within 10 s and a
 * new container on the same /data volume finishes the work without posting anything twice; two containers on one
 * Redis, both sent the same delivery, start one run.
 * `npm run test:image` (vitest.image.config.ts); not part of `npm test`, whose time budget a build would exceed.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMarker } from "../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { BOT_LOGIN, appEnv, baseSeed, dropRedisKeys, postWebhook, redisBackendEnv, until } from "../helpers/app-harness.js";
import { OWNER, REPO, issueCommentPayload } from "../helpers/app-payloads.js";
import { freePort } from "../helpers/app-process.js";
import {
  createContainer,
  imageConfig,
  imageSize,
  imageUnderTest,
  runInContainer,
  type Container,
  type ContainerProcess,
  type ImageConfig,
} from "../helpers/container.js";
import { startFakeGitHub, type FakeGitHub } from "../helpers/fake-github/index.js";

const TAG = "localhost/agent-run-bridge:image-test";
let image: string;
let removeImage: () => void = () => undefined;
/** What `docker stop` waits before SIGKILL. */
const STOP_GRACE_MS = 10_000;
/** The emulator and the App inside run 100× faster than real time: a run of 300 emulated seconds lasts 3 s. */
const TIME_SCALE = 0.01;
/** The uid of the image's `node` user, who must be able to write the volume. */
const NODE_UID = 1000;
const EMBEDDED_THREAD = 1;
const REDIS_THREAD = 7;

let config: ImageConfig;
let github: FakeGitHub;
let emulator: RunningEmulator;
const containers: Container[] = [];
const running: ContainerProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  ({ image, remove: removeImage } = imageUnderTest(TAG));
  config = imageConfig(image);
  console.info(`image ${image}: ${imageSize(image)} (buildah images)`);
  github = await startFakeGitHub({
    seed: {
      ...baseSeed(),
      issues: [...(baseSeed().issues ?? []), { number: REDIS_THREAD, title: "Two replicas", body: "Something to do.", user: "maintainer" }],
    },
  });
  emulator = await startEmulator({ timeScale: TIME_SCALE });
  emulator.control.script({ match: "long job", durationMs: 600_000, summary: "Did the long job." });
  emulator.control.script({ match: "shared job", durationMs: 200_000, summary: "Did the shared job." });
  // Two containers (two copies of the image's files): a restart on a fresh one proves the state lives in the volume.
  containers.push(createContainer(image), createContainer(image));
}, 900_000);

afterAll(async () => {
  for (const { child } of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const container of containers) container.remove();
  removeImage();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await github?.close();
  await emulator?.close();
});

/** The App's settings as an operator passes them to `docker run -e`: no HOST (the image listens on every interface), no DATA_DIR (see VOLUME_MOUNT). */
async function containerEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const {
    HOST: _host,
    DATA_DIR: _dataDir,
    ...env
  } = appEnv({ url: emulator.url, token: emulator.token, orgId: emulator.orgId }, "", {
    GHE_HOST: new URL(github.url).host,
    GHE_PROTOCOL: "http",
    AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
    LOG_LEVEL: "warn",
    PORT: String(await freePort()),
    ...extra,
  });
  return env;
}

/**
 * Where the host directory standing for the volume is mounted, with DATA_DIR pointing there. Not /data itself:
 * `buildah run` gives every path the image declares as a VOLUME a fresh scratch copy of its own, over any mount
 * asked for there, where `docker run -v name:/data` would mount the volume; the image's /data is checked above.
 */
const VOLUME_MOUNT = "/mnt/agent-run-bridge-data";

/** A host directory mounted as the image's volume, owned by its user as a named volume would be. */
function volume(): string {
  const dir = mkdtempSync(join(tmpdir(), "arb-image-data-"));
  chownSync(dir, NODE_UID, NODE_UID);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface RunningApp {
  process: ContainerProcess;
  url: string;
}

/** Starts the image's own command (ENTRYPOINT + CMD) in `container` and waits until /healthz answers 200. */
async function startApp(container: Container, env: Record<string, string>, dataDir: string): Promise<RunningApp> {
  const app = runInContainer(container, [...config.entrypoint, ...config.cmd], {
    env: { ...env, DATA_DIR: VOLUME_MOUNT },
    volumes: [`${dataDir}:${VOLUME_MOUNT}`],
  });
  running.push(app);
  const url = `http://127.0.0.1:${env.PORT}`;
  let exited = false;
  void app.exited.then(() => (exited = true));
  await until(
    async () => {
      if (exited) throw new Error(`the App in ${container.name} exited before it was healthy:\n${app.stderr()}`);
      return fetch(`${url}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
    },
    `the App in ${container.name} to answer /healthz`,
    60_000,
  );
  return { process: app, url };
}

/** SIGTERM to the App inside, as `docker stop` sends it; resolves with its exit and how long it took. */
async function stop(app: RunningApp): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  app.process.signal("SIGTERM");
  const { code } = await app.process.exited;
  return { code, ms: Date.now() - started };
}

/** Rethrows a failed wait with what the Apps wrote (their logs say why a result did not come). */
function withOutputOf(...apps: RunningApp[]): (error: Error) => never {
  return (error) => {
    const comments = github.state.issueComments.map((c) => `#${c.issue_number} ${c.user.login}: ${c.body.slice(0, 300)}`).join("\n");
    throw new Error(`${error.message}\n${apps.map((app) => app.process.stderr()).join("\n---\n")}\ncomments:\n${comments}`);
  };
}

function commentPayload(thread: number, body: string) {
  github.seed({ issueComments: [{ issue_number: thread, body, user: "maintainer" }] });
  const trigger = github.state.issueComments.at(-1)!;
  return issueCommentPayload({
    thread: { number: thread, title: "A thread" },
    comment: { id: trigger.id, body: trigger.body, login: "maintainer" },
  });
}

const botCommentsOn = (thread: number) => github.commentsOn(`${OWNER}/${REPO}`, thread).filter((c) => c.user.login === BOT_LOGIN);

describe("the container image", () => {
  it("runs the App as the node user from its entrypoint, with the README's heap flags, a /data volume, port 3000 and a health check", () => {
    expect(config.user).toBe("node");
    expect(config.entrypoint).toEqual(["node", "--max-semi-space-size=4", "--max-old-space-size=512", "/app/bin/agent-run.js"]);
    expect(config.cmd).toEqual(["app"]);
    expect(config.env).toMatchObject({ NODE_ENV: "production", DATA_DIR: "/data" });
    expect(config.volumes).toEqual(["/data"]);
    expect(config.exposedPorts).toEqual(["3000/tcp"]);
    expect(config.healthcheck[0]).toBe("node");
  });

  it("holds the App's optional peers and compiled SQLite, and no tests, benchmarks, sources, git data or development tools", () => {
    const app = join(containers[0]!.root, "app");
    expect(readdirSync(app).sort()).toEqual(["LICENSE", "bin", "lib", "node_modules", "package.json"]);
    for (const peer of ["probot", "ioredis", "bullmq", "prom-client"]) expect(existsSync(join(app, "node_modules", peer))).toBe(true);
    expect(existsSync(join(app, "node_modules/better-sqlite3/build/Release/better_sqlite3.node"))).toBe(true);
    for (const devTool of ["typescript", "vitest", "esbuild", "eslint", "@sparticuz", "playwright-core", "tsx"])
      expect(existsSync(join(app, "node_modules", devTool)), devTool).toBe(false);
    expect(existsSync(join(app, "lib/app/main.js"))).toBe(true);
    // Type declarations and source maps (more than half of the dependencies' bytes) are never read by Node.
    for (const dir of ["lib", "node_modules"]) {
      const unread = readdirSync(join(app, dir), { recursive: true }).filter((file) => /\.(d\.[cm]?ts|map)$/.test(String(file)));
      expect(unread.slice(0, 5), `${unread.length} in ${dir}`).toEqual([]);
    }
    // /data exists in the image, belongs to the node user, and the compilers stayed in the build stage.
    expect(statSync(join(containers[0]!.root, "data")).uid).toBe(NODE_UID);
    expect(existsSync(join(containers[0]!.root, "usr/bin/g++"))).toBe(false);
  });

  it("answers /healthz and its HEALTHCHECK; runs one /agent request to its result; SIGTERM exits 0 in time; a restart on the volume posts nothing twice", async () => {
    const dataDir = volume();
    const env = await containerEnv();
    const first = await startApp(containers[0]!, env, dataDir);
    expect(await fetch(`${first.url}/healthz`).then((response) => response.json())).toMatchObject({ ok: true, backend: "embedded" });
    // The image's own HEALTHCHECK command, run beside the App as the runtime runs it (same network, same PORT).
    const probe = runInContainer(containers[1]!, config.healthcheck, { env: { PORT: env.PORT! } });
    expect((await probe.exited).code).toBe(0);

    const payload = commentPayload(EMBEDDED_THREAD, "/agent do the long job");
    expect(await postWebhook(`${first.url}/api/github/webhooks`, "issue_comment", payload, "image-delivery-1")).toBe(200);
    await until(
      () => parseMarker(botCommentsOn(EMBEDDED_THREAD)[0]?.body)?.runId != null,
      "the tracking comment to name the run",
      30_000,
    ).catch(withOutputOf(first));

    // Stopped while it watches the run: it settles and exits 0 before a runtime would resort to SIGKILL.
    const { code, ms } = await stop(first);
    expect(code, first.process.stderr()).toBe(0);
    expect(ms).toBeLessThan(STOP_GRACE_MS);
    expect(first.process.stderr()).toContain("app stopped (SIGTERM).");

    // A new container on the same volume: the same delivery again (a redelivery) is known, the watch carries on.
    const second = await startApp(containers[1]!, env, dataDir);
    expect(await postWebhook(`${second.url}/api/github/webhooks`, "issue_comment", payload, "image-delivery-1")).toBe(200);
    await until(() => parseMarker(botCommentsOn(EMBEDDED_THREAD)[0]?.body)?.state === "done", "the result", 60_000).catch(
      withOutputOf(second),
    );
    // Give a duplicate every chance to appear before judging.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await stop(second)).code, second.process.stderr()).toBe(0);

    const bot = botCommentsOn(EMBEDDED_THREAD);
    expect(bot).toHaveLength(1);
    expect(parseMarker(bot[0]!.body)).toMatchObject({ state: "done", outcome: "succeeded" });
    expect(bot[0]!.body).toContain("Did the long job.");
    expect(emulator.control.stats().runsCreated).toBe(1);
    expect(first.process.stderr() + second.process.stderr()).not.toContain(emulator.token);
  }, 240_000);

  it("two containers on one Redis, both sent the same delivery, start one run and post one result", async () => {
    const redis = redisBackendEnv();
    cleanups.push(() => dropRedisKeys(redis.REDIS_KEY_PREFIX!));
    const runsBefore = emulator.control.stats().runsCreated;
    const replicas = await Promise.all(containers.map(async (container) => startApp(container, await containerEnv(redis), volume())));
    for (const replica of replicas)
      expect(await fetch(`${replica.url}/healthz`).then((response) => response.json())).toMatchObject({ ok: true, backend: "redis" });

    const payload = commentPayload(REDIS_THREAD, "/agent do the shared job");
    const answers = await Promise.all(
      replicas.map((replica) => postWebhook(`${replica.url}/api/github/webhooks`, "issue_comment", payload, "image-delivery-shared")),
    );
    expect(answers).toEqual([200, 200]);
    await until(() => parseMarker(botCommentsOn(REDIS_THREAD)[0]?.body)?.state === "done", "the result", 60_000).catch(
      withOutputOf(...replicas),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const stopped = await Promise.all(replicas.map((replica) => stop(replica)));
    expect(stopped.map(({ code }) => code)).toEqual([0, 0]);
    expect(botCommentsOn(REDIS_THREAD)).toHaveLength(1);
    expect(botCommentsOn(REDIS_THREAD)[0]!.body).toContain("Did the shared job.");
    expect(emulator.control.stats().runsCreated - runsBefore).toBe(1);
  }, 180_000);
});

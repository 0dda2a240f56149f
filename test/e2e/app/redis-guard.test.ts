/**
 * Redis as a guarded dependency, with `agent-run app` as a child process against `redis-server`s of the test's own
 * (the shared one on 6379 is never reconfigured): a REDIS_URL with a password (`requirepass`) or an ACL user works
 * and the password shows nowhere (logs, errors, /status, /healthz?verbose, /metrics); `rediss://` works with the CA
 * named by REDIS_TLS_CA_PATH and is refused with another; and a `maxmemory-policy` that can evict the App's keys
 * stops it at start with a message that says what to set, read by CONFIG GET or, where CONFIG is renamed, by INFO.
 */
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { startAppChildServices } from "../../helpers/app-child-world.js";
import { baseSeed, postWebhook, until } from "../../helpers/app-harness.js";
import { spawnAppProcess, startAppChild, startPrivateRedis, type PrivateRedisOptions } from "../../helpers/app-process.js";
import { makeThrowawayTls, opensslAvailable } from "../../helpers/throwaway-tls.js";

// Each test starts several App processes (each a few seconds under tsx) and redis-servers: far past the default 30 s on a loaded machine.
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const STATUS_TOKEN = "Status-token-0123456789abcdefghijkl";
const METRICS_TOKEN = "Metrics-token-0123456789abcdefghijk";

async function startWorld() {
  const services = await startAppChildServices({
    seed: { ...baseSeed(), issues: [1, 2].map((number) => ({ number, title: `Issue ${number}`, body: "", user: "maintainer" })) },
    cleanups,
  });
  return { ...services, env: (extra: Record<string, string>) => services.env({ LOG_LEVEL: "debug", LOG_FORMAT: "json", ...extra }) };
}

type World = Awaited<ReturnType<typeof startWorld>>;

async function privateRedis(options: PrivateRedisOptions) {
  const redis = await startPrivateRedis({ durable: false, ...options });
  cleanups.push(() => redis.close());
  return redis;
}

/** Runs `agent-run app` until it exits by itself (a refusal at start), within 30 s. */
async function exitOf(env: Record<string, string>) {
  const spawned = spawnAppProcess(env);
  const killer = setTimeout(() => spawned.child.kill("SIGKILL"), 30_000);
  const { code } = await spawned.exited;
  clearTimeout(killer);
  return { code, output: spawned.stderr() + spawned.stdout() };
}

/** Starts the App on `redisUrl` and has it carry one `/agent` comment through to its result. */
async function runOnce(world: World, issueNumber: number, extra: Record<string, string>) {
  const app = await startAppChild(world.env({ STATUS_TOKEN, METRICS_TOKEN, ...extra }), `the App on issue ${issueNumber}`);
  cleanups.push(() => app.kill());
  expect(await postWebhook(app.webhookUrl, "issue_comment", world.comment(issueNumber, "/agent fix it"), `guard-${issueNumber}`)).toBe(200);
  await until(() => world.results(issueNumber).some((m) => m?.state === "done"), `a result on issue ${issueNumber}`, 20_000);
  expect(world.results(issueNumber)).toMatchObject([{ state: "done", outcome: "succeeded" }]);
  return app;
}

async function read(url: string, token: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: await response.text() };
}

describe("agent-run app on a Redis that needs a password", () => {
  it("works with requirepass and with an ACL user, and the password appears in no log, /status, /healthz?verbose or /metrics", async () => {
    const world = await startWorld();
    const password = "Redis-pass-7b1f2c9d4e";
    const userPassword = "Acl-user-pass-5a8e3f0c";
    const [byPassword, byUser] = await Promise.all([
      privateRedis({ password }),
      privateRedis({ user: { name: "bridge", password: userPassword } }),
    ]);
    expect(byPassword.url).toBe(`redis://:${password}@127.0.0.1:${byPassword.port}`);
    expect(byUser.url).toBe(`redis://bridge:${userPassword}@127.0.0.1:${byUser.port}`);

    const [first, second] = await Promise.all([
      runOnce(world, 1, { REDIS_URL: byPassword.url, REDIS_KEY_PREFIX: "guarded-bridge" }),
      runOnce(world, 2, { REDIS_URL: byUser.url }),
    ]);
    for (const [app, secret] of [
      [first, password],
      [second, userPassword],
    ] as const) {
      const status = await read(`${app.url}/status`, STATUS_TOKEN);
      const verbose = await read(`${app.url}/healthz?verbose`, STATUS_TOKEN);
      const metrics = await read(`${app.url}/metrics`, METRICS_TOKEN);
      expect([status.status, verbose.status, metrics.status]).toEqual([200, 200, 200]);
      for (const text of [status.body, verbose.body, metrics.body]) expect(text).not.toContain(secret);
      expect(await app.stop()).toEqual({ code: 0, signal: null });
      expect(app.stdout() + app.stderr()).not.toContain(secret);
      // The debug log was written (this is not a silent App that could not have leaked anything).
      expect(app.stdout()).toContain("agent-run-bridge app listening");
    }
    // Every key the App and BullMQ wrote is under the App's prefix (docs/security.md: an ACL user can be limited to it).
    const client = new Redis({ host: "127.0.0.1", port: byPassword.port, password });
    const keys = await client.keys("*");
    await client.quit();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !key.startsWith("guarded-bridge:"))).toEqual([]);
  }, 90_000);

  it("exits 2 naming REDIS_URL when the password is wrong or missing, without printing the password it was given", async () => {
    const world = await startWorld();
    const redis = await privateRedis({ password: "Right-pass-0c4d2e9f" });
    const wrong = "Wrong-pass-6e1a7b3d";
    const [withWrong, withNone] = await Promise.all([
      exitOf(world.env({ REDIS_URL: `redis://:${wrong}@127.0.0.1:${redis.port}` })),
      exitOf(world.env({ REDIS_URL: `redis://127.0.0.1:${redis.port}` })),
    ]);
    expect(withWrong.code).toBe(2);
    expect(withWrong.output).toMatch(/REDIS_URL \(cannot reach .*127\.0\.0\.1:\d+.*WRONGPASS/);
    expect(withWrong.output).not.toContain(wrong);
    expect(withNone.code).toBe(2);
    expect(withNone.output).toMatch(/REDIS_URL \(cannot reach redis:\/\/127\.0\.0\.1:\d+.*NOAUTH/);
  }, 90_000);
});

describe("agent-run app on a Redis that serves TLS only (rediss://)", () => {
  it("connects with the CA named by REDIS_TLS_CA_PATH, and refuses to start when Redis's certificate is not signed by it", async (context) => {
    if (!opensslAvailable()) return context.skip("openssl is not on the PATH: no throwaway CA can be made");
    const tls = makeThrowawayTls();
    cleanups.push(() => tls.remove());
    const password = "Tls-redis-pass-3f9a1c";
    let redis;
    try {
      redis = await privateRedis({ password, tls: { certFile: tls.certFile, keyFile: tls.keyFile } });
    } catch (error) {
      // Debian's redis-server is built with TLS; a build without it refuses the tls-* directives.
      if (/tls|Bad directive/i.test((error as Error).message))
        return context.skip(`this redis-server cannot serve TLS: ${(error as Error).message.split("\n").slice(-3).join(" ")}`);
      throw error;
    }
    expect(redis.url).toBe(`rediss://:${password}@127.0.0.1:${redis.port}`);
    const world = await startWorld();

    const [untrusted, noCa] = await Promise.all([
      exitOf(world.env({ REDIS_URL: redis.url, REDIS_TLS_CA_PATH: tls.otherCaFile })),
      exitOf(world.env({ REDIS_URL: redis.url })),
    ]);
    for (const refused of [untrusted, noCa]) {
      expect(refused.code).toBe(2);
      expect(refused.output).toMatch(/REDIS_URL \(cannot reach rediss:.*(certificate|self.signed)/i);
      expect(refused.output).not.toContain(password);
    }

    const app = await runOnce(world, 1, { REDIS_URL: redis.url, REDIS_TLS_CA_PATH: tls.caFile });
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    expect(app.stdout() + app.stderr()).not.toContain(password);
  }, 90_000);
});

describe("agent-run app and Redis's maxmemory-policy", () => {
  it("exits 2 on allkeys-lru and volatile-lru with a message that says to set noeviction; read by INFO where CONFIG is renamed", async () => {
    const world = await startWorld();
    const [allkeys, volatile, renamed] = await Promise.all([
      privateRedis({ maxmemoryPolicy: "allkeys-lru" }),
      privateRedis({ maxmemoryPolicy: "volatile-lru", password: "Policy-pass-8d2c4a" }),
      privateRedis({ maxmemoryPolicy: "allkeys-lfu", extraArgs: ["--rename-command", "CONFIG", ""] }),
    ]);
    const outcomes = await Promise.all([allkeys, volatile, renamed].map((redis) => exitOf(world.env({ REDIS_URL: redis.url }))));
    for (const [outcome, policy] of [
      [outcomes[0]!, "allkeys-lru"],
      [outcomes[1]!, "volatile-lru"],
      [outcomes[2]!, "allkeys-lfu"],
    ] as const) {
      expect(outcome.code, outcome.output).toBe(2);
      expect(outcome.output).toContain(`has maxmemory-policy ${policy}, which lets Redis evict`);
      expect(outcome.output).toContain("Set maxmemory-policy to noeviction");
    }
    expect(outcomes[1]!.output).toContain("locks and leases");
    expect(outcomes[1]!.output).not.toContain("Policy-pass-8d2c4a");
  }, 90_000);

  it("starts on noeviction, also when only INFO can tell (CONFIG renamed); here with the password in REDIS_PASSWORD", async () => {
    const world = await startWorld();
    const password = "Apart/from@the:url-4c7e";
    const redis = await privateRedis({ password, maxmemoryPolicy: "noeviction", extraArgs: ["--rename-command", "CONFIG", ""] });
    const app = await runOnce(world, 1, { REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_PASSWORD: password });
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    expect(app.stdout() + app.stderr()).not.toContain(password);
  }, 90_000);
});

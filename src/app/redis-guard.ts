/**
 * Redis as a guarded dependency: how the App connects to it (the password and user from REDIS_URL,
 * TLS for `rediss://` with an optional CA of the operator's own, REDIS_TLS_CA_PATH) and what it
 * refuses at start (a `maxmemory-policy` that lets Redis evict the App's keys). Whoever can write to
 * this Redis can act as the App, so it is a trust boundary: docs/security.md says what follows.
 */
import type { Redis, RedisOptions } from "ioredis";
import { AppConfigurationError } from "./env.js";

/** `redis://user:secret@host` → `redis://user:***@host`: a URL in an error never carries its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}

/** The password in REDIS_URL, decoded (what the redactor must never let out), or undefined. */
export function redisPasswordOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}

/**
 * ioredis options from REDIS_URL: one object for the App's own client and for BullMQ's connections,
 * so that both authenticate and verify TLS alike. `password` (REDIS_PASSWORD) stands in for the URL's; `tlsCa` (PEM) replaces Node's roots for this
 * connection only: the App's other connections (GitHub, the service) keep trusting the public ones.
 */
export function redisConnectionOptions(
  url: string,
  extra: { password?: string | undefined; tlsCa?: string | undefined } = {},
): RedisOptions {
  const parsed = new URL(url);
  const tls = parsed.protocol === "rediss:";
  const { password = parsed.password ? decodeURIComponent(parsed.password) : undefined, tlsCa } = extra;
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(parsed.port || 6379),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(parsed.pathname.length > 1 ? { db: Number(parsed.pathname.slice(1)) } : {}),
    ...(tls ? { tls: tlsCa ? { ca: [tlsCa] } : {} } : {}),
  };
}

/**
 * Why a `maxmemory-policy` is unsafe for the App, or null for `noeviction`. `allkeys-*` evicts any
 * key; `volatile-*` evicts keys with an expiry, which here are the locks and leases (BullMQ's job
 * locks among them) that keep two replicas off the same job or thread: losing one early runs it twice.
 */
export function evictionPolicyRisk(policy: string): string | null {
  const normalized = policy.trim().toLowerCase();
  if (normalized === "noeviction") return null;
  if (normalized.startsWith("allkeys-"))
    return "lets Redis evict any key when it reaches maxmemory: queued deliveries, watched runs and held follow-ups would vanish without a trace";
  if (normalized.startsWith("volatile-"))
    return "lets Redis evict keys that have an expiry when it reaches maxmemory: those are the App's locks and leases (BullMQ's job locks among them), and one evicted early lets two replicas run the same job or post to the same thread at once";
  return "is not one the App knows to be safe (only noeviction keeps every key until the App deletes it)";
}

/** Redis's maxmemory-policy refuses this App: the message says what to set. Exit code 2, like every setting the App cannot start with. */
class RedisEvictionPolicyError extends AppConfigurationError {
  override name = "RedisEvictionPolicyError";
  constructor(where: string, policy: string, risk: string) {
    super([], [`REDIS_URL (the Redis at ${where} has maxmemory-policy ${policy})`]);
    this.message =
      `The GitHub App cannot start: the Redis at ${where} has maxmemory-policy ${policy}, which ${risk}. ` +
      "Set maxmemory-policy to noeviction: `maxmemory-policy noeviction` in redis.conf, `--maxmemory-policy noeviction` on " +
      "redis-server's command line, `CONFIG SET maxmemory-policy noeviction` then `CONFIG REWRITE`, or your managed Redis's " +
      "parameter group. With noeviction a full Redis refuses writes with an error, which the App reports (a delivery it " +
      "could not store is answered 503 and can be redelivered) instead of losing what it had stored.";
  }
}

/** Redis's policy as `CONFIG GET` reads it, else as `INFO memory` does (CONFIG is often renamed or forbidden on managed Redis). */
async function readEvictionPolicy(redis: Redis): Promise<{ policy: string } | { failures: string[] }> {
  const failures: string[] = [];
  try {
    const answer = (await redis.call("CONFIG", "GET", "maxmemory-policy")) as unknown;
    if (Array.isArray(answer) && typeof answer[1] === "string") return { policy: answer[1] };
    failures.push("CONFIG GET maxmemory-policy answered nothing");
  } catch (error) {
    failures.push(`CONFIG GET: ${(error as Error).message}`);
  }
  try {
    const info = await redis.info("memory");
    const line = /^maxmemory_policy:(\S+)/m.exec(info);
    if (line) return { policy: line[1]! };
    failures.push("INFO memory has no maxmemory_policy line");
  } catch (error) {
    failures.push(`INFO memory: ${(error as Error).message}`);
  }
  return { failures };
}

/**
 * Refuses to start on a Redis that may evict the App's keys (RedisEvictionPolicyError), or whose
 * policy cannot be read at all (an AppConfigurationError that says which command to allow).
 */
export async function assertNoEviction(redis: Redis, url: string): Promise<void> {
  const where = redactUrl(url);
  const read = await readEvictionPolicy(redis);
  if ("failures" in read) {
    throw new AppConfigurationError(
      [],
      [
        `REDIS_URL (cannot read maxmemory-policy from ${where}: ${read.failures.join("; ")}; allow the App's Redis user \`CONFIG GET\` or \`INFO\` (ACL: +config|get or +info), so it can check the policy is noeviction)`,
      ],
    );
  }
  const risk = evictionPolicyRisk(read.policy);
  if (risk !== null) throw new RedisEvictionPolicyError(where, read.policy, risk);
}

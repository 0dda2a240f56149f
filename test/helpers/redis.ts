/**
 * The Redis the suite's Redis half talks to: REDIS_URL, else 127.0.0.1:6379. `test/setup/redis.ts`
 * makes sure one answers there before any test starts (or starts a throwaway `redis-server`).
 */
export const TEST_REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

const parsed = new URL(TEST_REDIS_URL);

/** The same server as ioredis/BullMQ connection options, for the tests that take host and port. */
export const TEST_REDIS = {
  host: parsed.hostname.replace(/^\[|\]$/g, ""),
  port: Number(parsed.port || 6379),
  ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
  ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  ...(parsed.pathname.length > 1 ? { db: Number(parsed.pathname.slice(1)) } : {}),
};

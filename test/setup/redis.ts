/**
 * Vitest's global setup for the suite's Redis half (the distributed backend's tests use a real Redis,
 * never a mock). Where a Redis answers on REDIS_URL (default 127.0.0.1:6379) it is used as it is;
 * where none does, a throwaway `redis-server` from the PATH is started there for the run and stopped
 * after it; without one, the run stops at once with one line that says what to install.
 */
import { createConnection } from "node:net";
import { redisServerAvailable, startPrivateRedis } from "../helpers/app-process.js";
import { TEST_REDIS, TEST_REDIS_URL } from "../helpers/redis.js";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** Whether a Redis answers PING at host:port within a second (an AUTH error still means one is there). */
function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (chunk) => done(/^[+-]/.test(chunk.toString("latin1"))));
  });
}

export default async function setupRedis(): Promise<(() => Promise<void>) | undefined> {
  if (await redisAnswers(TEST_REDIS.host, TEST_REDIS.port)) return undefined;
  const where = TEST_REDIS_URL.replace(/\/\/[^@/]*@/, "//");
  if (!LOOPBACK.has(TEST_REDIS.host) || !redisServerAvailable()) {
    // One line, then stop: every Redis test would otherwise fail with its own wall of connection errors.
    process.stderr.write(
      `npm test needs Redis: nothing answers on ${where} and no redis-server is on the PATH. ` +
        `Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a running one.\n`,
    );
    process.exit(1);
  }
  const redis = await startPrivateRedis({ port: TEST_REDIS.port, durable: false });
  process.stderr.write(`No Redis answered on ${where}: started a throwaway redis-server there for this run.\n`);
  return () => redis.close();
}

/** The Redis a benchmark may share with others: reached or not, and its own keys removed afterwards. */
import { Redis } from "ioredis";

/** A connected client, or null when nothing answers at `url` (the benchmark then reports the figure as not measured). */
export async function connectBenchRedis(url: string): Promise<Redis | null> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 1_000, retryStrategy: () => null });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return null;
  }
}

export async function redisReachable(url: string): Promise<boolean> {
  const redis = await connectBenchRedis(url);
  redis?.disconnect();
  return redis !== null;
}

/** Deletes every key under the prefix (the benchmark's own namespace in a shared Redis). */
export async function deleteKeys(redis: Redis, keyPrefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${keyPrefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== "0");
}

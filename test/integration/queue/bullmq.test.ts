/**
 * The distributed queue's own lifecycle against the real test Redis (helpers/redis.ts): a replica stopped
 * right after it started (a failed start, a test's quick teardown) must not leave BullMQ's
 * half-initialised connections to reject with no one listening.
 */
import { Redis } from "ioredis";
import { afterAll, expect, it } from "vitest";
import { BullWorkQueue } from "../../../src/app/queue/bullmq.js";
import { TEST_REDIS, TEST_REDIS_URL } from "../../helpers/redis.js";

const prefix = `bullmq-lifecycle-${process.pid}`;

afterAll(async () => {
  const redis = new Redis(TEST_REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

it("stops at once after starting without an unhandled 'Connection is closed'", async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", record);
  try {
    for (let i = 0; i < 40; i++) {
      const queue = new BullWorkQueue({
        connection: { ...TEST_REDIS, maxRetriesPerRequest: null },
        prefix: `${prefix}-${i}`,
      });
      queue.start({ process: async () => ({ kind: "done" }), onFailed: async () => undefined });
      await new Promise((resolve) => setTimeout(resolve, i % 5));
      await queue.stop();
    }
    // Rejections of dropped commands surface on later ticks.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    process.off("unhandledRejection", record);
  }
  expect(unhandled.map(String)).toEqual([]);
});

import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * One thread's decisions at a time: "is a run active here? then hold this follow-up, else start one"
 * and "the run finished: release what was held" must not interleave, or a follow-up is stranded or a
 * second run starts. Sections are short (a few store calls, never a GitHub or service call).
 */
export interface ThreadLocks {
  /** Runs `section` holding the lock of `key`; `null` when the lock could not be had within `waitMs`. */
  withLock<T>(key: string, section: () => Promise<T>, waitMs?: number): Promise<{ value: T } | null>;
}

/** One process: a promise chain per key. */
export function createInProcessLocks(): ThreadLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async withLock(key, section) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      await previous;
      try {
        return { value: await section() };
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

/** Deletes KEYS[1] only while it still holds ARGV[1] (the holder's token): a holder never frees what someone else took since. */
export const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * Every replica: `SET key token NX PX ttl`, released only by its holder. A replica that dies holding a
 * lock frees it when the TTL runs out; sections are far shorter than the TTL.
 */
export function createRedisLocks(redis: Redis, options: { keyPrefix: string; ttlMs?: number }): ThreadLocks {
  const ttl = options.ttlMs ?? 15_000;
  return {
    async withLock(key, section, waitMs = 5_000) {
      const lockKey = `${options.keyPrefix}:lock:${key}`;
      const token = randomUUID();
      const giveUpAt = Date.now() + waitMs;
      let pause = 10;
      while ((await redis.set(lockKey, token, "PX", ttl, "NX")) !== "OK") {
        if (Date.now() >= giveUpAt) return null;
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(200, pause * 2);
      }
      try {
        return { value: await section() };
      } finally {
        await redis.eval(RELEASE_SCRIPT, 1, lockKey, token).catch(() => undefined);
      }
    },
  };
}

/**
 * "One replica at a time" for background work that runs on a schedule (the delivery recovery
 * sweep): a named lease held for a TTL and renewed while the work goes on. It is the thread locks'
 * mechanism (locks.ts: `SET key token NX PX ttl` with Redis, released only by its holder) made
 * renewable, with the same row in the embedded SQLite file. A holder killed with SIGKILL renews
 * nothing: its lease expires and the next replica (or the restarted process) takes it.
 */
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type { Redis } from "ioredis";
import { RELEASE_SCRIPT } from "./locks.js";

export interface LeaseHold {
  /** Extends the hold by its TTL; false when it was lost (it expired and another holder took it). */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

export interface Leases {
  /** Takes `name` for `ttlMs` unless someone else holds it; null when they do. Never waits. */
  tryAcquire(name: string, ttlMs: number): Promise<LeaseHold | null>;
}

/**
 * Runs `work` holding the lease `name`, renewing it every third of its TTL; `null` when another
 * holder has it. When a renewal finds the lease lost, `signal` aborts: the work should stop soon.
 */
export async function withLease<T>(
  leases: Leases,
  name: string,
  ttlMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T } | null> {
  const hold = await leases.tryAcquire(name, ttlMs);
  if (!hold) return null;
  const lost = new AbortController();
  const renewer = setInterval(
    () => {
      void hold.renew().then(
        (kept) => {
          if (!kept) lost.abort(new Error(`the lease "${name}" was lost`));
        },
        // A renewal that failed (backend briefly unreachable) is tried again at the next tick; the TTL covers the gap.
        () => undefined,
      );
    },
    Math.max(10, Math.floor(ttlMs / 3)),
  ).unref();
  try {
    return { value: await work(lost.signal) };
  } finally {
    clearInterval(renewer);
    await hold.release().catch(() => undefined);
  }
}

const RENEW_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";

/** Every replica over one Redis: `${keyPrefix}:lease:${name}` holds the holder's token, with Redis's own expiry. */
export function createRedisLeases(redis: Redis, options: { keyPrefix: string }): Leases {
  return {
    async tryAcquire(name, ttlMs) {
      const key = `${options.keyPrefix}:lease:${name}`;
      const token = randomUUID();
      if ((await redis.set(key, token, "PX", ttlMs, "NX")) !== "OK") return null;
      return {
        renew: async () => Number(await redis.eval(RENEW_SCRIPT, 1, key, token, ttlMs)) === 1,
        release: async () => {
          await redis.eval(RELEASE_SCRIPT, 1, key, token);
        },
      };
    },
  };
}

/**
 * The embedded App: a row per lease in its SQLite file, taken when absent or expired. One process
 * uses the file at a time, but a restarted process finds its killed predecessor's row and waits
 * for it to expire, as a replica over Redis would.
 */
export function createSqliteLeases(db: Database.Database, now: () => number = Date.now): Leases {
  db.exec("CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)");
  const take = db.prepare(
    `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expiresAt)
     ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE leases.expires_at <= @now`,
  );
  const extend = db.prepare("UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND expires_at > ?");
  const drop = db.prepare("DELETE FROM leases WHERE name = ? AND holder = ?");
  return {
    async tryAcquire(name, ttlMs) {
      const holder = randomUUID();
      const at = now();
      if (take.run({ name, holder, expiresAt: at + ttlMs, now: at }).changes !== 1) return null;
      return {
        renew: async () => {
          const renewedAt = now();
          return extend.run(renewedAt + ttlMs, name, holder, renewedAt).changes === 1;
        },
        release: async () => {
          drop.run(name, holder);
        },
      };
    },
  };
}

/** One process that is the only one there is (an engine on its own, in tests and benchmarks): every lease is always its own. */
export function soleProcessLeases(): Leases {
  return { tryAcquire: async () => ({ renew: async () => true, release: async () => undefined }) };
}

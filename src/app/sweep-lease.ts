import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * One sweeper per deployment: the replica holding this lease sweeps the runs list for everyone
 * (one page shows every replica's runs, so two sweepers would only spend the shared budget twice).
 * The holder renews it while alive; a holder killed outright (SIGKILL) stops renewing and the lease
 * runs out after `ttlMs`, when another replica takes it.
 */
export interface SweepLease {
  /** Takes the lease when it is free, renews it when it is ours; true while this process holds it. */
  claim(): Promise<boolean>;
  /** How often a holder renews it (a third of its time to live). */
  readonly renewEveryMs: number;
  /** Gives it up at once (a clean shutdown), so another replica need not wait for it to run out. */
  release(): Promise<void>;
}

/** One process: it is the only sweeper there is. */
export function createInProcessSweepLease(): SweepLease {
  return { claim: async () => true, release: async () => undefined, renewEveryMs: 60_000 };
}

/** Take when free, renew when ours, in one step on the server. */
const CLAIM_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

const RELEASE_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export interface RedisSweepLeaseOptions {
  keyPrefix: string;
  /** How long the lease outlives its holder's last renewal (ms). Default 10 s: the sweeper renews it far more often. */
  ttlMs?: number;
}

export const DEFAULT_SWEEP_LEASE_TTL_MS = 10_000;

/** Every replica over the same Redis and prefix: at most one holds the lease at a time. */
export function createRedisSweepLease(redis: Redis, options: RedisSweepLeaseOptions): SweepLease {
  const key = `${options.keyPrefix}:sweep-lease`;
  const ttl = Math.max(1, Math.round(options.ttlMs ?? DEFAULT_SWEEP_LEASE_TTL_MS));
  const token = randomUUID();
  return {
    renewEveryMs: Math.max(1, Math.floor(ttl / 3)),
    async claim() {
      return Number(await redis.eval(CLAIM_SCRIPT, 1, key, token, ttl)) === 1;
    },
    async release() {
      await redis.eval(RELEASE_SCRIPT, 1, key, token).catch(() => undefined);
    },
  };
}

/**
 * The namespace of everything the App keeps in Redis (store, queue, locks, leases, budgets, GitHub
 * write windows), and the one-time move out of the namespace earlier versions used by default.
 *
 * Until 0.2 the default namespace was `agent-run-bridge:<org id>:<16 hex of sha256(API token)>`: a
 * rotated AGENT_RUN_API_TOKEN then opened an empty namespace, and every watched run, held
 * follow-up, once-only claim and count was left behind. The default is now named by what stays
 * when a credential rotates: the service organization and the GitHub App's id
 * (`agent-run-bridge:<org id>:app<app id>`). Neither is a secret. REDIS_KEY_PREFIX still overrides it.
 *
 * The move: with the default namespace, each start renames every key under the old default of the
 * *current* token into the new namespace, holding a lease so that replicas starting at once move
 * each key once and open their queue only after it (the others wait). RENAMENX is atomic per key
 * and keeps its expiry; a key that exists on both sides is left where it is and reported, never
 * overwritten. A key already moved is no longer under the old prefix, so a second start (or a
 * replica that took over a dead mover's lease) finds only what is left.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { BRIDGE_NAME } from "../../version.js";
import { createRedisLeases, withLease } from "../lease.js";

export interface NamespaceSettings {
  appId: number;
  service: { orgId: number; token: string };
  /** REDIS_KEY_PREFIX: an explicit namespace, used as is (nothing is moved into it). */
  redisKeyPrefix: string | undefined;
}

export interface Namespace {
  prefix: string;
  /** The namespace earlier versions used by default for this token; null when REDIS_KEY_PREFIX is set. */
  legacyPrefix: string | null;
}

/** The default namespace of 0.1: one per organization and API token (a hash, never the token). */
export function tokenKeyedPrefix(orgId: number, token: string): string {
  return `${BRIDGE_NAME}:${orgId}:${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;
}

/** Where this deployment's keys live: REDIS_KEY_PREFIX, else one per service organization and GitHub App. */
export function deploymentNamespace(settings: NamespaceSettings): Namespace {
  if (settings.redisKeyPrefix) return { prefix: settings.redisKeyPrefix, legacyPrefix: null };
  return {
    prefix: `${BRIDGE_NAME}:${settings.service.orgId}:app${settings.appId}`,
    legacyPrefix: tokenKeyedPrefix(settings.service.orgId, settings.service.token),
  };
}

export interface NamespaceMove {
  from: string;
  to: string;
  /** Keys renamed by this process. */
  moved: number;
  /** Keys that exist under both names: left under the old one, untouched. */
  kept: string[];
}

export interface MoveOptions {
  /** How long the mover's lease lasts without renewal (renewed every third while it moves). */
  leaseMs?: number;
  /** How long a replica waits for another's move before giving up. */
  waitMs?: number;
  /** SCAN's batch hint. */
  batch?: number;
}

const LEASE_NAME = "namespace-move";

/** `*`, `?`, `[`, `]` and `\` taken literally by SCAN's MATCH. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

async function moveOnce(
  redis: Redis,
  from: string,
  to: string,
  batch: number,
  signal: AbortSignal,
): Promise<Omit<NamespaceMove, "from" | "to">> {
  let moved = 0;
  const kept: string[] = [];
  const pattern = `${escapeGlob(from)}:*`;
  // Passes until one moves nothing: keys an older replica still writes while this one moves are taken too.
  for (let pass = 0; pass < 5; pass += 1) {
    let movedThisPass = 0;
    let cursor = "0";
    do {
      if (signal.aborted) throw signal.reason as Error;
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", batch);
      cursor = next;
      for (const key of keys) {
        if (kept.includes(key)) continue;
        const target = `${to}${key.slice(from.length)}`;
        // 0: the target exists (never overwritten), or the key vanished in between (moved or expired).
        const renamed = await redis.renamenx(key, target).catch((error: Error) => {
          if (/no such key/i.test(error.message)) return -1;
          throw error;
        });
        if (renamed === 1) movedThisPass += 1;
        else if (renamed === 0) kept.push(key);
      }
    } while (cursor !== "0");
    moved += movedThisPass;
    if (movedThisPass === 0) break;
  }
  return { moved, kept };
}

/**
 * Moves every key under `from` to the same name under `to`, once across replicas. Resolves when the
 * move is done (by this process or another); rejects when another replica's move outlasts `waitMs`.
 */
export async function moveNamespace(redis: Redis, from: string, to: string, options: MoveOptions = {}): Promise<NamespaceMove> {
  const leaseMs = options.leaseMs ?? 30_000;
  const waitMs = options.waitMs ?? 5 * 60_000;
  const batch = options.batch ?? 500;
  const leases = createRedisLeases(redis, { keyPrefix: to });
  const started = Date.now();
  for (;;) {
    const done = await withLease(leases, LEASE_NAME, leaseMs, (signal) => moveOnce(redis, from, to, batch, signal));
    if (done) return { from, to, ...done.value };
    if (Date.now() - started > waitMs)
      throw new Error(
        `another replica has been moving the Redis keys from ${from} to ${to} for over ${Math.round(waitMs / 1000)} s: ` +
          `check that replica's logs, or delete the key ${to}:lease:${LEASE_NAME} if no replica is running`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

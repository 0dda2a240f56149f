/**
 * How long a probe of the store or queue may take: GET /healthz (server.ts) and the readiness gauges
 * of GET /metrics (shared-gauges.ts) give up at the same time, so that they agree on "unreachable".
 */

/** A probe that waits longer than this says "not ready" (Redis unreachable, say). */
export const PROBE_TIMEOUT_MS = 2_000;

/** `work`'s answer, or an error naming `what` when it has not come within `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

import type { Redis } from "ioredis";

/**
 * A sliding-window log: at most `limit` events in any window of `windowMs`. Stricter than a fixed
 * window (which allows 2× the limit across a boundary), so the client stays under the service's
 * limit whichever way the service counts.
 */
export class SlidingWindowLog {
  private readonly stamps: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${windowMs}`);
  }

  /** Milliseconds until one more event fits (0 when it fits now). */
  delayUntilFree(now: number): number {
    this.prune(now);
    if (this.stamps.length < this.limit) return 0;
    const oldest = this.stamps[this.stamps.length - this.limit]!;
    return Math.max(0, oldest + this.windowMs - now);
  }

  record(now: number): void {
    this.stamps.push(now);
  }

  /** Events counted in the window ending at `now`. */
  count(now: number): number {
    this.prune(now);
    return this.stamps.length;
  }

  private prune(now: number): void {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.stamps.length && this.stamps[drop]! <= cutoff) drop++;
    if (drop > 0) this.stamps.splice(0, drop);
  }
}

/** One sliding-window log kept in Redis: a sorted set of event times under `key`. */
export interface RedisWindow {
  key: string;
  points: number;
  durationMs: number;
}

/**
 * Atomic sliding-window take across every process sharing the keys. Uses the server's clock (TIME)
 * so replicas with skewed clocks still agree. Returns 0 when the event was recorded in every
 * window, else the whole milliseconds to wait (nothing recorded).
 * KEYS: the window logs, then the pause keys. ARGV: number of windows, then points and duration
 * (ms) of each window, then a member unique to this event.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local wait = 0
for i = n + 1, #KEYS do
  local p = redis.call('PTTL', KEYS[i])
  if p > wait then wait = p end
end
for i = 1, n do
  local points = tonumber(ARGV[2 * i])
  local ms = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - ms)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= points then
    local oldest = redis.call('ZRANGE', KEYS[i], count - points, count - points, 'WITHSCORES')
    local w = tonumber(oldest[2]) + ms - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return math.ceil(wait) end
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, ARGV[2 * n + 2])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i + 1]))
end
return 0
`;

/** Only ever lengthens a pause: a shorter answer arriving late must not cut a longer one short. */
const EXTEND_PAUSE_SCRIPT = `
local cur = redis.call('PTTL', KEYS[1])
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
`;

/** The subset of an ioredis client the shared windows use. */
export type RedisEval = Pick<Redis, "eval">;

/**
 * Records one event in every window if it fits them all and no pause key is live; else returns
 * how many ms to wait. Durations are rounded up to whole ms (Redis scores are integers).
 */
export async function takeFromRedisWindows(redis: RedisEval, windows: readonly RedisWindow[], pauseKeys: readonly string[], member: string): Promise<number> {
  const args: (string | number)[] = [windows.length];
  for (const window of windows) args.push(window.points, Math.max(1, Math.ceil(window.durationMs)));
  args.push(member);
  const result = await redis.eval(TAKE_SCRIPT, windows.length + pauseKeys.length, ...windows.map((w) => w.key), ...pauseKeys, ...args);
  return Number(result);
}

/** Sets (or lengthens) a pause of `ms` under `key`, on the server's clock. */
export async function extendRedisPause(redis: RedisEval, key: string, ms: number): Promise<void> {
  await redis.eval(EXTEND_PAUSE_SCRIPT, 1, key, Math.max(1, Math.ceil(ms)));
}

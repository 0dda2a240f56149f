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

  /** Milliseconds until fewer than `points` events are in the window (a lower ceiling than the limit). */
  delayUntilBelow(now: number, points: number): number {
    this.prune(now);
    if (this.stamps.length < points) return 0;
    const oldest = this.stamps[this.stamps.length - points]!;
    return Math.max(0, oldest + this.windowMs - now);
  }

  /** Records an event; times may come out of order (a predecessor's, read back at start). */
  record(at: number): void {
    let index = this.stamps.length;
    while (index > 0 && this.stamps[index - 1]! > at) index--;
    this.stamps.splice(index, 0, at);
  }

  /** Removes one event recorded at `at` (an event that did not happen after all); nothing if there is none. */
  forget(at: number): void {
    const index = this.stamps.lastIndexOf(at);
    if (index >= 0) this.stamps.splice(index, 1);
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
 * KEYS: the window logs, then the pause keys, then the hold key if any (a live hold blocks like a
 * pause, but the wait it asks for is capped at pollMs, since its holder usually releases it early;
 * a take sets it to the member for holdMs). ARGV: number of windows, number of pause keys, points
 * and duration (ms) of each window, a member unique to this event, holdMs, pollMs.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local m = tonumber(ARGV[2])
local wait = 0
for i = n + 1, n + m do
  local p = redis.call('PTTL', KEYS[i])
  if p > wait then wait = p end
end
if #KEYS > n + m then
  local h = math.min(redis.call('PTTL', KEYS[#KEYS]), tonumber(ARGV[2 * n + 5]))
  if h > wait then wait = h end
end
for i = 1, n do
  local points = tonumber(ARGV[2 * i + 1])
  local ms = tonumber(ARGV[2 * i + 2])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - ms)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= points then
    local oldest = redis.call('ZRANGE', KEYS[i], count - points, count - points, 'WITHSCORES')
    local w = tonumber(oldest[2]) + ms - now
    if w > wait then wait = w end
  end
end
if wait > 0 then return math.ceil(wait) end
local member = ARGV[2 * n + 3]
for i = 1, n do
  redis.call('ZADD', KEYS[i], now, member)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i + 2]))
end
if #KEYS > n + m then
  redis.call('SET', KEYS[#KEYS], member, 'PX', ARGV[2 * n + 4])
end
return 0
`;

/** Only ever lengthens a pause: a shorter answer arriving late must not cut a longer one short. */
const EXTEND_PAUSE_SCRIPT = `
local cur = redis.call('PTTL', KEYS[1])
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1
`;

/** Turns our own hold (not one another process took after ours expired) into a cooldown. */
const RELEASE_HOLD_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], 'cooldown', 'PX', ARGV[2]) end
return 1
`;

/**
 * The part of a Redis client (ioredis's `Redis`) the shared windows use. Declared here rather than
 * picked from ioredis, an optional peer: the client's published types must compile without it.
 */
export interface RedisEval {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/**
 * While held, no other take on the same hold key succeeds (one event at a time across every
 * process); `releaseRedisHold` ends it. `ms` bounds it if the holder dies; a take that finds it
 * held asks to wait at most `pollMs` before trying again.
 */
export interface RedisHold {
  key: string;
  ms: number;
  pollMs: number;
}

const wholeMs = (ms: number) => Math.max(1, Math.ceil(ms));

/**
 * Records one event in every window if it fits them all and no pause key (nor the hold) is live;
 * else returns how many ms to wait. `member` must be unique to this event; it also names the hold.
 */
export async function takeFromRedisWindows(
  redis: RedisEval,
  windows: readonly RedisWindow[],
  pauseKeys: readonly string[],
  member: string,
  hold?: RedisHold,
): Promise<number> {
  const keys = [...windows.map((w) => w.key), ...pauseKeys, ...(hold ? [hold.key] : [])];
  const args: (string | number)[] = [windows.length, pauseKeys.length];
  for (const window of windows) args.push(window.points, wholeMs(window.durationMs));
  args.push(member, hold ? wholeMs(hold.ms) : 0, hold ? wholeMs(hold.pollMs) : 0);
  const result = await redis.eval(TAKE_SCRIPT, keys.length, ...keys, ...args);
  return Number(result);
}

/** Ends the hold `member` took, leaving a cooldown of `cooldownMs` before the next take. */
export async function releaseRedisHold(redis: RedisEval, hold: RedisHold, member: string, cooldownMs: number): Promise<void> {
  await redis.eval(RELEASE_HOLD_SCRIPT, 1, hold.key, member, wholeMs(cooldownMs));
}

/** Sets (or lengthens) a pause of `ms` under `key`, on the server's clock. */
export async function extendRedisPause(redis: RedisEval, key: string, ms: number): Promise<void> {
  await redis.eval(EXTEND_PAUSE_SCRIPT, 1, key, wholeMs(ms));
}

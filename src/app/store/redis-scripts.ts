/**
 * Lua scripts of the Redis store: each runs atomically on the server, so replicas sharing one Redis
 * never see a task half-moved between indexes. ARGV[1] is always the key prefix; KEYS[1] is the
 * script's main key (it also routes the call, should the prefix carry a Cluster hash tag).
 *
 * Task hashes hold one JSON-encoded value per Task field, plus `threadKey` (raw, lower-cased
 * "owner/repo#number"). A task's indexes follow from three fields — state, runId, threadKey:
 *   P:state:<state>               every task, by id
 *   P:finished                    done and abandoned tasks, by updatedAt (what prune reads)
 *   P:thread:<threadKey>:active   queued/sending/watching/reporting
 *   P:thread:<threadKey>:held     held, run id not known yet
 *   P:thread:<threadKey>:done     done with a run (what a follow-up resumes)
 *   P:run:<runId>                 every task of the run (a handful: one per create or resume)
 */

const PRELUDE = `
local P = ARGV[1]
local ACTIVE = { queued = true, sending = true, watching = true, reporting = true }

local function taskKey(id) return P .. ':task:' .. id end

-- runId stays the raw JSON text: a Lua number would print large ids in exponent form.
local function placeOf(key)
  local f = redis.call('HMGET', key, 'state', 'runId', 'threadKey')
  local runId = f[2]
  if not runId or runId == 'null' then runId = nil end
  return cjson.decode(f[1]), runId, f[3]
end

local function indexesOf(state, runId, threadKey)
  local keys = { P .. ':state:' .. state }
  local thread = P .. ':thread:' .. threadKey
  if ACTIVE[state] then keys[#keys + 1] = thread .. ':active' end
  if state == 'held' and not runId then keys[#keys + 1] = thread .. ':held' end
  if state == 'done' and runId then keys[#keys + 1] = thread .. ':done' end
  if runId then keys[#keys + 1] = P .. ':run:' .. runId end
  return keys
end

local function isFinished(state) return state == 'done' or state == 'abandoned' end

local function addToIndexes(id, state, runId, threadKey, updatedAt)
  for _, key in ipairs(indexesOf(state, runId, threadKey)) do redis.call('ZADD', key, id, id) end
  if isFinished(state) then redis.call('ZADD', P .. ':finished', updatedAt, id) end
end

local function removeFromIndexes(id, state, runId, threadKey)
  for _, key in ipairs(indexesOf(state, runId, threadKey)) do redis.call('ZREM', key, id) end
  redis.call('ZREM', P .. ':finished', id)
end
`;

/** KEYS: id counter. ARGV: prefix, now, then field/value pairs. Returns the stored hash. */
const INSERT_TASK = `${PRELUDE}
local id = redis.call('INCR', KEYS[1])
local key = taskKey(id)
redis.call('HSET', key, 'id', id, 'createdAt', ARGV[2], 'updatedAt', ARGV[2], unpack(ARGV, 3))
local state, runId, threadKey = placeOf(key)
addToIndexes(id, state, runId, threadKey, ARGV[2])
return redis.call('HGETALL', key)
`;

/**
 * KEYS: the task hash. ARGV: prefix, now, id, then field/value pairs of the patch only, so a
 * concurrent patch of other fields survives. Returns the stored hash, or nil if there is no task.
 */
const UPDATE_TASK = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local id = ARGV[3]
local s0, r0, t0 = placeOf(KEYS[1])
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[2], unpack(ARGV, 4))
local s1, r1, t1 = placeOf(KEYS[1])
if s0 ~= s1 or r0 ~= r1 or t0 ~= t1 then
  removeFromIndexes(id, s0, r0, t0)
  addToIndexes(id, s1, r1, t1, ARGV[2])
elseif isFinished(s1) then
  redis.call('ZADD', P .. ':finished', ARGV[2], id)
end
return redis.call('HGETALL', KEYS[1])
`;

/** KEYS: an index. ARGV: prefix. The newest task in it, or nil. */
const NEWEST_IN_INDEX = `${PRELUDE}
local ids = redis.call('ZREVRANGE', KEYS[1], 0, 0)
if #ids == 0 then return false end
return redis.call('HGETALL', taskKey(ids[1]))
`;

/** KEYS: P:run:<runId>. ARGV: prefix. The newest unfinished task of the run, or nil. */
const ACTIVE_TASK_FOR_RUN = `${PRELUDE}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  local state = cjson.decode(redis.call('HGET', taskKey(id), 'state'))
  if ACTIVE[state] then return redis.call('HGETALL', taskKey(id)) end
end
return false
`;

/** KEYS: P:run:<runId>. ARGV: prefix. The JSON of the newest non-null webUrl among the run's tasks, or nil. */
const LAST_WEB_URL_FOR_RUN = `${PRELUDE}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  local url = redis.call('HGET', taskKey(id), 'webUrl')
  if url and url ~= 'null' then return url end
end
return false
`;

/** KEYS: P:run:<runId>, P:thread:<threadKey>:held. ARGV: prefix. Hashes of the held tasks, oldest first. */
const HELD_FOR = `${PRELUDE}
local ids = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if cjson.decode(redis.call('HGET', taskKey(id), 'state')) == 'held' then ids[#ids + 1] = tonumber(id) end
end
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do ids[#ids + 1] = tonumber(id) end
table.sort(ids)
local tasks = {}
for i, id in ipairs(ids) do tasks[i] = redis.call('HGETALL', taskKey(id)) end
return tasks
`;

/** KEYS: id counter (routing only). ARGV: prefix, limit (> 0, or -1 = all), "oldest" | "newest", states... Hashes in that order. */
const LIST_TASKS = `${PRELUDE}
local limit = tonumber(ARGV[2])
local newest = ARGV[3] == 'newest'
local stop = -1
if limit >= 0 then stop = limit - 1 end
local ids = {}
for i = 4, #ARGV do
  local range = newest and redis.call('ZREVRANGE', P .. ':state:' .. ARGV[i], 0, stop) or redis.call('ZRANGE', P .. ':state:' .. ARGV[i], 0, stop)
  for _, id in ipairs(range) do ids[#ids + 1] = tonumber(id) end
end
if newest then table.sort(ids, function(a, b) return a > b end) else table.sort(ids) end
local tasks = {}
for i, id in ipairs(ids) do
  if limit >= 0 and i > limit then break end
  tasks[i] = redis.call('HGETALL', taskKey(id))
end
return tasks
`;

/**
 * KEYS: P:finished, P:deliveries, P:triggers. ARGV: prefix, cutoff, batch size. Forgets deliveries
 * and trigger keys older than the cutoff, and up to one batch of finished tasks (with every index
 * entry); returns how many tasks it removed, so the caller repeats until a batch comes back short.
 */
const PRUNE = `${PRELUDE}
local before = '(' .. ARGV[2]
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', before)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', before)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', before, 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local key = taskKey(id)
  local state, runId, threadKey = placeOf(key)
  removeFromIndexes(id, state, runId, threadKey)
  redis.call('DEL', key)
end
return #ids
`;

/**
 * KEYS: a sorted set of claims by time. ARGV: now, retention cutoff, member. Trims claims past the
 * retention (so the set stays bounded even if nobody prunes), then claims: 1 if new, 0 if known.
 */
const CLAIM = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2])
return redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[3])
`;

/** KEYS: P:check-shas:<repo>, P:check-attempts:<repo>#<pr>. ARGV: head SHA, PR number. 1 if new. */
const RECORD_CHECK_ATTEMPT = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
return 1
`;

/**
 * KEYS: P:run-branches (before the head repository was part of the key, 0.1), P:run-head-branches.
 * Moves each "owner/repo:branch" field to "owner/repo:owner/repo:branch": a branch a run produced
 * lives in the repository the run worked on. A record already under the new key wins. Returns how
 * many were moved; a second replica starting at the same time finds nothing left to move.
 */
const MIGRATE_RUN_BRANCHES = `
local entries = redis.call('HGETALL', KEYS[1])
local moved = 0
for i = 1, #entries, 2 do
  local field = entries[i]
  local sep = string.find(field, ':', 1, true)
  if sep then
    redis.call('HSETNX', KEYS[2], string.sub(field, 1, sep - 1) .. ':' .. field, entries[i + 1])
    moved = moved + 1
  end
end
redis.call('DEL', KEYS[1])
return moved
`;

/**
 * Sets sweptAt on a task hash only while its state is watching and no final run is handed over (a missing hash is
 * never created): a hand-over's sweptAt dates its final run, which a later "still going" must not make look newer.
 */
const MARK_SWEPT =
  "local f = redis.call('HGET', KEYS[1], 'finalRun') " +
  "if redis.call('HGET', KEYS[1], 'state') == ARGV[1] and (f == false or f == 'null') then redis.call('HSET', KEYS[1], 'sweptAt', ARGV[2]) end return 1";

type Script = (...keysThenArgs: Array<string | number>) => Promise<unknown>;
export interface StoreCommands {
  arbStoreInsertTask: Script;
  arbStoreUpdateTask: Script;
  arbStoreNewestInIndex: Script;
  arbStoreActiveTaskForRun: Script;
  arbStoreLastWebUrlForRun: Script;
  arbStoreHeldFor: Script;
  arbStoreListTasks: Script;
  arbStorePrune: Script;
  arbStoreClaim: Script;
  arbStoreRecordCheckAttempt: Script;
  arbStoreMigrateRunBranches: Script;
  arbStoreMarkSwept: Script;
}

export const SCRIPTS: Record<keyof StoreCommands, { lua: string; numberOfKeys: number }> = {
  arbStoreInsertTask: { lua: INSERT_TASK, numberOfKeys: 1 },
  arbStoreUpdateTask: { lua: UPDATE_TASK, numberOfKeys: 1 },
  arbStoreNewestInIndex: { lua: NEWEST_IN_INDEX, numberOfKeys: 1 },
  arbStoreActiveTaskForRun: { lua: ACTIVE_TASK_FOR_RUN, numberOfKeys: 1 },
  arbStoreLastWebUrlForRun: { lua: LAST_WEB_URL_FOR_RUN, numberOfKeys: 1 },
  arbStoreHeldFor: { lua: HELD_FOR, numberOfKeys: 2 },
  arbStoreListTasks: { lua: LIST_TASKS, numberOfKeys: 1 },
  arbStorePrune: { lua: PRUNE, numberOfKeys: 3 },
  arbStoreClaim: { lua: CLAIM, numberOfKeys: 1 },
  arbStoreRecordCheckAttempt: { lua: RECORD_CHECK_ATTEMPT, numberOfKeys: 2 },
  arbStoreMigrateRunBranches: { lua: MIGRATE_RUN_BRANCHES, numberOfKeys: 2 },
  arbStoreMarkSwept: { lua: MARK_SWEPT, numberOfKeys: 1 },
};

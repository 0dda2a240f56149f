/**
 * How a Task is laid out in a Redis hash: one JSON-encoded value per field (so null, numbers and objects read back as
 * they were), plus the raw thread key the indexes are built from; and the keys of branches and check attempts.
 */
import { EMPTY_PROGRESS, threadKey } from "./task-keys.js";
import type { HeadBranchKey, Task, TaskPatch, TaskState, TraceProgress } from "./types.js";

export const TASK_STATES: readonly TaskState[] = ["held", "queued", "sending", "watching", "reporting", "done", "abandoned"];

/** Task fields a patch may set (id, createdAt and updatedAt are the store's own); `satisfies` keeps it complete. */
const PATCHABLE_FIELDS = {
  kind: true,
  state: true,
  sourceType: true,
  thread: true,
  runId: true,
  orgId: true,
  trackingCommentId: true,
  reaction: true,
  request: true,
  requestedBy: true,
  startedAt: true,
  lastStatus: true,
  webUrl: true,
  progress: true,
  finalRun: true,
  watchTimedOut: true,
  acknowledgedAt: true,
  sentAt: true,
  receivedAt: true,
  traceparent: true,
  nextPollAt: true,
  pollIntervalMs: true,
  sweptAt: true,
  lastEditAt: true,
  deadlineAt: true,
  error: true,
  interrupt: true,
  delivered: true,
  interruptsRefused: true,
} as const satisfies Record<keyof TaskPatch, true>;
const PATCHABLE = new Set(Object.keys(PATCHABLE_FIELDS) as Array<keyof TaskPatch>);

export function repoKey(owner: string, repo: string): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}`;
}

/** ':' cannot appear in a repository name or a git ref name, so it separates the parts. */
export function headBranchField(owner: string, repo: string, head: HeadBranchKey): string {
  return `${repoKey(owner, repo)}:${head.repoFullName.toLowerCase()}:${head.branch}`;
}

export function assertState(state: unknown): void {
  if (!TASK_STATES.includes(state as TaskState))
    throw new Error(`unknown task state ${JSON.stringify(state)}: use one of ${TASK_STATES.join(", ")}`);
}

/** Field/value pairs for HSET: every value JSON-encoded, so null, numbers and objects read back as they were. */
export function encodeFields(fields: Partial<Task>): string[] {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || !PATCHABLE.has(name as keyof TaskPatch)) continue;
    if (name === "state") assertState(value);
    pairs.push(name, JSON.stringify(value));
  }
  if (fields.thread) pairs.push("threadKey", threadKey(fields.thread));
  return pairs;
}

/** Every field a stored task hash has (insert writes them all). */
const TASK_FIELDS: ReadonlyArray<keyof Task> = ["id", "createdAt", "updatedAt", ...PATCHABLE];
/** Fields added after tasks were first stored in Redis, with the value a task stored before them has (JSON). */
const FIELDS_ADDED_LATER: Partial<Record<keyof Task, string>> = {
  sweptAt: "null",
  traceparent: "null",
  interrupt: "null",
  delivered: "[]",
  interruptsRefused: "false",
};

/** HGETALL as a flat [field, value, …] list (what a script returns). */
export function decodeTask(flat: unknown): Task | null {
  if (!Array.isArray(flat) || flat.length === 0) return null;
  const raw = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) raw.set(String(flat[i]), String(flat[i + 1]));
  const task: Record<string, unknown> = {};
  for (const name of TASK_FIELDS) {
    const value = raw.get(name) ?? FIELDS_ADDED_LATER[name];
    if (value === undefined)
      throw new Error(`stored task ${raw.get("id")} has no "${name}" field: its Redis hash was changed outside the store`);
    task[name] = JSON.parse(value);
  }
  task.progress = { ...EMPTY_PROGRESS, ...(task.progress as Partial<TraceProgress>) };
  return task as unknown as Task;
}

export function decodeTasks(list: unknown): Task[] {
  return (Array.isArray(list) ? list : []).map(decodeTask).filter((t): t is Task => t !== null);
}

/**
 * What every part of the engine shares: its collaborators, its settings, the shutdown signal, the
 * outcomes a step ends with, and moving a task on under its thread's lock.
 */
import type { AgentRunClient } from "../../service/client.js";
import type { ThreadLocks } from "../locks.js";
import type { EngineObserver } from "../ops/metrics.js";
import type { JobOutcome, WorkQueue } from "../queue/types.js";
import type { BridgeStore, Task, TaskPatch, ThreadId } from "../store/types.js";
import type { ThreadWriter } from "../thread-writer.js";
import type { EngineLogger, EngineSettings } from "./options.js";

export interface EngineContext {
  readonly store: BridgeStore;
  readonly client: AgentRunClient;
  readonly writer: ThreadWriter;
  readonly queue: WorkQueue;
  readonly locks: ThreadLocks;
  readonly log: EngineLogger;
  readonly observer: EngineObserver;
  readonly settings: EngineSettings;
  readonly now: () => number;
  /** Aborted when the engine stops: waits for rate budget and calls in flight end early. */
  readonly signal: AbortSignal;
}

export const DONE: JobOutcome = { kind: "done" };
/** Shutting down mid-step: the job stays queued, so the next process (or another replica) takes the step again. */
export const TAKE_AGAIN: JobOutcome = { kind: "later", delayMs: 0 };

/** The lock every decision about one conversation takes (see locks.ts). */
export function threadLockKey(thread: ThreadId): string {
  return `thread:${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}#${thread.issueNumber}`;
}

/** Runs `section` under the thread's lock; a lock that stays busy fails the step, which the queue retries. */
export async function underThreadLock<T>(context: EngineContext, thread: ThreadId, section: () => Promise<T>): Promise<T> {
  const held = await context.locks.withLock(threadLockKey(thread), section);
  if (held === null) throw new Error(`the lock of ${threadLockKey(thread)} stayed busy; the step is retried`);
  return held.value;
}

/**
 * Moves a task on only if it is still in one of `from`, under the thread's lock: `/agent stop`
 * ends tasks under the same lock, so a run finishing at that moment never overwrites "stopped".
 */
export function transition(context: EngineContext, task: Task, from: Task["state"][], patch: TaskPatch): Promise<Task | null> {
  return underThreadLock(context, task.thread, async () => {
    const current = await context.store.getTask(task.id);
    if (!current || !from.includes(current.state)) return null;
    return context.store.updateTask(task.id, patch);
  });
}

import type { ThreadId, TraceProgress } from "./types.js";

/**
 * One key per conversation, the same in both backends (SQLite's thread_key column, Redis' thread indexes): lookups
 * ignore the case of owner and repo, as GitHub does, and never read other threads' tasks.
 */
export function threadKey(thread: ThreadId): string {
  return `${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}#${thread.issueNumber}`;
}

/** A task's progress before its first log page is read. */
export const EMPTY_PROGRESS: TraceProgress = { logsSeen: 0, currentStep: null, errors: [], lastSteps: [], finalAnswer: null };

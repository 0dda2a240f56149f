import { createComment, updateComment } from "../github/comments.js";
import type { GitHubClient } from "../github/client.js";
import { GitHubNotFoundError } from "../github/errors.js";
import type { ScheduleOptions, WriteOutcome, WritePacer, WritePriority } from "../github/pacing.js";
import { addReaction } from "../github/reactions.js";
import type { ReactionTarget, ThreadRef } from "./store/types.js";

export type ReactionContent = "eyes" | "rocket" | "confused";

/**
 * The engine's only way to write to GitHub, so that it never sees an octokit or a Probot context
 * and can be driven by anything that writes comments (the App's installation clients, a test fake).
 */
export interface ThreadWriter {
  createComment(thread: ThreadRef, body: string): Promise<number>;
  /** "missing" when the comment no longer exists (deleted by someone): the caller posts a new one. */
  updateComment(thread: ThreadRef, commentId: number, body: string): Promise<"ok" | "missing">;
  react(thread: ThreadRef, target: ReactionTarget, content: ReactionContent): Promise<void>;
}

/** A ThreadWriter over installation-scoped octokits (`probot.auth(installationId)` in the App). */
export function createOctokitThreadWriter(octokitFor: (installationId: number | null) => Promise<GitHubClient>): ThreadWriter {
  const repoOf = (thread: ThreadRef) => ({ owner: thread.owner, repo: thread.repo });
  return {
    async createComment(thread, body) {
      const comment = await createComment(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber, body);
      return comment.id;
    },
    async updateComment(thread, commentId, body) {
      try {
        await updateComment(await octokitFor(thread.installationId), repoOf(thread), commentId, body);
        return "ok";
      } catch (error) {
        if (error instanceof GitHubNotFoundError) return "missing";
        throw error;
      }
    },
    async react(thread, target, content) {
      if (!canReactTo(target)) return;
      await addReaction(await octokitFor(thread.installationId), repoOf(thread), { kind: target.kind, id: target.id }, content);
    },
  };
}

/** GitHub has no reactions on reviews themselves: reacting to one writes nothing (and needs no pacing). */
export function canReactTo(target: ReactionTarget): target is ReactionTarget & { kind: Exclude<ReactionTarget["kind"], "review"> } {
  return target.kind !== "review";
}

/** Acknowledgements and results: never dropped, so they resolve with the write's own value. */
export interface SureWriteOptions {
  priority: Exclude<WritePriority, "progress">;
  /** Drops queued progress writes with this key (see `ScheduleOptions.supersedeKey`). */
  supersedeKey?: string;
}

export interface PacedWriteOptions extends ScheduleOptions {
  priority: WritePriority;
}

/**
 * A ThreadWriter whose every write waits its turn in the installation's lane of a WritePacer.
 * Acknowledgements and results resolve with the write's value; any write given `PacedWriteOptions`
 * (progress edits) resolves with a WriteOutcome, since it may be dropped.
 */
export interface PacedThreadWriter {
  createComment(thread: ThreadRef, body: string, options: SureWriteOptions): Promise<number>;
  createComment(thread: ThreadRef, body: string, options: PacedWriteOptions): Promise<WriteOutcome<number>>;
  /** The supersede key defaults to the comment's own (`commentSupersedeKey`): a later edit of it makes a queued progress edit pointless. */
  updateComment(thread: ThreadRef, commentId: number, body: string, options: SureWriteOptions): Promise<"ok" | "missing">;
  updateComment(thread: ThreadRef, commentId: number, body: string, options: PacedWriteOptions): Promise<WriteOutcome<"ok" | "missing">>;
  react(thread: ThreadRef, target: ReactionTarget, content: ReactionContent, options: SureWriteOptions): Promise<void>;
  react(thread: ThreadRef, target: ReactionTarget, content: ReactionContent, options: PacedWriteOptions): Promise<WriteOutcome<void>>;
}

/** The key under which edits of one comment supersede each other. */
export function commentSupersedeKey(thread: ThreadRef, commentId: number): string {
  return `comment:${thread.owner}/${thread.repo}:${commentId}`;
}

function isSure(options: PacedWriteOptions | SureWriteOptions): options is SureWriteOptions {
  return options.priority !== "progress";
}

/** Wraps `inner` (e.g. createOctokitThreadWriter) so that every write goes through `pacer`. */
export function createPacedThreadWriter(inner: ThreadWriter, pacer: WritePacer): PacedThreadWriter {
  async function paced<T>(thread: ThreadRef, options: PacedWriteOptions | SureWriteOptions, write: () => Promise<T>): Promise<T | WriteOutcome<T>> {
    const outcome = await pacer.schedule(thread.installationId, options.priority, write, options);
    if (!isSure(options)) return outcome;
    // The pacer never drops acknowledgements or results; a drop here would be a pacer bug, said plainly.
    if (outcome.kind !== "written") throw new Error(`The write pacer dropped a ${options.priority} write (${outcome.reason}); only progress writes may be dropped.`);
    return outcome.value;
  }

  const writer = {
    createComment(thread: ThreadRef, body: string, options: PacedWriteOptions | SureWriteOptions) {
      return paced(thread, options, () => inner.createComment(thread, body));
    },
    updateComment(thread: ThreadRef, commentId: number, body: string, options: PacedWriteOptions | SureWriteOptions) {
      const withKey = { ...options, supersedeKey: options.supersedeKey ?? commentSupersedeKey(thread, commentId) };
      return paced(thread, withKey, () => inner.updateComment(thread, commentId, body));
    },
    async react(thread: ThreadRef, target: ReactionTarget, content: ReactionContent, options: PacedWriteOptions | SureWriteOptions) {
      if (!canReactTo(target)) return isSure(options) ? undefined : { kind: "written", value: undefined };
      return paced(thread, options, () => inner.react(thread, target, content));
    },
  };
  return writer as PacedThreadWriter;
}

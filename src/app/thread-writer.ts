import { findMarkerForRequest } from "../core/markers.js";
import { asMarkerComments } from "../flows/facts.js";
import type { GitHubClient } from "../github/client.js";
import { createComment, listIssueComments, updateComment } from "../github/comments.js";
import { GitHubNotFoundError } from "../github/errors.js";
import { addReaction } from "../github/reactions.js";
import type { ReactionTarget, ThreadRef } from "./store/types.js";

export type ReactionContent = "eyes" | "rocket" | "confused";

/**
 * What a person is waiting for decides which write goes first when an installation's writes queue up:
 * the acknowledgement (👀, the tracking comment, a refusal), then results, then progress edits (which
 * may be dropped once stale or superseded by a newer write to the same comment).
 */
export type WritePriority = "acknowledge" | "result" | "progress";

export interface WriteOptions {
  priority: WritePriority;
  /** Writes to one comment share a key: a queued progress edit is dropped once a later write is scheduled. */
  supersedeKey?: string;
  /** A progress edit not started within this long is dropped (never an acknowledgement or a result). */
  maxWaitMs?: number;
}

/**
 * The App's only way to write to GitHub, so that the engine and the delivery worker never see an
 * octokit or a Probot context, and so that every write can be paced per installation.
 */
export interface ThreadWriter {
  createComment(thread: ThreadRef, body: string, options: WriteOptions): Promise<number>;
  /** "missing" when the comment no longer exists (deleted by someone): the caller posts a new one. "dropped": a stale progress edit. */
  updateComment(thread: ThreadRef, commentId: number, body: string, options: WriteOptions): Promise<"ok" | "missing" | "dropped">;
  react(thread: ThreadRef, target: ReactionTarget, content: ReactionContent, options: WriteOptions): Promise<void>;
  /** A read: the bot's own comment in the thread whose marker carries `requestId` (what a step cut off by a crash may have posted). */
  findOwnComment(thread: ThreadRef, requestId: string): Promise<number | null>;
}

/** How many recent comments are searched for a comment posted by a step that was cut off. */
const OWN_COMMENT_SCAN = 100;

/** A ThreadWriter over installation-scoped octokits (`probot.auth(installationId)` in the App); unpaced. */
export function createOctokitThreadWriter(octokitFor: (installationId: number | null) => Promise<GitHubClient>, self: { botLogins: string[] }): ThreadWriter {
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
      // GitHub has no reactions on reviews themselves.
      const kind = target.kind;
      if (kind === "review") return;
      await addReaction(await octokitFor(thread.installationId), repoOf(thread), { kind, id: target.id }, content);
    },
    async findOwnComment(thread, requestId) {
      const { comments } = await listIssueComments(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber, { limit: OWN_COMMENT_SCAN });
      return findMarkerForRequest(asMarkerComments(comments), requestId, self)?.commentId ?? null;
    },
  };
}

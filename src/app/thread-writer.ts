import { createComment, updateComment } from "../github/comments.js";
import type { GitHubClient } from "../github/client.js";
import { GitHubNotFoundError } from "../github/errors.js";
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
      // GitHub has no reactions on reviews themselves.
      const kind = target.kind;
      if (kind === "review") return;
      await addReaction(await octokitFor(thread.installationId), repoOf(thread), { kind, id: target.id }, content);
    },
  };
}

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

/** What the writer needs from an octokit: `request`, which Probot's and @actions/github's both have. */
export interface RequestOctokit {
  request(route: string, parameters?: Record<string, unknown>): Promise<{ status: number; data: unknown }>;
}

const REACTION_ROUTES: Record<ReactionTarget["kind"], string | null> = {
  issue_comment: "POST /repos/{owner}/{repo}/issues/comments/{id}/reactions",
  review_comment: "POST /repos/{owner}/{repo}/pulls/comments/{id}/reactions",
  issue: "POST /repos/{owner}/{repo}/issues/{id}/reactions",
  // GitHub has no reactions on reviews themselves.
  review: null,
};

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** A ThreadWriter over installation-scoped octokits (`probot.auth(installationId)` in the App). */
export function createOctokitThreadWriter(octokitFor: (installationId: number | null) => Promise<RequestOctokit>): ThreadWriter {
  return {
    async createComment(thread, body) {
      const octokit = await octokitFor(thread.installationId);
      const { data } = await octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        owner: thread.owner,
        repo: thread.repo,
        issue_number: thread.issueNumber,
        body,
      });
      return (data as { id: number }).id;
    },
    async updateComment(thread, commentId, body) {
      const octokit = await octokitFor(thread.installationId);
      try {
        await octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", {
          owner: thread.owner,
          repo: thread.repo,
          comment_id: commentId,
          body,
        });
        return "ok";
      } catch (error) {
        if (statusOf(error) === 404) return "missing";
        throw error;
      }
    },
    async react(thread, target, content) {
      const route = REACTION_ROUTES[target.kind];
      if (!route) return;
      const octokit = await octokitFor(thread.installationId);
      await octokit.request(route, { owner: thread.owner, repo: thread.repo, id: target.id, content });
    },
  };
}

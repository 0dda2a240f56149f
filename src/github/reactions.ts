/** Reactions on comments and issues: the bot's quick "seen it" (eyes) and "done" (rocket) signals. */
import type { GitHubClient, RepoRef } from "./client.js";
import { GitHubInputError, callGitHub } from "./errors.js";

export const REACTION_CONTENTS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

/** What to react to; `id` is the comment id, or the issue/pull request number for `kind: "issue"`. */
export interface ReactionTarget {
  kind: "issue_comment" | "review_comment" | "issue";
  id: number;
}

/**
 * Adds the bot's reaction. Idempotent: GitHub answers 200 with the existing reaction when the bot
 * already reacted that way (then `created` is false), 201 when it is new.
 */
export async function addReaction(
  octokit: GitHubClient,
  repo: RepoRef,
  target: ReactionTarget,
  content: ReactionContent,
): Promise<{ id: number; content: ReactionContent; created: boolean }> {
  if (!REACTION_CONTENTS.includes(content)) {
    throw new GitHubInputError(`Unknown reaction ${JSON.stringify(content)}: use one of ${REACTION_CONTENTS.join(", ")}. Nothing was sent.`);
  }
  const doing = `adding a ${content} reaction to ${target.kind.replace("_", " ")} ${target.id} in ${repo.owner}/${repo.repo}`;
  const response = await callGitHub(doing, () => {
    switch (target.kind) {
      case "issue_comment":
        return octokit.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", { ...repo, comment_id: target.id, content });
      case "review_comment":
        return octokit.request("POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", { ...repo, comment_id: target.id, content });
      case "issue":
        return octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", { ...repo, issue_number: target.id, content });
    }
  });
  return { id: response.data.id, content, created: response.status === 201 };
}

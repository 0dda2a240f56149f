/** Adding a reaction to a comment or an issue (which reaction, when, is core/render/reactions.ts). */
import { REACTION_CONTENTS, type ReactionContent, type ReactionTarget } from "../core/render/reactions.js";
import type { GitHubClient, RepoRef } from "./client.js";
import { GitHubInputError, callGitHub } from "./errors.js";

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
    throw new GitHubInputError(
      `Unknown reaction ${JSON.stringify(content)}: use one of ${REACTION_CONTENTS.join(", ")}. Nothing was sent.`,
    );
  }
  const doing = `adding a ${content} reaction to ${target.kind.replace("_", " ")} ${target.id} in ${repo.owner}/${repo.repo}`;
  const response = await callGitHub(doing, () => {
    switch (target.kind) {
      case "issue_comment":
        return octokit.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
          ...repo,
          comment_id: target.id,
          content,
        });
      case "review_comment":
        return octokit.request("POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions", {
          ...repo,
          comment_id: target.id,
          content,
        });
      case "issue":
        return octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/reactions", { ...repo, issue_number: target.id, content });
    }
  });
  return { id: response.data.id, content, created: response.status === 201 };
}

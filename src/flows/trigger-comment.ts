/**
 * The trigger comment read again right before the job acts: a comment deleted (or edited so that it
 * no longer asks) between the webhook and the job starts nothing. The App's job may wait in a queue
 * and the Action's for a runner, long enough for its author to take the request back.
 */
import type { RepoConfig } from "../config/schema.js";
import type { BridgeSelf } from "../core/actors.js";
import type { RunTrigger } from "../core/detect/triggers.js";
import { grammarOf, triggerCommentState, type TriggerCommentState } from "../core/trigger.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { getComment, getReviewCommentBody } from "../github/comments.js";

/** The state of the comment that holds the trigger (core/trigger.ts); `standing` for a trigger held in no comment. */
export async function readTriggerComment(
  octokit: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
  grammar: { config: Pick<RepoConfig, "trigger_phrase" | "mention">; self: Pick<BridgeSelf, "appSlug"> },
): Promise<TriggerCommentState> {
  let body: string | null;
  if (trigger.flow === "comment") body = (await getComment(octokit, repo, trigger.comment.id))?.body ?? null;
  else if (trigger.flow === "review" && trigger.reviewComment) body = await getReviewCommentBody(octokit, repo, trigger.reviewComment.id);
  else return "standing";
  return triggerCommentState(body === null ? null : { body }, grammarOf(grammar.config, grammar.self));
}

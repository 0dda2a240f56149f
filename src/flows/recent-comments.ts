/**
 * The repository's recent comments, from which a shell without records (the Action) counts the runs
 * its spend limits judge. Only GitHub and the limits' windows are needed to list them, so the
 * Action's head start can send this read before the rest of the Action is loaded.
 */
import { LONGEST_LIMIT_WINDOW_MS } from "../core/limit-windows.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listRepositoryCommentsSince } from "../github/comments.js";

/** Pages of the repository's recent comments read at most (100 each): a lower bound beyond, and said so in the log. */
export const REPOSITORY_COMMENT_PAGES = 10;

export type RecentRepositoryComments = Awaited<ReturnType<typeof listRepositoryCommentsSince>>;

/** The repository's comments of the longest limit window before `now` (at most REPOSITORY_COMMENT_PAGES pages). */
export function listRecentRepositoryComments(octokit: GitHubClient, repo: RepoRef, now: number): Promise<RecentRepositoryComments> {
  return listRepositoryCommentsSince(octokit, repo, new Date(now - LONGEST_LIMIT_WINDOW_MS), { maxPages: REPOSITORY_COMMENT_PAGES });
}

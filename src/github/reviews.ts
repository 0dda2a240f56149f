/**
 * Pull-request reviews as review mode needs them: the reviews already posted (to post once) and creating one
 * review. The files and their patches (to anchor findings) are pulls.ts's listPullRequestFilesWithPatches.
 */
import type { BotIdentity } from "../core/markers/trust.js";
import { findPostedReview, type ListedReview, type ReviewMarker } from "../core/review/marker.js";
import type { ReviewDraft } from "../core/review/render.js";
import { collectPages, type GitHubClient, type RepoRef } from "./client.js";
import { callGitHub, GitHubValidationError } from "./errors.js";

/** A posted review, or GitHub's 422 (a line it could not resolve) with its message. */
export type PostedReview = { kind: "posted"; id: number; htmlUrl: string } | { kind: "rejected"; message: string };

/** The reviews of a pull request (all pages, oldest first). */
async function listPullRequestReviews(octokit: GitHubClient, repo: RepoRef, number: number): Promise<ListedReview[]> {
  const reviews = await collectPages(`listing the reviews of pull request ${repo.owner}/${repo.repo}#${number}`, async (paging) => {
    const response = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
      ...repo,
      pull_number: number,
      ...paging,
    });
    return { items: response.data, link: response.headers.link };
  });
  return reviews.map((review) => ({
    id: Number(review.id),
    authorLogin: review.user?.login ?? null,
    body: review.body ?? null,
    htmlUrl: review.html_url,
  }));
}

/** The bot's own review of a pull request carrying `marker` (core/review/marker.ts decides), or null. */
export async function findOwnPullRequestReview(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
  marker: ReviewMarker,
  self: BotIdentity,
): Promise<{ id: number; htmlUrl: string } | null> {
  const found = findPostedReview(await listPullRequestReviews(octokit, repo, number), marker, self);
  return found ? { id: found.id, htmlUrl: found.htmlUrl } : null;
}

/** Posts one review (always `COMMENT`); a 422 (a line GitHub cannot resolve) is `rejected`, with GitHub's message. */
export async function createPullRequestReview(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
  review: ReviewDraft,
): Promise<PostedReview> {
  try {
    const { data } = await callGitHub(`posting a review on pull request ${repo.owner}/${repo.repo}#${number}`, () =>
      octokit.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
        ...repo,
        pull_number: number,
        commit_id: review.commitId,
        event: review.event,
        body: review.body,
        comments: review.comments,
      }),
    );
    return { kind: "posted", id: Number(data.id), htmlUrl: data.html_url };
  } catch (error) {
    if (error instanceof GitHubValidationError) return { kind: "rejected", message: error.message };
    throw error;
  }
}

/**
 * Pull-request reviews as review mode needs them: the reviews already posted (to post once) and creating one
 * review. The files and their patches (to anchor findings) are pulls.ts's listPullRequestFilesWithPatches.
 */
import type { ListedReview } from "../core/review/marker.js";
import type { ReviewDraft } from "../core/review/render.js";
import { collectPages, type GitHubClient, type RepoRef } from "./client.js";
import { callGitHub } from "./errors.js";

/** The reviews of a pull request (all pages, oldest first). */
export async function listPullRequestReviews(octokit: GitHubClient, repo: RepoRef, number: number): Promise<ListedReview[]> {
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

/** Posts one review (always `COMMENT`); a 422 (a line GitHub cannot resolve) surfaces as GitHubValidationError. */
export async function createPullRequestReview(
  octokit: GitHubClient,
  repo: RepoRef,
  number: number,
  review: ReviewDraft,
): Promise<{ id: number; htmlUrl: string }> {
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
  return { id: Number(data.id), htmlUrl: data.html_url };
}

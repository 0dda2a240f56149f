/**
 * Pull-request reviews as review mode needs them: every page of the pull request's files with their
 * patches (to anchor findings), the reviews already posted (to post once), and creating one review.
 */
import type { PullRequestFile } from "../core/review/anchor.js";
import type { ListedReview } from "../core/review/marker.js";
import type { ReviewDraft } from "../core/review/render.js";
import { collectPages, type GitHubClient, type RepoRef } from "./client.js";
import { callGitHub } from "./errors.js";
import { MAX_PULL_REQUEST_FILES } from "./pulls.js";

/** Every file of the pull request with its patch (all pages, up to GitHub's 3,000 files). */
export async function listPullRequestFilesWithPatches(octokit: GitHubClient, repo: RepoRef, number: number): Promise<PullRequestFile[]> {
  const files = await collectPages(
    `listing the files of pull request ${repo.owner}/${repo.repo}#${number}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/files", {
        ...repo,
        pull_number: number,
        ...paging,
      });
      return { items: response.data, link: response.headers.link };
    },
    MAX_PULL_REQUEST_FILES,
  );
  return files.map((file) => ({ filename: file.filename, patch: file.patch ?? null }));
}

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

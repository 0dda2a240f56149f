/** Pull requests and their review comments. */
import type { PullRequestFile } from "../core/review/anchor.js";
import { collectPages, toActor, type GitHubActor, type GitHubClient, type RepoRef } from "./client.js";
import { GitHubInputError, callGitHub } from "./errors.js";

export interface PullRequest {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  draft: boolean;
  merged: boolean;
  author: GitHubActor;
  /** `repoFullName` is null when the head repository (a fork) was deleted. */
  head: { ref: string; sha: string; repoFullName: string | null; fork: boolean };
  base: { ref: string; sha: string; repoFullName: string };
  /** True when the head lives in another repository (a fork): its branch is not writable with this repo's token. */
  fromFork: boolean;
  htmlUrl: string;
  /** Label names, as written. */
  labels: string[];
}

interface PullData {
  number: number;
  title: string;
  body?: string | null;
  state: string;
  draft?: boolean;
  merged?: boolean;
  merged_at: string | null;
  user: { login: string; type?: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string; fork: boolean } | null };
  base: { ref: string; sha: string; repo: { full_name: string } };
  html_url: string;
  labels?: ReadonlyArray<{ name?: string | null } | string> | null;
}

function toPullRequest(data: PullData): PullRequest {
  const headRepo = data.head.repo;
  return {
    number: data.number,
    title: data.title,
    body: data.body ?? "",
    state: data.state === "closed" ? "closed" : "open",
    draft: data.draft ?? false,
    // The list endpoint has no `merged`, only `merged_at`.
    merged: data.merged ?? data.merged_at !== null,
    author: toActor(data.user),
    head: { ref: data.head.ref, sha: data.head.sha, repoFullName: headRepo?.full_name ?? null, fork: headRepo?.fork ?? false },
    base: { ref: data.base.ref, sha: data.base.sha, repoFullName: data.base.repo.full_name },
    fromFork: headRepo === null || headRepo.full_name.toLowerCase() !== data.base.repo.full_name.toLowerCase(),
    htmlUrl: data.html_url,
    labels: (data.labels ?? []).map((label) => (typeof label === "string" ? label : (label.name ?? ""))).filter((name) => name !== ""),
  };
}

export async function getPullRequest(octokit: GitHubClient, repo: RepoRef, number: number): Promise<PullRequest> {
  const { data } = await callGitHub(`reading pull request ${repo.owner}/${repo.repo}#${number}`, () =>
    octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...repo, pull_number: number }),
  );
  return toPullRequest(data);
}

/** GitHub lists at most 3,000 files of a pull request. */
const MAX_PULL_REQUEST_FILES = 3000;

/** Every file of the pull request with its patch (null for a binary or a patch too large to show), up to GitHub's 3,000. */
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

/** The paths a pull request changes (renamed files by their new path), up to GitHub's 3,000. */
export async function listPullRequestFiles(octokit: GitHubClient, repo: RepoRef, number: number): Promise<string[]> {
  return (await listPullRequestFilesWithPatches(octokit, repo, number)).map((file) => file.filename);
}

/**
 * Pull requests whose head is `branch` (in `headOwner`'s repository, by default the repository's
 * owner), newest first. Open ones by default.
 */
export async function findPullRequestsForBranch(
  octokit: GitHubClient,
  repo: RepoRef,
  branch: string,
  options: { state?: "open" | "closed" | "all"; headOwner?: string; limit?: number } = {},
): Promise<PullRequest[]> {
  if (branch.trim() === "") throw new GitHubInputError("findPullRequestsForBranch needs a branch name. Nothing was sent.");
  const head = `${options.headOwner ?? repo.owner}:${branch}`;
  const pulls = await collectPages(
    `finding pull requests for ${head} in ${repo.owner}/${repo.repo}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/pulls", {
        ...repo,
        head,
        state: options.state ?? "open",
        ...paging,
      });
      return { items: response.data, link: response.headers.link };
    },
    options.limit ?? 100,
  );
  return pulls.map(toPullRequest);
}

export interface ReviewComment {
  id: number;
  reviewId: number | null;
  body: string;
  path: string;
  line: number | null;
  diffHunk: string;
  inReplyToId: number | null;
  author: GitHubActor;
  createdAt: string;
  htmlUrl: string;
}

interface ReviewCommentData {
  id: number | bigint;
  pull_request_review_id: number | bigint | null;
  body: string;
  path: string;
  line?: number | null;
  position?: number | null;
  diff_hunk: string;
  in_reply_to_id?: number | bigint;
  user: { login: string; type?: string } | null;
  created_at: string;
  html_url: string;
}

function toReviewComment(data: ReviewCommentData): ReviewComment {
  return {
    id: Number(data.id),
    reviewId: data.pull_request_review_id === null ? null : Number(data.pull_request_review_id),
    body: data.body,
    path: data.path,
    line: data.line ?? data.position ?? null,
    diffHunk: data.diff_hunk,
    inReplyToId: data.in_reply_to_id === undefined ? null : Number(data.in_reply_to_id),
    author: toActor(data.user),
    createdAt: data.created_at,
    htmlUrl: data.html_url,
  };
}

/** The comments of one review, oldest first (at most `limit`, default 300). */
export async function listReviewComments(
  octokit: GitHubClient,
  repo: RepoRef,
  prNumber: number,
  reviewId: number,
  options: { limit?: number } = {},
): Promise<ReviewComment[]> {
  const comments = await collectPages(
    `listing the comments of review ${reviewId} on ${repo.owner}/${repo.repo}#${prNumber}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments", {
        ...repo,
        pull_number: prNumber,
        review_id: reviewId,
        ...paging,
      });
      return { items: response.data, link: response.headers.link };
    },
    options.limit ?? 300,
  );
  return comments.map(toReviewComment);
}

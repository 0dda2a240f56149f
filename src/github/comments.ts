/** Issue and pull request conversation comments: create, update, read, list the recent ones. */
import { GITHUB_COMMENT_MAX_LENGTH } from "../core/render/fit.js";
import { collectLastItems, collectPagesCapped, toActor, type GitHubActor, type GitHubClient, type RepoRef } from "./client.js";
import { GitHubInputError, callGitHub, isNotFound, toGitHubError } from "./errors.js";

/** How many comments listIssueComments keeps by default (the most recent ones). */
const DEFAULT_COMMENT_LIMIT = 300;

export interface IssueComment {
  id: number;
  body: string;
  author: GitHubActor;
  /** The GitHub App that wrote it, when an App's bot user did. */
  viaApp: { id: number; slug: string } | null;
  authorAssociation: string;
  createdAt: string;
  updatedAt: string;
  htmlUrl: string;
}

/** Recent OpenAPI types allow bigint ids; GitHub's ids still fit a double. */
interface CommentData {
  id: number | bigint;
  body?: string | null;
  user: { login: string; type?: string } | null;
  performed_via_github_app?: { id: number | bigint; slug?: string } | null;
  author_association?: string;
  created_at: string;
  updated_at: string;
  html_url: string;
}

export function toIssueComment(data: CommentData): IssueComment {
  const app = data.performed_via_github_app;
  return {
    id: Number(data.id),
    body: data.body ?? "",
    author: toActor(data.user),
    viaApp: app ? { id: Number(app.id), slug: app.slug ?? "" } : null,
    authorAssociation: data.author_association ?? "NONE",
    createdAt: data.created_at,
    updatedAt: data.updated_at,
    htmlUrl: data.html_url,
  };
}

function checkBody(body: string): void {
  if (body.trim() === "") throw new GitHubInputError("Refusing to post an empty comment: GitHub requires a body. Nothing was sent.");
  // GitHub refuses longer bodies (422).
  if (body.length > GITHUB_COMMENT_MAX_LENGTH) {
    throw new GitHubInputError(
      `Refusing to post a comment of ${body.length} characters: GitHub accepts at most ${GITHUB_COMMENT_MAX_LENGTH}. Shorten it (e.g. link to the full text). Nothing was sent.`,
    );
  }
}

export async function createComment(octokit: GitHubClient, repo: RepoRef, issueNumber: number, body: string): Promise<IssueComment> {
  checkBody(body);
  const { data } = await callGitHub(`creating a comment on ${repo.owner}/${repo.repo}#${issueNumber}`, () =>
    octokit.request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: issueNumber, body }),
  );
  return toIssueComment(data);
}

export async function updateComment(octokit: GitHubClient, repo: RepoRef, commentId: number, body: string): Promise<IssueComment> {
  checkBody(body);
  const { data } = await callGitHub(`updating comment ${commentId} in ${repo.owner}/${repo.repo}`, () =>
    octokit.request("PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...repo, comment_id: commentId, body }),
  );
  return toIssueComment(data);
}

/** The comment, or null when it does not exist (any more). */
export async function getComment(octokit: GitHubClient, repo: RepoRef, commentId: number): Promise<IssueComment | null> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...repo, comment_id: commentId });
    return toIssueComment(data);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw toGitHubError(error, `reading comment ${commentId} in ${repo.owner}/${repo.repo}`);
  }
}

/** The body of an inline review comment as it is now, or null when it does not exist (any more). */
export async function getReviewCommentBody(octokit: GitHubClient, repo: RepoRef, commentId: number): Promise<string | null> {
  try {
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/pulls/comments/{comment_id}", { ...repo, comment_id: commentId });
    return data.body ?? "";
  } catch (error) {
    if (isNotFound(error)) return null;
    throw toGitHubError(error, `reading review comment ${commentId} in ${repo.owner}/${repo.repo}`);
  }
}

/**
 * The most recent `limit` comments of an issue or pull request, oldest first, reading only the
 * pages that hold them; `total` is how many the thread has (so `total - comments.length` older
 * ones were left out).
 */
export async function listIssueComments(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  options: { limit?: number } = {},
): Promise<{ comments: IssueComment[]; total: number }> {
  const limit = options.limit ?? DEFAULT_COMMENT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new GitHubInputError(`limit must be a positive integer, got ${limit}.`);
  const { items, total } = await collectLastItems(
    `listing the comments of ${repo.owner}/${repo.repo}#${issueNumber}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: issueNumber,
        ...paging,
      });
      return { items: response.data, link: response.headers.link };
    },
    limit,
  );
  return { comments: items.map(toIssueComment), total };
}

/**
 * Comments of every issue and pull request of a repository written at or after `since`, oldest
 * first, reading at most `maxPages` pages of 100. GitHub filters on the *update* time, so edited
 * older comments come too: they are dropped here by creation time. `complete` is false when the
 * page cap cut the list short (the caller's count is then a lower bound).
 */
export async function listRepositoryCommentsSince(
  octokit: GitHubClient,
  repo: RepoRef,
  since: Date,
  options: { maxPages?: number } = {},
): Promise<{ comments: IssueComment[]; complete: boolean }> {
  const maxPages = options.maxPages ?? 10;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new GitHubInputError(`maxPages must be a positive integer, got ${maxPages}.`);
  const iso = since.toISOString();
  const { items, complete } = await collectPagesCapped(
    `listing the comments of ${repo.owner}/${repo.repo} since ${iso}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/comments", {
        ...repo,
        since: iso,
        sort: "created",
        direction: "asc",
        ...paging,
      });
      return { items: response.data.map(toIssueComment), link: response.headers.link };
    },
    { maxPages },
  );
  return { comments: items.filter((comment) => Date.parse(comment.createdAt) >= since.getTime()), complete };
}

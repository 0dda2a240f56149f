/**
 * What a prompt needs to know about the issue or pull request a run starts from: title, body,
 * author, and the recent human conversation (bots, including this one, left out).
 */
import { toActor, type GitHubActor, type GitHubClient, type RepoRef } from "./client.js";
import { listIssueComments, type IssueComment } from "./comments.js";
import { callGitHub } from "./errors.js";
import { getPullRequest, type PullRequest } from "./pulls.js";

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  author: GitHubActor;
  labels: string[];
  isPullRequest: boolean;
  htmlUrl: string;
}

export async function getIssue(octokit: GitHubClient, repo: RepoRef, number: number): Promise<Issue> {
  const { data } = await callGitHub(`reading ${repo.owner}/${repo.repo}#${number}`, () =>
    octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", { ...repo, issue_number: number }),
  );
  return {
    number: data.number,
    title: data.title,
    body: data.body ?? "",
    state: data.state === "closed" ? "closed" : "open",
    author: toActor(data.user),
    labels: data.labels.map((label) => (typeof label === "string" ? label : (label.name ?? ""))).filter(Boolean),
    isPullRequest: data.pull_request != null,
    htmlUrl: data.html_url,
  };
}

export interface ThreadContext {
  issue: Issue;
  /** The pull request's branches and fork status, when the thread is a pull request. */
  pullRequest: PullRequest | null;
  /** Recent comments by humans, oldest first, at most `maxComments`. */
  comments: IssueComment[];
  /** Comments of the thread not in `comments` (older ones, bots', excluded ids). */
  omittedComments: number;
}

export interface ThreadContextOptions {
  /** Most recent human comments to keep (default 20). */
  maxComments?: number;
  /** How many of the latest comments to look through (default 300). */
  scanLimit?: number;
  /** Comments to leave out, e.g. the triggering comment that the prompt quotes on its own. */
  excludeCommentIds?: readonly number[];
}

export async function listThreadContext(
  octokit: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  options: ThreadContextOptions = {},
): Promise<ThreadContext> {
  const maxComments = options.maxComments ?? 20;
  const exclude = new Set(options.excludeCommentIds ?? []);
  const issue = await getIssue(octokit, repo, issueNumber);
  const [pullRequest, listed] = await Promise.all([
    issue.isPullRequest ? getPullRequest(octokit, repo, issueNumber) : Promise.resolve(null),
    maxComments > 0
      ? listIssueComments(octokit, repo, issueNumber, { limit: options.scanLimit ?? 300 })
      : Promise.resolve({ comments: [], total: 0 }),
  ]);
  const human = listed.comments.filter((c) => !c.author.isBot && !exclude.has(c.id));
  const comments = maxComments > 0 ? human.slice(-maxComments) : [];
  return { issue, pullRequest, comments, omittedComments: listed.total - comments.length };
}

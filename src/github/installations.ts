/**
 * Where an App's threads are, for a sweep that reads them all without a store to start from: the
 * App's installations (`GET /app/installations`, the App's JWT), each installation's repositories
 * (`GET /installation/repositories`, its installation token), and a repository's comments updated
 * since a time, most recently updated first (`GET /repos/{owner}/{repo}/issues/comments`). Every
 * request is counted against a `RequestAllowance`, so a caller bounds what one sweep costs.
 */
import { collectPagesCapped, type GitHubClient, type Listing, type RepoRef } from "./client.js";
import { toIssueComment, type IssueComment } from "./comments.js";

/** How many more GitHub requests a sweep may make; each read takes one before it is sent. */
export interface RequestAllowance {
  left: number;
}

/** A page read when the allowance has room for it; false (nothing sent) when it has none left. */
function take(allowance: RequestAllowance): boolean {
  if (allowance.left <= 0) return false;
  allowance.left -= 1;
  return true;
}

export interface InstallationRef {
  id: number;
  account: string;
}

/** Every installation of the App (with the App's JWT). */
export function listAppInstallations(appOctokit: GitHubClient, allowance: RequestAllowance): Promise<Listing<InstallationRef>> {
  return collectPagesCapped(
    "listing the App's installations",
    async (paging) => {
      const response = await appOctokit.request("GET /app/installations", { ...paging });
      const items = response.data.map((installation) => {
        const account = installation.account as { login?: string; slug?: string } | null;
        return { id: installation.id, account: account?.login ?? account?.slug ?? "" };
      });
      return { items, link: response.headers.link };
    },
    { mayRead: () => take(allowance) },
  );
}

/** Every repository an installation covers (with that installation's token). */
export function listInstallationRepositories(octokit: GitHubClient, allowance: RequestAllowance): Promise<Listing<RepoRef>> {
  return collectPagesCapped(
    "listing an installation's repositories",
    async (paging) => {
      const response = await octokit.request("GET /installation/repositories", { ...paging });
      const items = response.data.repositories.map((repository) => ({ owner: repository.owner.login, repo: repository.name }));
      return { items, link: response.headers.link };
    },
    { mayRead: () => take(allowance) },
  );
}

/** A comment of a repository-wide listing, with the issue or pull request it is in. */
export interface ThreadComment extends IssueComment {
  issueNumber: number;
}

/** `…/issues/12` → 12 (a repository-wide listing names each comment's thread only by its `issue_url`). */
function issueNumberOf(issueUrl: string | undefined): number | null {
  const match = issueUrl ? /\/issues\/(\d+)$/.exec(issueUrl) : null;
  return match ? Number(match[1]) : null;
}

/**
 * Comments of every issue and pull request of `repo` updated at or after `since`, most recently
 * updated first, at most `maxPages` pages of 100 and never past the allowance.
 */
export function listCommentsUpdatedSince(
  octokit: GitHubClient,
  repo: RepoRef,
  since: Date,
  options: { maxPages: number; allowance: RequestAllowance },
): Promise<Listing<ThreadComment>> {
  const iso = since.toISOString();
  return collectPagesCapped(
    `listing the comments of ${repo.owner}/${repo.repo} updated since ${iso}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/comments", {
        ...repo,
        since: iso,
        sort: "updated",
        direction: "desc",
        ...paging,
      });
      const items = response.data.flatMap((data) => {
        const issueNumber = issueNumberOf(data.issue_url);
        return issueNumber === null ? [] : [{ ...toIssueComment(data), issueNumber }];
      });
      return { items, link: response.headers.link };
    },
    { maxPages: options.maxPages, mayRead: () => take(options.allowance) },
  );
}

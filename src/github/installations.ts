/**
 * Where an App's threads are, for a sweep that reads them all without a store to start from: the
 * App's installations (`GET /app/installations`, the App's JWT), each installation's repositories
 * (`GET /installation/repositories`, its installation token), and a repository's comments updated
 * since a time, most recently updated first (`GET /repos/{owner}/{repo}/issues/comments`). Every
 * request is counted against a `RequestAllowance`, so a caller bounds what one sweep costs.
 */
import { hasNextPage, MAX_PER_PAGE, type GitHubClient, type RepoRef } from "./client.js";
import { toIssueComment, type IssueComment } from "./comments.js";
import { callGitHub } from "./errors.js";

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

/** A list read in full, or cut short by the allowance (`complete: false`). */
export interface Listing<T> {
  items: T[];
  complete: boolean;
}

/** Every installation of the App (with the App's JWT). */
export function listAppInstallations(appOctokit: GitHubClient, allowance: RequestAllowance): Promise<Listing<InstallationRef>> {
  return callGitHub("listing the App's installations", async () => {
    const items: InstallationRef[] = [];
    for (let page = 1; ; page++) {
      if (!take(allowance)) return { items, complete: false };
      const response = await appOctokit.request("GET /app/installations", { per_page: MAX_PER_PAGE, page });
      for (const installation of response.data) {
        const account = installation.account as { login?: string; slug?: string } | null;
        items.push({ id: installation.id, account: account?.login ?? account?.slug ?? "" });
      }
      if (!hasNextPage(response.headers.link) || response.data.length === 0) return { items, complete: true };
    }
  });
}

/** Every repository an installation covers (with that installation's token). */
export function listInstallationRepositories(octokit: GitHubClient, allowance: RequestAllowance): Promise<Listing<RepoRef>> {
  return callGitHub("listing an installation's repositories", async () => {
    const items: RepoRef[] = [];
    for (let page = 1; ; page++) {
      if (!take(allowance)) return { items, complete: false };
      const response = await octokit.request("GET /installation/repositories", { per_page: MAX_PER_PAGE, page });
      const repositories = response.data.repositories;
      for (const repository of repositories) items.push({ owner: repository.owner.login, repo: repository.name });
      if (!hasNextPage(response.headers.link) || repositories.length === 0) return { items, complete: true };
    }
  });
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
  return callGitHub(`listing the comments of ${repo.owner}/${repo.repo} updated since ${iso}`, async () => {
    const items: ThreadComment[] = [];
    for (let page = 1; page <= options.maxPages; page++) {
      if (!take(options.allowance)) return { items, complete: false };
      const response = await octokit.request("GET /repos/{owner}/{repo}/issues/comments", {
        ...repo,
        since: iso,
        sort: "updated",
        direction: "desc",
        per_page: MAX_PER_PAGE,
        page,
      });
      for (const data of response.data) {
        const issueNumber = issueNumberOf(data.issue_url);
        if (issueNumber !== null) items.push({ ...toIssueComment(data), issueNumber });
      }
      if (!hasNextPage(response.headers.link) || response.data.length === 0) return { items, complete: true };
    }
    return { items, complete: false };
  });
}

/**
 * The one thing every function in src/github needs from an octokit: `request`. Probot's
 * `context.octokit`, `probot.auth(id)` and @actions/github's `getOctokit()` all provide it (they
 * share @octokit/core), so domain code never depends on a Probot context or a plugin set.
 */
import { isBotAccount } from "../core/actors.js";
import type { Octokit } from "@octokit/core";
import { callGitHub } from "./errors.js";

export type GitHubClient = Pick<Octokit, "request">;

/** A repository as the REST paths name it. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** Who wrote something; `isBot` covers GitHub Apps (`type: "Bot"`, logins ending in `[bot]`). */
export interface GitHubActor {
  login: string;
  type: string;
  isBot: boolean;
}

export function toActor(user: { login: string; type?: string } | null | undefined): GitHubActor {
  if (!user) return { login: "ghost", type: "User", isBot: false };
  const type = user.type ?? "User";
  return { login: user.login, type, isBot: isBotAccount({ login: user.login, type }) };
}

/** GitHub's largest page. */
export const MAX_PER_PAGE = 100;

/** The page number of the Link header's rel="last" (undefined on the last page or without pagination). */
function lastPageFromLink(link: string | undefined): number | undefined {
  if (!link) return undefined;
  for (const part of link.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="last"/.exec(part);
    if (!match) continue;
    const page = Number(new URL(match[1]!).searchParams.get("page"));
    return Number.isInteger(page) && page > 0 ? page : undefined;
  }
  return undefined;
}

function hasNextPage(link: string | undefined): boolean {
  return link !== undefined && /rel="next"/.test(link);
}

/** One page's parameters as GitHub's list endpoints name them, for a request to spread last. */
export interface PageParams {
  per_page: number;
  page: number;
}

/** The typed request for one page of a list: its items, and its Link header (are there more pages?). */
export type FetchPage<T> = (paging: PageParams) => Promise<{ items: T[]; link: string | undefined }>;

/**
 * Reads pages 1, 2, … of a list endpoint until a page has no rel="next" or `limit` items were read.
 * `fetchPage` does the typed request; this only drives the page numbers. A failure is rethrown as a
 * GitHubError that says what was being done (`doing`, e.g. "listing the jobs of workflow run 7").
 */
export function collectPages<T>(doing: string, fetchPage: FetchPage<T>, limit: number = Number.POSITIVE_INFINITY): Promise<T[]> {
  return callGitHub(doing, () => readPages(fetchPage, limit));
}

async function readPages<T>(fetchPage: FetchPage<T>, limit: number): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; items.length < limit; page++) {
    const result = await fetchPage({ per_page: MAX_PER_PAGE, page });
    items.push(...result.items);
    if (!hasNextPage(result.link) || result.items.length === 0) break;
  }
  return items.slice(0, limit);
}

/** A list read in full, or cut short by a page cap or a request allowance (`complete: false`). */
export interface Listing<T> {
  items: T[];
  complete: boolean;
}

/**
 * Pages 1, 2, … of a list until a page has no rel="next" or is empty (`complete`), or `maxPages`
 * were read, or `mayRead` (asked before each page: a sweep's request allowance) says no. Failures
 * as collectPages.
 */
export function collectPagesCapped<T>(
  doing: string,
  fetchPage: FetchPage<T>,
  options: { maxPages?: number; mayRead?: () => boolean },
): Promise<Listing<T>> {
  const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY;
  return callGitHub(doing, async () => {
    const items: T[] = [];
    for (let page = 1; page <= maxPages; page++) {
      if (options.mayRead && !options.mayRead()) return { items, complete: false };
      const result = await fetchPage({ per_page: MAX_PER_PAGE, page });
      items.push(...result.items);
      if (!hasNextPage(result.link) || result.items.length === 0) return { items, complete: true };
    }
    return { items, complete: false };
  });
}

/**
 * The last `limit` items of an oldest-first list, reading only the pages that hold them: page 1
 * tells the number of the last page (Link rel="last"), then the tail pages are read. Also returns
 * the exact total, so callers can say how many older items were left out. Failures as collectPages.
 */
export function collectLastItems<T>(doing: string, fetchPage: FetchPage<T>, limit: number): Promise<{ items: T[]; total: number }> {
  return callGitHub(doing, () => readLastItems(fetchPage, limit));
}

async function readLastItems<T>(fetchPage: FetchPage<T>, limit: number): Promise<{ items: T[]; total: number }> {
  const first = await fetchPage({ per_page: MAX_PER_PAGE, page: 1 });
  const lastPage = lastPageFromLink(first.link);
  if (lastPage === undefined || lastPage <= 1) {
    return { items: first.items.slice(-limit), total: first.items.length };
  }
  // The last page may be short, so one extra page guarantees `limit` items.
  const firstTailPage = Math.max(2, lastPage - Math.ceil(limit / MAX_PER_PAGE));
  const tail: T[] = firstTailPage === 2 ? [...first.items] : [];
  let lastPageLength = 0;
  for (let page = firstTailPage; page <= lastPage; page++) {
    const result = await fetchPage({ per_page: MAX_PER_PAGE, page });
    tail.push(...result.items);
    lastPageLength = result.items.length;
  }
  return { items: tail.slice(-limit), total: (lastPage - 1) * MAX_PER_PAGE + lastPageLength };
}

/**
 * The service's `repo_id` of a GitHub repository, for a create without one configured. Real
 * deployments list an organization's repositories (`GET /v1/organizations/{org_id}/repos`, items
 * with `id`, `full_name` and sometimes `github_id`); the list is read once and kept for an hour,
 * so a busy App asks about once an hour per organization, not once per trigger. A deployment
 * without the endpoint, or a repository it does not list, gets no `repo_id`, as before: the
 * organization's default repository applies.
 */
import type { CallOptions, OptionalListing } from "../service/client.js";
import type { ListRepositoriesQuery, RepositoriesPage } from "../service/wire.js";
import { LIST_PAGE_MAX } from "../service/wire.js";
import type { FlowLogger } from "./logger.js";

/** The part of the service client that lists repositories (`AgentRunClient` satisfies it). */
export interface RepositoryLister {
  readonly orgId: number;
  listRepositories(query?: ListRepositoriesQuery, options?: CallOptions): Promise<OptionalListing<RepositoriesPage>>;
}

/** Where a create's `repo_id` came from, or why it has none. */
export type RepositoryIdResolution =
  | { repoId: number; from: "config" | "service" }
  | {
      repoId: null;
      /**
       * `not_listed`: the service's list has no such repository; `no_endpoint`: the service has no
       * list (404/405); `lookup_failed`: listing failed (said in the logs, asked again next time);
       * `no_repository`: the run is not about a repository (an explicit dispatch).
       */
      why: "not_listed" | "no_endpoint" | "lookup_failed" | "no_repository";
    };

const REPOSITORY_ID_CACHE_MS = 60 * 60_000;
/** Pages of 100 read at most per listing: organizations with more repositories configure `repo_id`. */
const MAX_REPOSITORY_PAGES = 20;

interface RepositoryIndex {
  byGithubId: Map<number, number>;
  /** The service's id → the GitHub repository it stands for (as far as the listing says). */
  byServiceId: Map<number, { githubId: number | null; fullName: string | null }>;
  /** Keyed by lower-cased `owner/name`: GitHub names are case-insensitive. */
  byFullName: Map<string, number>;
  /** False when the listing stopped at MAX_REPOSITORY_PAGES. */
  complete: boolean;
}

interface CacheEntry {
  at: number;
  index: Promise<RepositoryIndex | "unsupported">;
}

export interface RepositoryIdDirectoryOptions {
  ttlMs?: number;
  maxPages?: number;
  now?: () => number;
}

/** Remembers each organization's repository list (per client) for `ttlMs`. */
export class RepositoryIdDirectory {
  private readonly entries = new WeakMap<RepositoryLister, CacheEntry>();
  private readonly ttlMs: number;
  private readonly maxPages: number;
  private readonly now: () => number;

  constructor(options: RepositoryIdDirectoryOptions = {}) {
    this.ttlMs = options.ttlMs ?? REPOSITORY_ID_CACHE_MS;
    this.maxPages = options.maxPages ?? MAX_REPOSITORY_PAGES;
    this.now = options.now ?? Date.now;
  }

  /** The repository's id on the service: by `github_id` when the service lists one, else by `full_name`. */
  async lookup(
    lister: RepositoryLister,
    repo: { fullName: string; githubId?: number },
    logger?: FlowLogger,
  ): Promise<RepositoryIdResolution> {
    let index: RepositoryIndex | "unsupported";
    try {
      index = await this.indexFor(lister);
    } catch (error) {
      logger?.warn({ err: error, repository: repo.fullName }, "could not list the service's repositories; the run is sent without repo_id");
      return { repoId: null, why: "lookup_failed" };
    }
    if (index === "unsupported") return { repoId: null, why: "no_endpoint" };
    const found =
      (repo.githubId !== undefined ? index.byGithubId.get(repo.githubId) : undefined) ?? index.byFullName.get(repo.fullName.toLowerCase());
    if (found !== undefined) return { repoId: found, from: "service" };
    if (!index.complete) {
      logger?.warn(
        { repository: repo.fullName, pages: this.maxPages },
        "the service lists more repositories than the bridge reads; set repo_id in the configuration",
      );
    }
    return { repoId: null, why: "not_listed" };
  }

  /**
   * Whether a configured `repo_id` stands for this GitHub repository: `elsewhere` when the service
   * lists that id with another repository's `github_id`; `unknown` when it cannot tell (no listing,
   * a failed one, an id it does not list, or no `github_id` on it), and the id is used as given.
   */
  async checkConfigured(
    lister: RepositoryLister,
    repoId: number,
    repo: { fullName: string; githubId: number },
    logger?: FlowLogger,
  ): Promise<{ verdict: "matches" | "unknown" } | { verdict: "elsewhere"; listedAs: string | null }> {
    let index: RepositoryIndex | "unsupported";
    try {
      index = await this.indexFor(lister);
    } catch (error) {
      logger?.warn(
        { err: error, repository: repo.fullName, repoId },
        "could not list the service's repositories; the configured repo_id is used unchecked",
      );
      return { verdict: "unknown" };
    }
    if (index === "unsupported") return { verdict: "unknown" };
    const listed = index.byServiceId.get(repoId);
    if (!listed || listed.githubId === null) return { verdict: "unknown" };
    return listed.githubId === repo.githubId ? { verdict: "matches" } : { verdict: "elsewhere", listedAs: listed.fullName };
  }

  private indexFor(lister: RepositoryLister): Promise<RepositoryIndex | "unsupported"> {
    const cached = this.entries.get(lister);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.index;
    const index = this.readIndex(lister);
    const entry: CacheEntry = { at: this.now(), index };
    this.entries.set(lister, entry);
    // A failed listing is not remembered: the next trigger asks again.
    index.catch(() => {
      if (this.entries.get(lister) === entry) this.entries.delete(lister);
    });
    return index;
  }

  private async readIndex(lister: RepositoryLister): Promise<RepositoryIndex | "unsupported"> {
    const index: RepositoryIndex = { byGithubId: new Map(), byServiceId: new Map(), byFullName: new Map(), complete: false };
    let skip = 0;
    for (let pages = 0; pages < this.maxPages; pages++) {
      const listing = await lister.listRepositories({ skip, limit: LIST_PAGE_MAX });
      if (listing.kind === "unsupported") return "unsupported";
      const { items, total, size } = listing.page;
      for (const repository of items) {
        if (typeof repository.github_id === "number" && !index.byGithubId.has(repository.github_id))
          index.byGithubId.set(repository.github_id, repository.id);
        index.byServiceId.set(repository.id, {
          githubId: typeof repository.github_id === "number" ? repository.github_id : null,
          fullName: repository.full_name ?? null,
        });
        const fullName = repository.full_name?.toLowerCase();
        if (fullName && !index.byFullName.has(fullName)) index.byFullName.set(fullName, repository.id);
      }
      skip += items.length;
      const ended = typeof total === "number" ? skip >= total : items.length < Math.min(LIST_PAGE_MAX, size ?? LIST_PAGE_MAX);
      if (ended || items.length === 0) {
        index.complete = true;
        return index;
      }
    }
    return index;
  }
}

/** The process's directory: the App and the Action share one cache per client without wiring it through. */
export const sharedRepositoryIds = new RepositoryIdDirectory();

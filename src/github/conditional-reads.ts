/**
 * Conditional reads of repository files (`GET /repos/{owner}/{repo}/contents/{path}`: the
 * configuration loader's `.github/agent-run.yml`, its `.github` fallback and `_extends`) and of
 * repositories (`GET /repos/{owner}/{repo}`: their visibility, asked when a file comes from `.github`):
 * the first answer is kept with its ETag, later reads send `If-None-Match`, and a 304 is answered
 * from the copy. A comment from someone who may not trigger then costs no fresh read of the
 * configuration, and GitHub does not count a 304 against the rate limit. A changed file answers 200
 * and replaces the copy, so an edit on the default branch is seen at the next event.
 */
import type { Octokit } from "@octokit/core";

/** Files remembered per process (least recently used first out): a configuration file and its fallbacks per repository. */
const CONDITIONAL_READ_ENTRIES = 2_000;

const CONDITIONAL_ROUTE = /^\/repos\/[^/]+\/[^/]+(?:$|\/contents(?:\/|$))/;

type CachedResponse = Awaited<ReturnType<Octokit["request"]>>;

interface Entry {
  etag: string;
  response: CachedResponse;
}

/** The remembered answers, shared by every octokit of a process (the App makes one per installation and delivery). */
export class ConditionalReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = CONDITIONAL_READ_ENTRIES) {}

  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Map keeps insertion order: re-inserting marks it as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

const isNotModified = (error: unknown) => (error as { status?: unknown } | null)?.status === 304;

/** Makes `octokit`'s reads of repository files conditional, answered from `cache` when GitHub says 304. */
export function readFilesConditionally(octokit: Pick<Octokit, "hook" | "request">, cache: ConditionalReadCache): void {
  octokit.hook.wrap("request", async (request, options) => {
    const parsed = octokit.request.endpoint.parse(options);
    if (parsed.method !== "GET" || !CONDITIONAL_ROUTE.test(new URL(parsed.url).pathname.replace(/^\/api\/v3/, ""))) return request(options);
    // The URL names the repository, path and ref; the Accept header the format (raw or JSON).
    const key = `${parsed.url} ${String(parsed.headers.accept ?? "")}`;
    const cached = cache.get(key);
    // Set on the options object itself: hooks wrapped earlier (the App's authentication) are handed that object, not a copy.
    if (cached) options.headers = { ...options.headers, "if-none-match": cached.etag };
    try {
      const response = await request(options);
      const etag = response.headers.etag;
      if (typeof etag === "string" && etag !== "") cache.set(key, { etag, response: response as CachedResponse });
      return response;
    } catch (error) {
      if (cached && isNotModified(error)) return cached.response;
      throw error;
    }
  });
}

/**
 * A sweep of the organization's runs list (real deployments; not in the spec): one page shows up
 * to 100 runs' statuses for the price of one run's, so a watcher of P runs learns every status in
 * ⌈P/100⌉ requests instead of P. The list is newest first: the sweep reads pages until it has seen
 * every wanted run, or has gone past the oldest of them (a run not shown by then is read on its own
 * by the caller), or the list ends. Past a bound (`maxPages`) it goes on only while each page shows
 * wanted runs it had not seen: an organization's finished runs push the watched ones across more
 * pages than their number needs, and a page that still shows some is cheaper than their own reads.
 */
import type { AgentRunClient, CallOptions } from "./client.js";
import { parseServiceTimestamp } from "./reconcile.js";
import { LIST_PAGE_MAX, type AgentRun, type SourceType } from "./wire.js";

export interface RunSweepQuery {
  /** The runs wanted, by id. */
  runIds: ReadonlySet<number>;
  /**
   * Epoch ms before which none of the wanted runs was created (the oldest create's send time): once
   * a page reaches older runs, the rest of the list cannot hold a wanted one.
   */
  oldestSentAt: number;
  /** Only runs of this source type (the list's `source_type` filter), when it is known to hold the wanted runs. */
  sourceType?: SourceType;
  /**
   * Pages read before the sweep stops at the first page that shows no wanted run it had not seen (a
   * stretch of other runs, or a deployment that ignores `skip`). Default: enough for every wanted
   * run 3 times over, at least 3.
   */
  maxPages?: number;
  /** How far the service's clock may be behind ours. Default 5 minutes. */
  clockSkewMs?: number;
  signal?: CallOptions["signal"];
  priority?: CallOptions["priority"];
  /**
   * Called with the wanted runs each page showed for the first time in this sweep, before the next
   * page is asked for: a run seen final on page 1 need not wait for the other pages.
   */
  onPage?: (runs: readonly AgentRun[]) => Promise<void> | void;
}

export type RunSweep =
  /**
   * What the pages showed of the wanted runs (runs of other users and sources are skipped);
   * `complete` unless the page limit ended the sweep before it covered the oldest wanted run.
   */
  | { kind: "swept"; seen: Map<number, AgentRun>; pagesRead: number; complete: boolean }
  /** The deployment has no runs list (404/405, remembered by the client). */
  | { kind: "unsupported" };

const DEFAULT_SKEW_MS = 5 * 60_000;

export async function sweepRuns(client: AgentRunClient, query: RunSweepQuery): Promise<RunSweep> {
  const seen = new Map<number, AgentRun>();
  const maxPages = query.maxPages ?? Math.max(3, Math.ceil((query.runIds.size * 3) / LIST_PAGE_MAX));
  const olderThanAll = query.oldestSentAt - (query.clockSkewMs ?? DEFAULT_SKEW_MS);
  const callOptions: CallOptions = { signal: query.signal, priority: query.priority };
  let skip = 0;
  let pagesRead = 0;
  let covered = query.runIds.size === 0;
  let showedNew = true;
  while (!covered && (pagesRead < maxPages || showedNew)) {
    const listing = await client.listRuns({ skip, limit: LIST_PAGE_MAX, source_type: query.sourceType }, callOptions);
    if (listing.kind === "unsupported") return { kind: "unsupported" };
    pagesRead++;
    const { items, total } = listing.page;
    let pastOldest = false;
    const firstSeen: AgentRun[] = [];
    for (const run of items) {
      if (query.runIds.has(run.id)) {
        if (!seen.has(run.id)) firstSeen.push(run);
        seen.set(run.id, run);
      }
      const createdAt = parseServiceTimestamp(run.created_at);
      if (createdAt !== undefined && createdAt < olderThanAll) pastOldest = true;
    }
    showedNew = firstSeen.length > 0;
    if (firstSeen.length > 0) await query.onPage?.(firstSeen);
    skip += items.length;
    const ended = items.length === 0 || (typeof total === "number" && skip >= total);
    covered = pastOldest || ended || seen.size === query.runIds.size;
  }
  return { kind: "swept", seen, pagesRead, complete: covered };
}

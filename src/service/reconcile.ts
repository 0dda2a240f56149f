/**
 * Crash recovery by listing runs: after a restart, a create that was sent but whose answer was
 * never stored may or may not have started a run. Real deployments list an organization's runs
 * newest first (`GET /v1/organizations/{org_id}/agent/runs`), each with its `metadata`, which is
 * enough to find out: the bridge's own delivery id and task id are in the metadata it sent.
 *
 * The search is bounded (runs created since the create was sent, at most a few pages) and says
 * "not found" only when the listing certainly covered that whole window; a caller may then send
 * the create again. Anything short of that is "inconclusive", and a service without the list
 * endpoint is "unsupported": the caller reports honestly that it cannot know.
 */
import type { AgentRunClient, CallOptions } from "./client.js";
import { RequestValidationError } from "./errors.js";
import { BRIDGE_METADATA_KEYS, LIST_PAGE_MAX, type AgentRun } from "./wire.js";

export interface InterruptedRunQuery {
  /** Epoch ms at which the create was sent (or about to be): runs created before it cannot be the one. */
  sentAfter: number;
  /** Metadata the create carried; every key given must match. At least one is required. */
  match: { delivery_id?: string; bridge_task_id?: string | number; status_comment_id?: number };
  /** Pages read at most. Default 3. */
  maxPages?: number;
  /** Runs per page, 1..100. Default 100. */
  pageSize?: number;
  /** How far the service's clock may be behind ours. Default 5 minutes. */
  clockSkewMs?: number;
  signal?: CallOptions["signal"];
  deadline?: CallOptions["deadline"];
  priority?: CallOptions["priority"];
}

export type InterruptedRunSearch =
  /** The run the interrupted create started: adopt it (watch it, post its result once). */
  | { kind: "found"; run: AgentRun; pagesRead: number }
  /** The listing covered every run since `sentAfter` (minus the skew) and none matched: safe to send again. */
  | { kind: "not_found"; pagesRead: number }
  /** The listing could not cover the window (too many runs, or not newest first): whether it started is unknown. */
  | { kind: "inconclusive"; reason: string; pagesRead: number }
  /** The service has no list endpoint (404/405): whether it started is unknown. */
  | { kind: "unsupported" };

export const INTERRUPTED_RUN_DEFAULTS = { maxPages: 3, pageSize: LIST_PAGE_MAX, clockSkewMs: 5 * 60_000 } as const;

/** Newest first allows equal neighbours and, within this much, timestamps of different precision. */
const ORDER_TOLERANCE_MS = 1_000;

/**
 * Looks for the run an interrupted create started. Errors of the listing itself (5xx after
 * retries, the network) are thrown: the caller retries later, as for any other failed step.
 */
export async function findInterruptedRun(client: AgentRunClient, query: InterruptedRunQuery): Promise<InterruptedRunSearch> {
  const wanted = wantedMetadata(query.match);
  if (!Number.isFinite(query.sentAfter))
    throw new RequestValidationError("interrupted run search", ["sentAfter must be an epoch time in milliseconds"]);
  const maxPages = query.maxPages ?? INTERRUPTED_RUN_DEFAULTS.maxPages;
  const pageSize = query.pageSize ?? INTERRUPTED_RUN_DEFAULTS.pageSize;
  const windowStart = query.sentAfter - (query.clockSkewMs ?? INTERRUPTED_RUN_DEFAULTS.clockSkewMs);
  const callOptions: CallOptions = { signal: query.signal, deadline: query.deadline, priority: query.priority };

  let skip = 0;
  let previous: number | undefined;
  for (let pagesRead = 1; pagesRead <= maxPages; pagesRead++) {
    const listing = await client.listRuns({ skip, limit: pageSize }, callOptions);
    if (listing.kind === "unsupported") return { kind: "unsupported" };
    const { items, total, size } = listing.page;
    let reachedWindowStart = false;
    // The whole page is read even past the window's start: its order is the evidence that the runs
    // not read are older still (a list that is oldest first shows itself within one page).
    for (const run of items) {
      if (matches(run, wanted)) return { kind: "found", run, pagesRead };
      const createdAt = parseServiceTimestamp(run.created_at);
      if (createdAt === undefined) continue;
      if (previous !== undefined && createdAt > previous + ORDER_TOLERANCE_MS) {
        return {
          kind: "inconclusive",
          reason: "the service does not list runs newest first, so the listing cannot be bounded by time",
          pagesRead,
        };
      }
      previous = createdAt;
      if (createdAt < windowStart) reachedWindowStart = true;
    }
    if (reachedWindowStart) return { kind: "not_found", pagesRead };
    skip += items.length;
    // The service may serve fewer than asked per page: only `total`, or a short page, ends the list.
    const ended = typeof total === "number" ? skip >= total : items.length === 0 || items.length < Math.min(pageSize, size ?? pageSize);
    if (ended || items.length === 0) return { kind: "not_found", pagesRead };
  }
  return {
    kind: "inconclusive",
    reason: `${maxPages} page(s) of runs did not reach back to when the create was sent`,
    pagesRead: maxPages,
  };
}

function wantedMetadata(match: InterruptedRunQuery["match"]): Array<[string, string]> {
  const wanted: Array<[string, string]> = [];
  if (match.delivery_id !== undefined && String(match.delivery_id) !== "")
    wanted.push([BRIDGE_METADATA_KEYS.deliveryId, String(match.delivery_id)]);
  if (match.bridge_task_id !== undefined && String(match.bridge_task_id) !== "")
    wanted.push([BRIDGE_METADATA_KEYS.bridgeTaskId, String(match.bridge_task_id)]);
  if (match.status_comment_id !== undefined) wanted.push([BRIDGE_METADATA_KEYS.statusCommentId, String(match.status_comment_id)]);
  if (wanted.length === 0) {
    // Matching on nothing would adopt any recent run: refuse rather than guess.
    throw new RequestValidationError("interrupted run search", ["match needs delivery_id or bridge_task_id (or status_comment_id)"]);
  }
  return wanted;
}

/** Metadata values come back as JSON: a task id sent as 12 may be read as "12". */
function matches(run: AgentRun, wanted: ReadonlyArray<[string, string]>): boolean {
  const metadata = run.metadata;
  if (!metadata) return false;
  return wanted.every(([key, value]) => {
    const found = metadata[key];
    return (typeof found === "string" || typeof found === "number") && String(found) === value;
  });
}

/**
 * A service timestamp as epoch ms. Real deployments have sent `created_at` without a time zone
 * (`2025-06-21 11:20:04.338398`): such a value is read as UTC, not as the machine's local time.
 */
export function parseServiceTimestamp(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const text = value.trim().replace(" ", "T");
  // A date alone is UTC already; a date and time without a zone would be local time to Date.parse.
  const zoned = !text.includes("T") || /T.*(?:[zZ]|[+-]\d{2}(?::?\d{2})?)$/.test(text) ? text : `${text}Z`;
  const parsed = Date.parse(zoned);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * The Action's side of the service beyond create and resume: which runs a thread may continue,
 * watching a run to the timeout, and reading its logs for the tracking and result comments.
 */
import type { TraceDigest } from "../core/trace.js";
import type { SafeMarkdown } from "../core/sanitize-output/safe-markdown.js";
import type { RepositoryLister, RunReader } from "../flows/index.js";
import { AgentRunClient, RunStillGoingError, type WaitOptions } from "../service/client.js";
import { DeadlineError, NotFoundError, RateLimitError } from "../service/errors.js";
import { classifyRunStatus, type RunPhase } from "../service/status.js";
import type { AgentRun, LogEntry } from "../service/wire.js";

/**
 * A run reader that only vouches for runs of this repository. Markers are signed and name their
 * thread (core/markers/trust.ts), but other workflows also write as `github-actions[bot]` and might
 * echo a marker from elsewhere: as a second check, a run whose metadata names another repository
 * is treated as no run at all (the `metadata` input cannot set that key). Repositories are listed
 * as the client lists them (for a `repo_id` the configuration does not set).
 */
export function repositoryRunReader(client: AgentRunClient, repositoryFullName: string | null): RunReader & RepositoryLister {
  return {
    orgId: client.orgId,
    listRepositories: (query, options) => client.listRepositories(query, options),
    async getRun(runId: number): Promise<AgentRun> {
      const run = await client.getRun(runId);
      const recorded = run.metadata?.repository;
      if (repositoryFullName && typeof recorded === "string" && recorded.toLowerCase() !== repositoryFullName.toLowerCase()) {
        throw new NotFoundError(`Run ${runId} belongs to ${recorded}, not ${repositoryFullName}: it is not this thread's run.`);
      }
      return run;
    },
  };
}

/** The poll schedule: short at first (runs that fail fast), growing to a cap (many jobs share one token), jittered by the client. */
export interface PollSchedule {
  initial: number;
  max: number;
  factor: number;
}

export const DEFAULT_POLL: PollSchedule = { initial: 5_000, max: 60_000, factor: 1.5 };

/**
 * `AGENT_RUN_POLL_INTERVAL` (seconds, as for the CLI) sets the first interval; the cap keeps the
 * default's ratio. Unset or invalid: the default.
 */
export function pollScheduleFrom(seconds: string | undefined): PollSchedule {
  const value = Number(seconds);
  if (!seconds || !Number.isFinite(value) || value <= 0) return DEFAULT_POLL;
  const initial = Math.max(1, Math.round(value * 1000));
  return { initial, max: initial * (DEFAULT_POLL.max / DEFAULT_POLL.initial), factor: DEFAULT_POLL.factor };
}

export type WatchResult = { timedOut: false; run: AgentRun; phase: RunPhase } | { timedOut: true; run: AgentRun; phase: RunPhase };

/**
 * Polls until the run is final or the deadline passes. A 429 waits (within the deadline) and
 * polling goes on; one that would outlast the deadline ends the watch like the deadline does,
 * with the last state seen: the service pacing many jobs never fails a step by itself.
 */
export async function watchRun(
  client: AgentRunClient,
  started: AgentRun,
  options: { deadline: number; poll: PollSchedule; onUpdate?: WaitOptions["onUpdate"]; signal?: AbortSignal },
): Promise<WatchResult> {
  let last = started;
  try {
    const run = await client.waitForRun(started.id, {
      deadline: options.deadline,
      intervalMs: options.poll,
      // Aborted (a stop seen in the thread): ends like the deadline, with the last state seen.
      ...(options.signal ? { signal: options.signal } : {}),
      onUpdate: (run, phase) => {
        last = run;
        options.onUpdate?.(run, phase);
      },
    });
    return { timedOut: false, run, phase: classifyRunStatus(run.status) };
  } catch (error) {
    if (error instanceof RunStillGoingError) return { timedOut: true, run: error.lastRun, phase: classifyRunStatus(error.lastRun.status) };
    if (error instanceof RateLimitError || error instanceof DeadlineError)
      return { timedOut: true, run: last, phase: classifyRunStatus(last.status) };
    throw error;
  }
}

/** Pages read for a result's trace digest: enough for long runs, bounded for the shared rate budget. */
const MAX_TRACE_PAGES = 20;
const TRACE_PAGE = 100;

/** The run's log digest for the result comment, or null when the (ALPHA) logs cannot be read. */
export async function readTraceDigest(
  client: AgentRunClient,
  runId: number,
  options: { deadline: number; triggerPhrase: string },
): Promise<TraceDigest | null> {
  const entries: LogEntry[] = [];
  try {
    // The newest entries matter most (errors, final answer): read the tail when the log is long.
    const first = await client.listLogs(runId, { skip: 0, limit: TRACE_PAGE }, { deadline: options.deadline });
    const total = first.total_logs ?? first.logs.length;
    const maxEntries = MAX_TRACE_PAGES * TRACE_PAGE;
    if (total <= TRACE_PAGE || first.logs.length < TRACE_PAGE) {
      entries.push(...first.logs);
    } else {
      const skip = Math.max(TRACE_PAGE, total - (maxEntries - TRACE_PAGE));
      entries.push(...first.logs);
      // Bounded here, not by the totals the (ALPHA) endpoint reports: a log that keeps growing, or a
      // service that stops saying how long it is, must not keep the step reading.
      for await (const entry of client.iterateLogs(runId, { skip, pageSize: TRACE_PAGE, deadline: options.deadline })) {
        entries.push(entry);
        if (entries.length >= maxEntries) break;
      }
    }
  } catch {
    return null;
  }
  const { digestTrace } = await import("./step-end.js");
  return digestTrace(entries, { maxSteps: 8, triggerPhrase: options.triggerPhrase });
}

/** What the agent is doing now (the last entries of the log), or null when the logs say nothing or cannot be read. */
export async function readCurrentStep(
  client: AgentRunClient,
  runId: number,
  options: { deadline: number; triggerPhrase: string },
): Promise<SafeMarkdown | null> {
  // Outside the try: a chunk that cannot load is a broken install, not a log the service could not give.
  const { describeCurrentStep } = await import("./step-end.js");
  try {
    const head = await client.listLogs(runId, { skip: 0, limit: 1 }, { deadline: options.deadline });
    const total = head.total_logs ?? 0;
    if (total <= 1) return describeCurrentStep(head.logs, { triggerPhrase: options.triggerPhrase });
    const tail = await client.listLogs(runId, { skip: Math.max(0, total - 10), limit: 10 }, { deadline: options.deadline });
    return describeCurrentStep(tail.logs, { triggerPhrase: options.triggerPhrase });
  } catch {
    return null;
  }
}

/**
 * RunEngine's options, their defaults, and the settings they come to once scaled: the intervals
 * every part of the engine reads (polling, progress edits, the courtesy's wait, the watch deadline).
 */
import type { AgentRunClient } from "../../service/client.js";
import { SOURCE, type SourceType } from "../../service/wire.js";
import type { EngineObserver } from "../ops/metrics.js";
import type { WorkQueue } from "../queue/types.js";
import type { BridgeStore } from "../store/types.js";
import type { ImageHosts } from "../../core/sanitize-output/image-hosts.js";
import type { Leases } from "../lease.js";
import type { ThreadLocks } from "../locks.js";
import type { ThreadWriter } from "../thread-writer.js";

export interface EngineLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunEngineOptions {
  store: BridgeStore;
  client: AgentRunClient;
  /** Every GitHub write, paced per installation by priority. */
  writer: ThreadWriter;
  queue: WorkQueue;
  locks: ThreadLocks;
  logger?: EngineLogger;
  /** Scales poll and edit intervals (1 = real time); the emulator's and the budget's factor. */
  timeScale?: number;
  /** Per-run poll interval: starts short, grows to a cap (ms, before scaling). */
  pollIntervalMs?: { initial?: number; max?: number; factor?: number };
  /**
   * Share of the token's shared read budget that polling may use: `busy` while creates or resumes
   * wait (leaving them room), `idle` otherwise. With many runs in flight each is polled less often.
   */
  pollBudgetShare?: { busy?: number; idle?: number };
  /** Minimum time between two progress edits of one tracking comment (ms, before scaling). */
  progressEditIntervalMs?: number;
  /** Progress edits across all threads per minute, per process (results and acknowledgements are never skipped). */
  progressEditsPerMinute?: number;
  /** A run still going after this long is reported as such and no longer watched (ms, real time). */
  watchTimeoutMs?: number;
  /**
   * Learn statuses from sweeps of the organization's runs list where the service has it (detected):
   * default on. Off, or on a service without the list, every run is read on its own.
   */
  sweepRunsList?: boolean;
  /** Who may sweep: with replicas, one at a time (the backend's leases). Default: this process always. */
  leases?: Leases;
  /**
   * The list's `source_type` filter that selects the bridge's runs (a run created through the API
   * is listed as API). Null: no filter. A filtered sweep that misses watched runs drops the filter.
   */
  sweepSourceType?: SourceType | null;
  now?: () => number;
  /** Told of acknowledgements, starts and ends (the metrics). */
  observer?: EngineObserver;
  /** Hosts whose images render in agent output (default: github.com's). */
  imageHosts?: ImageHosts;
  /** The service's web page of the organization's runs (AGENT_RUN_RUNS_URL): linked where a thread says to look for a run. */
  runsUrl?: string;
}

/** The watch deadline, in one place: a run still going after this long is reported as still going. */
export const DEFAULT_WATCH_TIMEOUT_MS = 4 * 60 * 60_000;

/**
 * How long the 👀 on a trigger may wait for its installation's turn: about the time its tracking
 * comment takes when writes are idle. Longer, and the tracking comment says more than it would.
 */
const COURTESY_WAIT_MS = 3_000;

/** The options' durations with their defaults, in ms of this process's clock (already scaled). */
export interface EngineSettings {
  /** The time scale the durations below were multiplied by (1 = real time). */
  scale: number;
  /** A run's poll interval: `initial` after a change, growing by `factor` up to `max`. */
  poll: { initial: number; max: number; factor: number };
  pollShare: { busy: number; idle: number };
  editIntervalMs: number;
  progressEditsPerMinute: number;
  courtesyWaitMs: number;
  /** Real time, never scaled. */
  watchTimeoutMs: number;
  sweep: {
    enabled: boolean;
    /** Never two sweeps closer than this. */
    minIntervalMs: number;
    /** Share of the shared budget sweeps may use; the interval stretches with the pages a sweep takes. */
    share: number;
    /** A run a sweep showed this recently needs no status read of its own. */
    staleMs: number;
    sourceType: SourceType | null;
    /** Runs the sweep did not show whose own read is brought forward, per sweep. */
    fallbackReadsPerSweep: number;
  };
  /** Progress (log) reads of swept runs: what the budget leaves, active threads first. */
  progress: {
    /** Share of the shared budget progress reads are planned for (the budget's priorities enforce the rest). */
    share: number;
    /** A quiet run's tracking comment moves at least this often while the budget allows. */
    maxIntervalMs: number;
    /** A progress read waits this long for budget at most, then gives its turn up until its next poll. */
    budgetWaitMs: number;
  };
  imageHosts: ImageHosts | undefined;
  /** The service's web page of runs, or null: where a run that may have started is looked for. */
  runsUrl: string | null;
}

export function engineSettings(options: RunEngineOptions): EngineSettings {
  const scale = options.timeScale ?? 1;
  return {
    scale,
    poll: {
      initial: (options.pollIntervalMs?.initial ?? 2_000) * scale,
      max: (options.pollIntervalMs?.max ?? 30_000) * scale,
      factor: options.pollIntervalMs?.factor ?? 1.5,
    },
    pollShare: { busy: options.pollBudgetShare?.busy ?? 0.75, idle: options.pollBudgetShare?.idle ?? 0.95 },
    editIntervalMs: (options.progressEditIntervalMs ?? 15_000) * scale,
    progressEditsPerMinute: options.progressEditsPerMinute ?? 30,
    // Never less than a second of real time: on a busy machine a write's own turn takes that long.
    courtesyWaitMs: Math.max(COURTESY_WAIT_MS * scale, 1_000),
    watchTimeoutMs: options.watchTimeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS,
    sweep: {
      enabled: options.sweepRunsList ?? true,
      // At least 50 ms of real time: a compressed clock (tests) must not turn sweeps into a busy loop.
      minIntervalMs: Math.max(5_000 * scale, 50),
      // Half the budget at most: with 1,000 runs in flight a sweep of 14 pages every 28 s, the reports' reads going first.
      share: 0.5,
      staleMs: 120_000 * scale,
      sourceType: options.sweepSourceType === undefined ? SOURCE.api : options.sweepSourceType,
      fallbackReadsPerSweep: 20,
    },
    // Never under a quarter second of real time: a read that gives way sooner could never finish a probe (the logs path) on a busy loop.
    progress: { share: 0.4, maxIntervalMs: 180_000 * scale, budgetWaitMs: Math.max(2_000 * scale, 250) },
    imageHosts: options.imageHosts,
    runsUrl: options.runsUrl ?? null,
  };
}

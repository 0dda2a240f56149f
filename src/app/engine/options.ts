/**
 * RunEngine's options, their defaults, and the settings they come to once scaled: the intervals
 * every part of the engine reads (polling, progress edits, the courtesy's wait, the watch deadline).
 */
import type { AgentRunClient } from "../../service/client.js";
import type { ThreadLocks } from "../locks.js";
import type { EngineObserver } from "../ops/metrics.js";
import type { WorkQueue } from "../queue/types.js";
import type { BridgeStore } from "../store/types.js";
import type { ImageHosts } from "../../core/sanitize-output/image-hosts.js";
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
  now?: () => number;
  /** Told of acknowledgements, starts and ends (the metrics). */
  observer?: EngineObserver;
  /** Hosts whose images render in agent output (default: github.com's). */
  imageHosts?: ImageHosts;
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
  imageHosts: ImageHosts | undefined;
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
    imageHosts: options.imageHosts,
  };
}

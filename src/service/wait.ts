/**
 * Waiting for a run to end: polls its status until a final phase, the interval growing from short
 * to a cap, jittered; at a deadline the run is left going and the last state seen is reported.
 */
import type { CallOptions } from "./client-options.js";
import { DeadlineError } from "./errors.js";
import { classifyRunStatus, isFinalPhase, type RunPhase } from "./status.js";
import type { AgentRun } from "./wire.js";

export interface WaitOptions extends CallOptions {
  /** Called on the first poll and whenever the status changes. */
  onUpdate?: (run: AgentRun, phase: RunPhase) => void;
  intervalMs?: { initial?: number; max?: number; factor?: number };
}

/** A watch reached its deadline while the run kept going; `lastRun` is the last state seen. */
export class RunStillGoingError extends DeadlineError {
  override name = "RunStillGoingError";
  constructor(
    message: string,
    readonly lastRun: AgentRun,
  ) {
    super(message);
  }
}

/**
 * Polls `getRun` until the run is final. `graceMs` (the request timeout) extends the deadline of
 * each poll, so that the last one, sent at the deadline itself, still gets its answer.
 */
export async function pollUntilFinal(
  runId: number,
  getRun: (options: CallOptions) => Promise<AgentRun>,
  options: WaitOptions,
  graceMs: number,
): Promise<AgentRun> {
  const initial = options.intervalMs?.initial ?? 2_000;
  const max = options.intervalMs?.max ?? 30_000;
  const factor = options.intervalMs?.factor ?? 1.5;
  let interval = initial;
  let lastStatus: string | null | undefined = undefined;
  let first = true;
  for (;;) {
    const callDeadline = options.deadline === undefined ? undefined : options.deadline + graceMs;
    const run = await getRun({ signal: options.signal, deadline: callDeadline });
    const phase = classifyRunStatus(run.status);
    if (first || run.status !== lastStatus) options.onUpdate?.(run, phase);
    first = false;
    lastStatus = run.status;
    if (isFinalPhase(phase)) return run;
    await sleep(pauseBefore(runId, run, jitter(interval), options.deadline), options.signal);
    interval = Math.min(max, interval * factor);
  }
}

/** The pause before the next poll: the interval, but never past the deadline, where the run is given up on. */
function pauseBefore(runId: number, run: AgentRun, interval: number, deadline: number | undefined): number {
  if (deadline === undefined) return interval;
  const left = deadline - Date.now();
  if (left <= 0) {
    throw new RunStillGoingError(
      `Run ${runId} is still ${run.status ?? "running"} at the deadline; it keeps going: follow it at ${run.web_url ?? "its web page"}.`,
      run,
    );
  }
  // One last look exactly at the deadline rather than giving up a pause early.
  return Math.min(interval, left);
}

function jitter(ms: number): number {
  return Math.round(ms * (0.8 + Math.random() * 0.4));
}

/** Waits `ms`; an abort of `signal` (before or during the wait) rejects it with a DeadlineError at once. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DeadlineError(`Stopped waiting: ${String(signal.reason ?? "aborted")}.`));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DeadlineError(`Stopped waiting: ${String(signal?.reason ?? "aborted")}.`));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

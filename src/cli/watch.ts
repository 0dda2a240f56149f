/**
 * Watching a run until it stops changing: the client's polling, plus what a terminal user needs
 * around it (a live progress line, a timeout that leaves the run alone, Ctrl-C that says where the
 * run can still be followed).
 */
import {
  AgentRunSchema,
  DeadlineError,
  classifyRunStatus,
  type AgentRun,
  type AgentRunClient,
  type WaitOptions,
} from "../service/index.js";
import type { CliContext } from "./context.js";
import { WatchInterruptedError, WatchTimeoutError } from "./errors.js";
import { exitCodeForPhase } from "./exit-codes.js";
import { renderPhaseNote, renderProgress, renderRun } from "./format.js";

export interface WatchOptions {
  /** Seconds before giving up watching (the run keeps going). Undefined: no limit. */
  timeoutSeconds?: number;
  /** Fixed seconds between polls; undefined keeps the client's growing interval. */
  pollIntervalMs?: number;
  /** Machine output: no progress line. */
  json: boolean;
}

/** How a watch polls: a fixed interval when the user chose one, else the client's defaults. */
function pollSchedule(pollIntervalMs: number | undefined): WaitOptions["intervalMs"] {
  return pollIntervalMs === undefined ? undefined : { initial: pollIntervalMs, max: pollIntervalMs, factor: 1 };
}

async function watchRunInTerminal(client: AgentRunClient, runId: number, context: CliContext, options: WatchOptions): Promise<AgentRun> {
  const started = Date.now();
  const progress = new ProgressLine(context, context.isTTY && !options.json);
  let lastRun: AgentRun | undefined;
  const redraw = () => progress.show(renderProgress(lastRun, runId, Date.now() - started));
  const ticker = progress.enabled ? setInterval(redraw, 1_000) : undefined;
  redraw();

  const abort = new AbortController();
  const unsubscribe = context.onSignal((signal) => abort.abort(signal));
  try {
    return await client.waitForRun(runId, {
      deadline: options.timeoutSeconds === undefined ? undefined : started + options.timeoutSeconds * 1000,
      signal: abort.signal,
      intervalMs: pollSchedule(options.pollIntervalMs),
      onUpdate: (run) => {
        lastRun = run;
        redraw();
      },
    });
  } catch (error) {
    const run = lastRunOf(error) ?? lastRun;
    const where = run?.web_url ? `: follow it at ${run.web_url}` : "";
    if (abort.signal.aborted) {
      throw new WatchInterruptedError(`stopped watching run ${runId}; it keeps going${where}.`, run);
    }
    if (error instanceof DeadlineError && options.timeoutSeconds !== undefined) {
      throw new WatchTimeoutError(
        `run ${runId} is still ${run?.status ?? "going"} after ${options.timeoutSeconds} s (--timeout); it keeps going${where}.`,
        run,
      );
    }
    throw error;
  } finally {
    if (ticker) clearInterval(ticker);
    unsubscribe();
    progress.clear();
  }
}

/** Prints a run a watch ended on and sets the exit code its phase calls for. */
function reportWatchedRun(run: AgentRun, context: CliContext, json: boolean): void {
  const phase = classifyRunStatus(run.status);
  if (json) context.json(run);
  else context.out(renderRun(run));
  const note = renderPhaseNote(run, phase);
  if (note) context.error(note);
  context.exitCode = exitCodeForPhase(phase);
}

/**
 * A watch that ended early still shows the last state it saw (stdout), then the reason (stderr,
 * via the thrown error), so scripts reading `--json` get the run either way.
 */
function reportUnfinishedWatch(error: unknown, context: CliContext, json: boolean): void {
  if (!(error instanceof WatchTimeoutError || error instanceof WatchInterruptedError) || !error.lastRun) return;
  if (json) context.json(error.lastRun);
  else context.out(renderRun(error.lastRun));
}

/** Watches, reports, and maps the end of the watch to the exit code. */
export async function watchAndReport(client: AgentRunClient, runId: number, context: CliContext, options: WatchOptions): Promise<void> {
  try {
    const run = await watchRunInTerminal(client, runId, context, options);
    reportWatchedRun(run, context, options.json);
  } catch (error) {
    reportUnfinishedWatch(error, context, options.json);
    throw error;
  }
}

/**
 * What create and resume print: the run as the service answered, or with --wait one line naming it
 * (`verb` says what was done: "created", "resumed"), then its watch to the end.
 */
export async function showOrWatchRun(
  client: AgentRunClient,
  run: AgentRun,
  context: CliContext,
  options: WatchOptions & { wait: boolean; verb: string },
): Promise<void> {
  if (!options.wait) {
    if (options.json) context.json(run);
    else context.out(renderRun(run));
    return;
  }
  if (!options.json) context.out(`${options.verb} run ${run.id}${run.web_url ? `: ${run.web_url}` : ""}\n`);
  await watchAndReport(client, run.id, context, {
    json: options.json,
    timeoutSeconds: options.timeoutSeconds,
    pollIntervalMs: options.pollIntervalMs,
  });
}

/** The client attaches the last run it saw to a deadline error; read it without trusting its shape. */
function lastRunOf(error: unknown): AgentRun | undefined {
  if (typeof error !== "object" || error === null || !("lastRun" in error)) return undefined;
  const parsed = AgentRunSchema.safeParse((error as { lastRun: unknown }).lastRun);
  return parsed.success ? parsed.data : undefined;
}

/** One line rewritten in place on a terminal (CliContext.rewriteLine); nothing at all elsewhere. */
class ProgressLine {
  private shown = false;
  constructor(
    private readonly context: CliContext,
    readonly enabled: boolean,
  ) {}

  show(text: string): void {
    if (!this.enabled) return;
    this.context.rewriteLine(text);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.context.rewriteLine("");
    this.shown = false;
  }
}

/**
 * Starting: 👀 on the trigger, the tracking comment, the thread's earlier run waited for when the
 * follow-up was queued behind it, then the create or resume call. A `/agent stop` from another job
 * is looked for before anything is sent.
 */
import { botIdentityOf } from "../../core/markers/trust.js";
import type { RepoConfig } from "../../config/schema.js";
import type { RunMarker } from "../../core/markers/schema.js";
import { reactionForPhase } from "../../core/render/reactions.js";
import { renderServiceError } from "../../core/render/replies.js";
import { renderTrackingComment, type TrackingPhase } from "../../core/render/tracking.js";
import type { RepoRef } from "../../github/client.js";
import { InterruptRefusedError } from "../../service/errors.js";
import type { AgentRun } from "../../service/wire.js";
import type { JobCheckpoint, WatchedRun } from "../checkpoint.js";
import { readCurrentStep, watchRun } from "../runs.js";
import { StopWatch, stopCheckIntervalMs } from "../stop-watch.js";
import type { ThreadReporter } from "../thread.js";
import type { Start } from "./decide.js";
import { fail, type Step, type StepResult } from "./step.js";
import { log } from "../door.js";

/** The run as this step knows it: what its tracking comment is written from, and what a cancelled job finishes it with. */
export class TrackedRun implements WatchedRun {
  marker: RunMarker;
  run: AgentRun | null = null;
  sending: Promise<AgentRun> | null = null;
  /** `follow_up: interrupt`: the follow-up reached the working agent (this step then only follows the run to its end). */
  delivered: { firstLine: string; confirmed: boolean } | null = null;
  /** The service refused the follow-up while the run worked: it waits for the run, and the comment says why once. */
  interruptRefused = false;

  constructor(
    private readonly step: Step,
    readonly start: Start,
    readonly thread: ThreadReporter,
    readonly config: RepoConfig,
    private readonly checkpoint: JobCheckpoint | null = null,
  ) {
    this.marker = start.marker;
    checkpoint?.watch(this);
  }

  get repo(): RepoRef | null {
    return this.step.repo;
  }

  get triggerPhrase(): string {
    return this.config.trigger_phrase;
  }

  get resumed(): boolean {
    return this.start.resumed;
  }

  /** The run the service answered with: named in the marker, and saved for a post step. */
  started(run: AgentRun): void {
    this.run = run;
    this.marker = { ...this.marker, runId: run.id };
    this.checkpoint?.save(this);
  }

  /** Rewrites the tracking comment in a phase (the result is written by finish.ts). */
  async track(phase: TrackingPhase, webUrl: string | null, currentStep?: Awaited<ReturnType<typeof readCurrentStep>>): Promise<unknown> {
    const written = await this.thread.track(() =>
      renderTrackingComment({
        marker: this.marker,
        webUrl,
        phase,
        startedAt: this.step.startedAt,
        now: this.step.now(),
        triggerUrl: this.start.triggerUrl,
        currentStep,
        orgDefaultRepository: this.start.orgDefaultRepository,
        interrupts: { delivered: this.delivered ? [this.delivered] : [], refused: this.interruptRefused },
      }),
    );
    this.checkpoint?.save(this);
    return written;
  }
}

/** Looks for a `/agent stop` from another job, which turns this step's tracking comment into its stopped state. */
export function watchForStop(step: Step, thread: ThreadReporter): StopWatch | null {
  if (!step.repo || !thread.enabled) return null;
  return new StopWatch(
    step.octokit,
    step.repo,
    () => thread.comment?.id ?? null,
    botIdentityOf(step.self),
    stopCheckIntervalMs(step.poll),
    (message) => log.warning(message),
  ).start();
}

export type Started = { kind: "started"; run: AgentRun } | { kind: "done"; result: StepResult };

export async function startRun(step: Step, tracked: TrackedRun, stopWatch: StopWatch | null): Promise<Started> {
  const { start, thread } = tracked;
  await thread.react(start.reaction, reactionForPhase("triggered"));
  if (start.interrupt) {
    const delivered = await interruptWorkingRun(tracked, start.interrupt, stopWatch);
    if (delivered) return delivered;
  }
  await tracked.track(start.phase, null);

  if (start.waitFor !== undefined) {
    log.info(`Run ${start.waitFor} is still working on this thread; waiting for it before sending the follow-up.`);
    const earlier = await watchRun(step.client, await step.client.getRun(start.waitFor, { deadline: step.deadline }), {
      deadline: step.deadline,
      poll: step.poll,
      ...(stopWatch ? { signal: stopWatch.signal } : {}),
    });
    if (stopWatch?.stopped) return stoppedBeforeStart(thread);
    if (earlier.timedOut) {
      const message = `Run ${start.waitFor} was still working at the timeout, so the follow-up was not sent; trigger the agent again once it has finished.`;
      await thread.track(() =>
        renderServiceError({
          message: "the thread's run was still working when this step stopped waiting, so your follow-up was not sent.",
          whatToDo: "Ask again once the run has finished.",
        }),
      );
      return { kind: "done", result: fail(step, message, earlier.run, thread.comment) };
    }
  }
  if (await stopWatch?.check()) return stoppedBeforeStart(thread);

  tracked.sending = start.send();
  const run = await tracked.sending;
  tracked.started(run);
  log.info(`Agent run ${run.id} ${start.resumed ? "resumed" : "started"}: ${run.web_url ?? "(no web URL)"}`);
  if (!(await stopWatch?.check())) await tracked.track(start.resumed ? "resuming" : "starting", run.web_url ?? null);
  return { kind: "started", run };
}

/**
 * `follow_up: interrupt`: the follow-up goes to the working agent now; this step then follows the run
 * to its end. Null when the service refuses (the step waits for the run, as a queued follow-up does).
 */
async function interruptWorkingRun(
  tracked: TrackedRun,
  interrupt: NonNullable<Start["interrupt"]>,
  stopWatch: StopWatch | null,
): Promise<Started | null> {
  if (await stopWatch?.check()) return stoppedBeforeStart(tracked.thread);
  try {
    tracked.sending = interrupt.send();
    const run = await tracked.sending;
    tracked.delivered = { firstLine: interrupt.firstLine, confirmed: true };
    tracked.started(run);
    log.info(`The follow-up reached agent run ${run.id} while it works: ${run.web_url ?? "(no web URL)"}`);
    await tracked.track("running", run.web_url ?? null);
    return { kind: "started", run };
  } catch (error) {
    if (!(error instanceof InterruptRefusedError)) throw error;
    // The client has warned once already; this says what the step does about it.
    log.info("This step waits for the run, then sends the follow-up.");
    tracked.interruptRefused = true;
    return null;
  }
}

function stoppedBeforeStart(thread: ThreadReporter): Started {
  log.notice("Stopped from the thread before anything was sent; nothing was started.", { title: "Agent stopped" });
  return {
    kind: "done",
    result: {
      outcome: { kind: "stopped", reason: "Stopped from the thread before the follow-up was sent.", comment: thread.comment },
      failure: null,
    },
  };
}

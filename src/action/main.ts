/**
 * The Action, step by step. No state survives a step: the thread's hidden markers (written by the
 * bot's own logins) are the memory that lets a later step resume the same run. Each step lives in
 * steps/; runner.ts reads what this returns into outputs, the job summary and `setFailed`.
 */
import { botIdentityOf } from "../core/markers/trust.js";
import type { RepoConfig } from "../config/schema.js";
import { AgentRunError } from "../service/errors.js";
import type { JobCheckpoint } from "./checkpoint.js";
import type { HeadStart } from "./head-start.js";
import { InputError, readInputs, type ActionInputs, type Env } from "./inputs.js";
import { RunnerEnvError } from "./runner-env.js";
import { holdBySpendLimits } from "./spend-limits.js";
import { decide, decideAhead, loadConfig, reportConfigError, type Decision } from "./steps/decide.js";
import { startRun, TrackedRun, watchForStop } from "./steps/start.js";
import { errorMessage, openStep, type Step, type StepResult } from "./steps/step.js";

export type { StepResult } from "./steps/step.js";

/** Runs the step; resolves with its result (never rejects). */
export async function main(
  env: Env,
  now: () => number,
  headStart: HeadStart | null = null,
  checkpoint: JobCheckpoint | null = null,
): Promise<StepResult> {
  let inputs: ActionInputs | null = null;
  try {
    // 1. Inputs, the runner's environment, the event: nothing is written or sent to the service when one of them is wrong
    //    (the head start may have read from GitHub meanwhile).
    inputs = readInputs(env);
    const step = await openStep(inputs, env, now, headStart);
    decideAhead(step);

    // 2. The repository's configuration, with the inputs laid over it.
    const config = await loadConfig(step);
    if (!config.ok) return { ...(await reportConfigError(step, config)), context: step.summary };

    // 3. Decide: a stop, nothing, a reply, or a run to start (planRun chooses create, resume or queue).
    const decision = await decide(step, config.config);
    if (decision.kind === "done") return { ...decision.result, context: step.summary };

    // 4. The spend limits, right before anything is sent to the service.
    if (decision.prepared) {
      const held = await holdBySpendLimits({
        octokit: step.octokit,
        repo: step.repo,
        prepared: decision.prepared,
        config: config.config,
        self: botIdentityOf(step.self),
        now: now(),
        thread: decision.thread,
        recent: step.recentComments,
      });
      if (held) return { outcome: held, failure: null, context: step.summary };
    }

    // 5–7. Start the run, watch it, write its result.
    return { ...(await runToTheEnd(step, config.config, decision, checkpoint)), context: step.summary };
  } catch (error) {
    const message = errorMessage(error);
    // Wrong inputs or a runner that is not one are never "soft": nothing could be tried.
    const hard = error instanceof InputError || error instanceof RunnerEnvError || !inputs || inputs.failOnError;
    return { outcome: { kind: "error", message, run: null, resumed: false, comment: null }, failure: hard ? message : null };
  }
}

async function runToTheEnd(
  step: Step,
  config: RepoConfig,
  decision: Extract<Decision, { kind: "start" }>,
  checkpoint: JobCheckpoint | null,
): Promise<StepResult> {
  const tracked = new TrackedRun(step, decision.start, decision.thread, config, checkpoint);
  const stopWatch = watchForStop(step, decision.thread);
  try {
    // 5. Start: 👀, the tracking comment, the thread's earlier run waited for, then create or resume.
    const started = await startRun(step, tracked, stopWatch);
    if (started.kind === "done") return started.result;
    // What follows the create is loaded now (step-end.ts).
    const { finishRun, startedOnly, stoppedFromThread, watchToEnd } = await import("./step-end.js");
    if (!step.inputs.wait) return startedOnly(step, tracked, started.run);

    // 6. Watch it to a final state or `timeout-minutes`; the tracking comment follows its progress.
    const watched = await watchToEnd(step, tracked, stopWatch);
    const endedAt = step.now();
    if (stopWatch?.stopped || (await stopWatch?.check())) return stoppedFromThread(step, tracked, watched.run, endedAt);

    // 7. Finish: the result in the thread, reactions, pull-request links, and whether the step fails.
    return await finishRun(step, tracked, watched, endedAt);
  } catch (error) {
    if (!(error instanceof AgentRunError)) throw error;
    const { reportServiceError } = await import("./step-end.js");
    return reportServiceError(step, tracked, error);
  } finally {
    stopWatch?.close();
  }
}

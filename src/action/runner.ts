/**
 * Between the runner and the step: secrets masked before anything can print them, then `main`,
 * then what the runner reads back (outputs, the job summary) and `setFailed` once, at the very end.
 */
import * as core from "@actions/core";
import { DEFAULT_REPO_CONFIG } from "../config/schema.js";
import { failStep, log, openDoor, stepRedactor, writeJobSummary, writeOutputs } from "./door.js";
import type { CancelSignal } from "./cancellation.js";
import { JobCheckpoint } from "./checkpoint.js";
import type { HeadStart } from "./head-start.js";
import { rawInput, type Env } from "./inputs.js";
import { main, type StepResult } from "./main.js";

export type { StepResult };
import { cancelStep } from "./steps/cancel.js";
import { errorMessage } from "./steps/step.js";

export interface RunOptions {
  /** Default: the process environment (what the runner set). */
  env?: Env;
  /** Default: Date.now. */
  now?: () => number;
  /** The GitHub reads the entry sent before loading this (see head-start.ts). */
  headStart?: HeadStart | null;
  /** Resolves when the runner cancels the job (index.ts listens for its signals): the step then ends with its last word. */
  cancelled?: Promise<CancelSignal>;
}

/** Runs the step and reports it; resolves when everything is written (never rejects). */
export async function runAction(options: RunOptions = {}): Promise<StepResult> {
  const env = options.env ?? process.env;
  // Masked and redacted even when the rest of the inputs are wrong.
  for (const name of ["api-token", "previous-api-token", "github-token"]) {
    const secret = rawInput(env, name);
    if (secret) core.setSecret(secret);
  }
  openDoor(stepRedactor(env));
  const checkpoint = new JobCheckpoint((name, value) => core.saveState(name, value));
  const running = main(env, options.now ?? Date.now, options.headStart ?? null, checkpoint);
  const result = options.cancelled
    ? await Promise.race([running, options.cancelled.then((signal) => cancelStep(checkpoint, signal))])
    : await running;
  await report(result, env);
  // A cancelled step's comment may still need the post step (its edit can have failed); it reads the comment first.
  if (result.outcome.kind !== "cancelled") checkpoint.finish();
  return result;
}

async function report(result: StepResult, env: Env): Promise<void> {
  await writeOutputs(result.outcome);
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      await writeJobSummary(
        result.outcome,
        result.context ?? { thread: null, triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase },
        env.GITHUB_STEP_SUMMARY,
      );
    } catch (error) {
      log.warning(`Could not write the job summary: ${errorMessage(error)}`);
    }
  }
  if (result.failure !== null) failStep(result.failure);
}

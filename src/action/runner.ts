/**
 * Between the runner and the step: secrets masked before anything can print them, then `main`,
 * then what the runner reads back (outputs, the job summary) and `setFailed` once, at the very end.
 */
import * as core from "@actions/core";
import { DEFAULT_REPO_CONFIG } from "../config/schema.js";
import { compileRedactPatterns, createRedactor, splitRedactPatterns, type Redactor } from "../core/redact.js";
import { failStep, log, openDoor, writeJobSummary, writeOutputs } from "./door.js";
import type { HeadStart } from "./head-start.js";
import { rawInput, type Env } from "./inputs.js";
import { main, type StepResult } from "./main.js";

export type { StepResult };
import { errorMessage } from "./steps/step.js";

export interface RunOptions {
  /** Default: the process environment (what the runner set). */
  env?: Env;
  /** Default: Date.now. */
  now?: () => number;
  /** The GitHub reads the entry sent before loading this (see head-start.ts). */
  headStart?: HeadStart | null;
}

/** Runs the step and reports it; resolves when everything is written (never rejects). */
export async function runAction(options: RunOptions = {}): Promise<StepResult> {
  const env = options.env ?? process.env;
  // Masked and redacted even when the rest of the inputs are wrong.
  for (const name of ["api-token", "github-token"]) {
    const secret = rawInput(env, name);
    if (secret) core.setSecret(secret);
  }
  openDoor(stepRedactor(env));
  const result = await main(env, options.now ?? Date.now, options.headStart ?? null);
  await report(result, env);
  return result;
}

/**
 * The step's redaction: the built-in rules, the two tokens by value, and `redact-patterns` (a bad
 * pattern is left out here; readInputs reports it and the step fails before writing anything).
 */
function stepRedactor(env: Env): Redactor {
  const secrets = [
    { value: rawInput(env, "api-token"), label: "API token" },
    { value: rawInput(env, "github-token"), label: "GitHub token" },
  ];
  const { patterns } = compileRedactPatterns(splitRedactPatterns(rawInput(env, "redact-patterns")));
  return createRedactor({ secrets, patterns });
}

async function report(result: StepResult, env: Env): Promise<void> {
  writeOutputs(result.outcome);
  if (env.GITHUB_STEP_SUMMARY) {
    try {
      await writeJobSummary(result.outcome, result.context ?? { thread: null, triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase });
    } catch (error) {
      log.warning(`Could not write the job summary: ${errorMessage(error)}`);
    }
  }
  if (result.failure !== null) failStep(result.failure);
}

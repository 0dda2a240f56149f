import { describeCurrentStep, digestTrace } from "../core/trace.js";
import type { LogEntry } from "../service/wire.js";
import type { TraceProgress } from "./store/types.js";

/** How much of a run's trace the App keeps between polls: enough for the result digest. */
const PROGRESS_LIMITS = { errors: 20, lastSteps: 8 } as const;

/**
 * Folds a new page of log entries into what is already known, so the watcher never has to re-read
 * a run's whole trace: errors accumulate, the last steps slide, the current step moves on.
 */
export function foldProgress(previous: TraceProgress, entries: readonly LogEntry[], triggerPhrase?: string): TraceProgress {
  if (entries.length === 0) return previous;
  const options = triggerPhrase ? { triggerPhrase } : {};
  const digest = digestTrace(entries, { ...options, maxSteps: PROGRESS_LIMITS.lastSteps });
  const errors = [...previous.errors];
  for (const error of digest.errors) if (!errors.includes(error)) errors.push(error);
  return {
    logsSeen: previous.logsSeen + entries.length,
    currentStep: describeCurrentStep(entries, options) ?? previous.currentStep,
    errors: errors.slice(-PROGRESS_LIMITS.errors),
    lastSteps: [...previous.lastSteps, ...digest.lastSteps].slice(-PROGRESS_LIMITS.lastSteps),
    finalAnswer: digest.finalAnswer ?? previous.finalAnswer,
  };
}

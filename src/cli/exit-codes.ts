import type { RunPhase } from "../service/index.js";

/**
 * The CLI's exit codes. Scripts branch on them, so they stay few and stable: a run that ended
 * failed is not the same thing as the CLI failing to ask about it.
 */
export const EXIT_CODES = {
  ok: 0,
  /** A watched run ended in a failed status, or was stopped or cancelled before it finished. */
  runFailed: 1,
  /** Bad flags, arguments or environment: fix the command line. Nothing was sent. */
  usage: 2,
  /** The service refused, failed or could not be reached, or a watch timed out: the run may still be going. */
  service: 3,
  /**
   * A create was sent, its answer was lost, and the runs list could not tell whether the service made
   * the run: it may be working. Look for it before creating again (the message says by what).
   */
  outcomeUnknown: 4,
  /** The user stopped a watch with Ctrl-C: the shell's own code for SIGINT (128 + 2). */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The exit code of a command that watched a run until it stopped changing. */
export function exitCodeForPhase(phase: RunPhase): ExitCode {
  // A stopped run did not do its job either: a script chained on `&&` must not go on.
  return phase === "failed" || phase === "stopped" ? EXIT_CODES.runFailed : EXIT_CODES.ok;
}

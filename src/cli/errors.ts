import { CommanderError } from "commander";
import { MissingDependencyError } from "../app/optional-deps.js";
import { AgentRunError, ConfigurationError, OutcomeUnknownError, RequestValidationError, type AgentRun } from "../service/index.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";

/** A mistake on the command line or in the environment. Nothing was sent to the service. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A watch passed its `--timeout`: the run itself keeps going. */
export class WatchTimeoutError extends Error {
  override name = "WatchTimeoutError";
  constructor(
    message: string,
    readonly lastRun: AgentRun | undefined,
  ) {
    super(message);
  }
}

/** The user interrupted a watch (SIGINT/SIGTERM): the run itself keeps going. */
export class WatchInterruptedError extends Error {
  override name = "WatchInterruptedError";
  constructor(
    message: string,
    readonly lastRun: AgentRun | undefined,
  ) {
    super(message);
  }
}

/** Which exit code an error that ended a command maps to. */
export function exitCodeForError(error: unknown): ExitCode {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  // A package to install is the environment's to fix, like a missing variable.
  if (
    error instanceof UsageError ||
    error instanceof RequestValidationError ||
    error instanceof ConfigurationError ||
    error instanceof MissingDependencyError
  ) {
    return EXIT_CODES.usage;
  }
  if (error instanceof WatchInterruptedError) return EXIT_CODES.interrupted;
  if (error instanceof OutcomeUnknownError) return EXIT_CODES.outcomeUnknown;
  // Everything else the service or the network did to us, a watch timeout, or an environment
  // failure (a port in use) is outside the command line: the caller may retry.
  return EXIT_CODES.service;
}

/** One line for stderr: the error's own message, which for service errors already says what to do. */
export function describeError(error: unknown): string {
  if (error instanceof AgentRunError || error instanceof Error) return error.message;
  return String(error);
}

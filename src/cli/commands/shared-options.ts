/** Options several commands share, spelled once, and the one check on them that several make. */
import type { Command } from "commander";
import { parsePositiveNumber } from "../arguments.js";
import { ENV } from "../config.js";
import { addConnectionOptions } from "../connect.js";
import { UsageError } from "../errors.js";

export interface WatchFlags {
  timeout?: number;
  pollInterval?: string;
  json?: boolean;
}

/** The flags of a command that starts a run and may then watch it (create, resume). */
export interface StartFlags extends WatchFlags {
  wait?: boolean;
}

export function addJsonOption(command: Command, help = "print the run as JSON on stdout (errors still go to stderr)"): Command {
  return command.option("--json", help);
}

function addTimeoutOption(command: Command, help: string): Command {
  return command.option("--timeout <seconds>", help, parsePositiveNumber);
}

/** What a command that watches a run takes, in the order --help lists them: --timeout, --poll-interval, --json, then the connection. */
export function addWatchOptions(command: Command, timeoutHelp: string): Command {
  addTimeoutOption(command, timeoutHelp);
  addPollIntervalOption(command);
  addJsonOption(command);
  return addConnectionOptions(command);
}

/** What create and resume hand to `showOrWatchRun`: watch with --wait, else print the run. */
export function watchChoice(flags: StartFlags, pollIntervalMs: number | undefined) {
  return { wait: flags.wait === true, json: flags.json === true, timeoutSeconds: flags.timeout, pollIntervalMs };
}

/** A command that only watches with --wait refuses --timeout without it, before anything is sent. */
export function checkTimeoutNeedsWait(flags: StartFlags): void {
  if (!flags.wait && flags.timeout !== undefined) throw new UsageError("--timeout only applies with --wait.");
}

/** Validated later with the environment's value, so that both name the same rule. */
export function addPollIntervalOption(command: Command): Command {
  return command.option(
    "--poll-interval <seconds>",
    `seconds between status checks while waiting (env ${ENV.pollInterval}; default 2, growing to 30 on long runs)`,
  );
}

/** Options several commands share, spelled once. */
import type { Command } from "commander";
import { parsePositiveNumber } from "../arguments.js";
import { ENV } from "../config.js";

export interface WatchFlags {
  timeout?: number;
  pollInterval?: string;
  json?: boolean;
}

export function addJsonOption(command: Command, help = "print the run as JSON on stdout (errors still go to stderr)"): Command {
  return command.option("--json", help);
}

export function addTimeoutOption(command: Command, help: string): Command {
  return command.option("--timeout <seconds>", help, parsePositiveNumber);
}

/** Validated later with the environment's value, so that both name the same rule. */
export function addPollIntervalOption(command: Command): Command {
  return command.option(
    "--poll-interval <seconds>",
    `seconds between status checks while waiting (env ${ENV.pollInterval}; default 2, growing to 30 on long runs)`,
  );
}

import type { Command } from "commander";
import type { CliContext } from "../context.js";

/**
 * One `agent-run` subcommand. A command adds itself under the program with `program.command(…)`
 * (so it inherits the program's output and exit handling) and, in its action, either finishes
 * (setting `context.exitCode` when it is not 0) or throws; `runCli` maps what it throws.
 */
export interface CliCommand {
  readonly name: string;
  register(program: Command, context: CliContext): void;
}

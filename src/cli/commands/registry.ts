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

/** A command whose name is said once: `build` gets it added under the program, with its description. */
export function defineCommand(name: string, description: string, build: (command: Command, context: CliContext) => void): CliCommand {
  return { name, register: (program, context) => build(program.command(name).description(description), context) };
}

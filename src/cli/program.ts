import { Command } from "commander";
import { BRIDGE_VERSION } from "../version.js";
import { appCommand } from "./commands/app.js";
import { configCommand } from "./commands/config.js";
import { createCommand } from "./commands/create.js";
import { emulatorCommand } from "./commands/emulator.js";
import { getCommand } from "./commands/get.js";
import { logsCommand } from "./commands/logs.js";
import type { CliCommand } from "./commands/registry.js";
import { resumeCommand } from "./commands/resume.js";
import { waitCommand } from "./commands/wait.js";
import type { CliContext } from "./context.js";
import { EXIT_CODES } from "./exit-codes.js";

/** Every subcommand, in the order `--help` lists them. A new command is one file in commands/ and one line here. */
const COMMANDS: readonly CliCommand[] = [
  createCommand,
  getCommand,
  resumeCommand,
  waitCommand,
  logsCommand,
  configCommand,
  emulatorCommand,
  appCommand,
];

const EPILOG = `
Configuration (flags win over the environment):
  AGENT_RUN_API_URL     base URL of the Agent Run Service   (--api-url)
  AGENT_RUN_API_TOKEN   API token                           (--token)
  AGENT_RUN_ORG_ID      organization id                     (--org-id)
  AGENT_RUN_POLL_INTERVAL  seconds between status checks    (--poll-interval)
  AGENT_RUN_RUNS_URL    the service's web page of runs, named when a create's outcome is unknown (exit 4)

Exit codes:
  ${EXIT_CODES.ok}  success
  ${EXIT_CODES.runFailed}  the watched run ended failed
  ${EXIT_CODES.usage}  usage or configuration error (nothing was sent)
  ${EXIT_CODES.service}  service error, service unreachable, or --timeout reached (the run keeps going)
  ${EXIT_CODES.outcomeUnknown}  create sent, answer lost, and the runs list cannot tell: the run may have started
  ${EXIT_CODES.interrupted}  stopped watching with Ctrl-C (the run keeps going)
`;

/**
 * A fresh program per invocation (commander keeps parsed values on it). It never exits the process
 * and writes only through the context's streams: `runCli` maps what it throws to an exit code.
 */
export function buildProgram(context: CliContext, commands: readonly CliCommand[] = COMMANDS): Command {
  const program = new Command("agent-run")
    .description("Start, follow and resume Agent Run Service runs from a terminal or a script.")
    .version(BRIDGE_VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .addHelpCommand(false)
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (text) => context.out(text),
      writeErr: (text) => context.errText(text),
      // commander's "error: …" becomes the CLI's one error prefix.
      outputError: (text, write) => write(`agent-run: ${text.replace(/^error: /, "")}`),
      getOutHelpWidth: () => (context.isTTY ? 100 : 80),
      getErrHelpWidth: () => 80,
    })
    .addHelpText("after", EPILOG);
  for (const command of commands) command.register(program, context);
  return program;
}

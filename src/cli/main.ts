import { CommanderError } from "commander";
import { CliContext, type CliIo } from "./context.js";
import { ENV } from "./config.js";
import { describeError, exitCodeForError } from "./errors.js";
import { processIo } from "./process-io.js";
import { buildProgram } from "./program.js";

/**
 * Runs one `agent-run` invocation in-process and resolves to its exit code. Never exits the
 * process and never throws: every failure becomes a message on stderr and a code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const context = new CliContext(io);
  // The token may reach error text before a command resolved it (say, echoed by a proxy): hide it from the start.
  for (const secret of tokensIn(argv, io.env)) context.addSecret(secret);
  const run = (async () => {
    try {
      await buildProgram(context).parseAsync([...argv], { from: "user" });
      return context.exitCode;
    } catch (error) {
      const code = exitCodeForError(error);
      // commander already printed its own errors and help.
      if (!(error instanceof CommanderError)) context.error(describeError(error));
      return code;
    }
  })();
  if (!io.stdoutClosed) return run;
  // Nobody reads the output any more (`| head -1`): the command ends here, quietly, with its exit code so
  // far. Whatever it was still doing (another page, a watch) is abandoned; the caller ends the process.
  const closed = io.stdoutClosed.then(() => {
    context.silence();
    return context.exitCode;
  });
  return Promise.race([run, closed]);
}

/**
 * The launchers' one line: runs the CLI on the process's streams and sets the exit code. When stdout's
 * reader went away, work still pending (a poll, a server) would keep the process alive for nothing:
 * it exits at once with the command's code so far.
 */
export async function runProcess(argv: readonly string[]): Promise<void> {
  let stdoutGone = false;
  const io = processIo();
  void io.stdoutClosed?.then(() => (stdoutGone = true));
  const code = await runCli(argv, io);
  if (stdoutGone) process.exit(code);
  process.exitCode = code;
}

function tokensIn(argv: readonly string[], env: CliIo["env"]): string[] {
  const found: string[] = [];
  const fromEnv = env[ENV.token];
  if (fromEnv) found.push(fromEnv);
  argv.forEach((arg, index) => {
    if (arg === "--token" && argv[index + 1] && argv[0] !== "emulator") found.push(argv[index + 1]!);
    else if (arg.startsWith("--token=") && argv[0] !== "emulator") found.push(arg.slice("--token=".length));
  });
  return found;
}

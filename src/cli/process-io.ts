import type { CliIo } from "./context.js";

/**
 * The real process's streams and environment, for the launchers. A reader that goes away (`| head -1`)
 * makes the next write fail with EPIPE, reported as an 'error' event: unhandled, Node would print a
 * stack trace and exit 1, the code for "the run failed". Here it resolves `stdoutClosed` instead, and
 * `runProcess` ends the command quietly with its exit code so far.
 */
export function processIo(): CliIo {
  const stdoutClosed = new Promise<void>((resolve) => {
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      resolve();
    });
  });
  // stderr gone too (`2>&1 | head -1`): nothing more can be said, and nothing is worth a crash.
  process.stderr.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Touched only by `--prompt -`: creating process.stdin early would hold a handle for nothing.
    stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
    env: process.env,
    isTTY: process.stdout.isTTY === true,
    stdoutClosed,
  };
}

import type { CliIo } from "./context.js";

/** The real process's streams and environment, for the launchers. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Touched only by `--prompt -`: creating process.stdin early would hold a handle for nothing.
    stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  };
}

import type { CliIo } from "./context.js";

/** The real process's streams and environment, for the launchers. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  };
}

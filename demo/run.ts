/**
 * `npm run demo`: the App's main job on loopback, printed as it happens (see demo.ts). Exits 0
 * when every step had its effect, 1 with the reason when one did not, 130 on Ctrl-C.
 */
import { pathToFileURL } from "node:url";
import { DemoStepError, runDemo } from "./demo.js";
import { shouldColor } from "./terminal.js";

export { DemoStepError, runDemo, type DemoOptions, type DemoResult } from "./demo.js";

async function main(): Promise<number> {
  const stop = new AbortController();
  const interrupt = () => stop.abort(new Error("interrupted"));
  process.once("SIGINT", interrupt);
  try {
    await runDemo({
      out: process.stdout,
      color: shouldColor(process.stdout.isTTY, process.env),
      width: process.stdout.isTTY ? process.stdout.columns : undefined,
      signal: stop.signal,
    });
    return 0;
  } catch (error) {
    if (stop.signal.aborted) {
      process.stderr.write("\nDemo interrupted; everything it started is stopped.\n");
      return 130;
    }
    const message = error instanceof DemoStepError ? `Demo failed at ${error.message}` : `Demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    process.stderr.write(`\n${message}\n`);
    return 1;
  } finally {
    process.off("SIGINT", interrupt);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}

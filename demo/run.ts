/**
 * `npm run demo`: the App's main job on loopback, printed as it happens (see demo.ts).
 * `npm run demo -- --replicas 3`: the same story on three App processes over a Redis of its own.
 * Exits 0 when every step had its effect, 1 with the reason when one did not, 2 on a bad option or
 * when --replicas finds no redis-server, 130 on Ctrl-C.
 */
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { DemoStepError, runDemo } from "./demo.js";
import { ReplicasUnavailableError } from "./stage.js";
import { shouldColor } from "./terminal.js";

export { DemoStepError, runDemo } from "./demo.js";

const USAGE = "usage: npm run demo [-- --replicas <1-5>]";
const MAX_REPLICAS = 5;

/** The demo's options from its arguments; a message for the person when they make no sense. */
function parseDemoArgs(args: readonly string[]): { replicas: number } | { error: string } {
  let values: { replicas?: string };
  try {
    ({ values } = parseArgs({ args: [...args], options: { replicas: { type: "string" } }, strict: true, allowPositionals: false }));
  } catch (error) {
    return { error: `${(error as Error).message}\n${USAGE}` };
  }
  if (values.replicas === undefined) return { replicas: 1 };
  const replicas = Number(values.replicas);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > MAX_REPLICAS) {
    return {
      error: `--replicas must be a whole number from 1 to ${MAX_REPLICAS} (1 = the single embedded App), got "${values.replicas}"\n${USAGE}`,
    };
  }
  return { replicas };
}

async function main(): Promise<number> {
  const parsed = parseDemoArgs(process.argv.slice(2));
  if ("error" in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  const stop = new AbortController();
  const interrupt = () => stop.abort(new Error("interrupted"));
  process.once("SIGINT", interrupt);
  try {
    await runDemo({
      out: process.stdout,
      color: shouldColor(process.stdout.isTTY, process.env),
      width: process.stdout.isTTY ? process.stdout.columns : undefined,
      signal: stop.signal,
      replicas: parsed.replicas,
    });
    return 0;
  } catch (error) {
    if (error instanceof ReplicasUnavailableError) {
      process.stderr.write(`\n${error.message}\n`);
      return 2;
    }
    if (stop.signal.aborted) {
      process.stderr.write("\nDemo interrupted; everything it started is stopped.\n");
      return 130;
    }
    const message =
      error instanceof DemoStepError
        ? `Demo failed at ${error.message}`
        : `Demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    process.stderr.write(`\n${message}\n`);
    return 1;
  } finally {
    process.off("SIGINT", interrupt);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}

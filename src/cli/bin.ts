/** Runs the CLI from source: `npx tsx src/cli/bin.ts …` (bin/agent-run.js does the same from lib/). */
import { processIo, runCli } from "./main.js";

process.exitCode = await runCli(process.argv.slice(2), processIo());

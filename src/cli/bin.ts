/** Runs the CLI from source: `npx tsx src/cli/bin.ts …` (bin/agent-run.js does the same from lib/). */
import { runProcess } from "./main.js";

await runProcess(process.argv.slice(2));

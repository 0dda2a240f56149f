#!/usr/bin/env node
// The installed `agent-run` command: the compiled CLI (`npm run build:lib` builds src/ into lib/).
import { runProcess } from "../lib/cli/main.js";

await runProcess(process.argv.slice(2));

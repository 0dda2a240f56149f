#!/usr/bin/env node
// The installed `agent-run` command: the compiled CLI (`npm run build:lib` builds src/ into lib/).
import { processIo, runCli } from "../lib/cli/main.js";

process.exitCode = await runCli(process.argv.slice(2), processIo());

import { parseRunId } from "../arguments.js";
import { resolvePollIntervalMs, type ConnectionFlags } from "../config.js";
import { connect } from "../connect.js";
import { resolvePrompt } from "../prompt.js";
import { showOrWatchRun } from "../watch.js";
import { defineCommand } from "./registry.js";
import { addWatchOptions, checkTimeoutNeedsWait, watchChoice, type StartFlags } from "./shared-options.js";

interface ResumeFlags extends ConnectionFlags, StartFlags {
  prompt: string;
}

export const resumeCommand = defineCommand("resume", "continue a finished run with a follow-up prompt", (command, context) => {
  command
    .argument("<run-id>", "the run to continue", parseRunId)
    .requiredOption("--prompt <text>", "the follow-up instruction; - reads it from stdin")
    .option("--wait", "wait until the run ends again; exit 1 if it failed");
  addWatchOptions(command, "with --wait: stop waiting after this many seconds (exit 3; the run keeps going)").action(
    async (runId: number, flags: ResumeFlags) => {
      checkTimeoutNeedsWait(flags);
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.env);
      const prompt = await resolvePrompt(flags.prompt, context.stdin);
      const client = connect(flags, context);
      const run = await client.resumeRun(runId, prompt);
      await showOrWatchRun(client, run, context, { verb: "resumed", ...watchChoice(flags, pollIntervalMs) });
    },
  );
});

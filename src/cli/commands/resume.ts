import { parseRunId } from "../arguments.js";
import { resolvePollIntervalMs, type ConnectionFlags } from "../config.js";
import { addConnectionOptions, connect } from "../connect.js";
import { UsageError } from "../errors.js";
import { renderRun } from "../format.js";
import { resolvePrompt } from "../prompt.js";
import { watchAndReport } from "../watch.js";
import type { CliCommand } from "./registry.js";
import { addJsonOption, addPollIntervalOption, addTimeoutOption, type WatchFlags } from "./shared-options.js";

interface ResumeFlags extends ConnectionFlags, WatchFlags {
  prompt: string;
  wait?: boolean;
}

export const resumeCommand: CliCommand = {
  name: "resume",
  register(program, context) {
    const command = program
      .command("resume")
      .description("continue a finished run with a follow-up prompt")
      .argument("<run-id>", "the run to continue", parseRunId)
      .requiredOption("--prompt <text>", "the follow-up instruction; - reads it from stdin")
      .option("--wait", "wait until the run ends again; exit 1 if it failed");
    addTimeoutOption(command, "with --wait: stop waiting after this many seconds (exit 3; the run keeps going)");
    addPollIntervalOption(command);
    addJsonOption(command);
    addConnectionOptions(command).action(async (runId: number, flags: ResumeFlags) => {
      if (!flags.wait && flags.timeout !== undefined) throw new UsageError("--timeout only applies with --wait.");
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.io.env);
      const prompt = await resolvePrompt(flags.prompt, context.io.stdin);
      const client = connect(flags, context);
      const run = await client.resumeRun(runId, prompt);
      const json = flags.json === true;
      if (!flags.wait) {
        if (json) context.json(run);
        else context.out(renderRun(run));
        return;
      }
      if (!json) context.out(`resumed run ${run.id}${run.web_url ? `: ${run.web_url}` : ""}\n`);
      await watchAndReport(client, run.id, context, { json, timeoutSeconds: flags.timeout, pollIntervalMs });
    });
  },
};

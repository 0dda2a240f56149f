import { parseRunId } from "../arguments.js";
import { resolvePollIntervalMs, type ConnectionFlags } from "../config.js";
import { addConnectionOptions, connect } from "../connect.js";
import { watchAndReport } from "../watch.js";
import type { CliCommand } from "./registry.js";
import { addJsonOption, addPollIntervalOption, addTimeoutOption, type WatchFlags } from "./shared-options.js";

export const waitCommand: CliCommand = {
  name: "wait",
  register(program, context) {
    const command = program
      .command("wait")
      .description("wait until a run ends; exit 1 if it failed")
      .argument("<run-id>", "the run to wait for", parseRunId);
    addTimeoutOption(command, "stop waiting after this many seconds (exit 3; the run keeps going)");
    addPollIntervalOption(command);
    addJsonOption(command);
    addConnectionOptions(command).action(async (runId: number, flags: ConnectionFlags & WatchFlags) => {
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.io.env);
      const client = connect(flags, context);
      await watchAndReport(client, runId, context, { json: flags.json === true, timeoutSeconds: flags.timeout, pollIntervalMs });
    });
  },
};

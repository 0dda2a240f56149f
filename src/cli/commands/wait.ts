import { parseRunId } from "../arguments.js";
import { resolvePollIntervalMs, type ConnectionFlags } from "../config.js";
import { connect } from "../connect.js";
import { watchAndReport } from "../watch.js";
import { defineCommand } from "./registry.js";
import { addWatchOptions, type WatchFlags } from "./shared-options.js";

export const waitCommand = defineCommand("wait", "wait until a run ends; exit 1 if it failed", (command, context) => {
  command.argument("<run-id>", "the run to wait for", parseRunId);
  addWatchOptions(command, "stop waiting after this many seconds (exit 3; the run keeps going)").action(
    async (runId: number, flags: ConnectionFlags & WatchFlags) => {
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.env);
      const client = connect(flags, context);
      await watchAndReport(client, runId, context, { json: flags.json === true, timeoutSeconds: flags.timeout, pollIntervalMs });
    },
  );
});

import { parseRunId } from "../arguments.js";
import type { ConnectionFlags } from "../config.js";
import { addConnectionOptions, connect } from "../connect.js";
import { renderRun } from "../format.js";
import { defineCommand } from "./registry.js";
import { addJsonOption } from "./shared-options.js";

interface GetFlags extends ConnectionFlags {
  json?: boolean;
}

/** Shows a run as it is now. Exit 0 whenever it could be read: watching commands report outcomes. */
export const getCommand = defineCommand("get", "show a run's status, links, summary and pull requests", (command, context) => {
  command.argument("<run-id>", "the run's id", parseRunId);
  addJsonOption(command);
  addConnectionOptions(command).action(async (runId: number, flags: GetFlags) => {
    const run = await connect(flags, context).getRun(runId);
    if (flags.json) context.json(run);
    else context.out(renderRun(run));
  });
});

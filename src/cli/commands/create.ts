import { Option } from "commander";
import { AGENT_TYPES, type AgentType, type CreateRunRequest } from "../../service/index.js";
import { collect, parsePositiveInteger } from "../arguments.js";
import { resolvePollIntervalMs } from "../config.js";
import { addConnectionOptions, connect } from "../connect.js";
import { UsageError } from "../errors.js";
import { renderRun } from "../format.js";
import { loadImageArgument } from "../images.js";
import { metadataFromFlag } from "../metadata.js";
import { resolvePrompt } from "../prompt.js";
import { watchAndReport } from "../watch.js";
import { addJsonOption, addPollIntervalOption, addTimeoutOption, type WatchFlags } from "./shared-options.js";
import type { CliCommand } from "./registry.js";
import type { ConnectionFlags } from "../config.js";

interface CreateFlags extends ConnectionFlags, WatchFlags {
  prompt: string;
  repoId?: number;
  model?: string;
  agentType?: AgentType;
  metadata?: string;
  image?: string[];
  wait?: boolean;
}

export const createCommand: CliCommand = {
  name: "create",
  register(program, context) {
    const command = program
      .command("create")
      .description("start an agent run; with --wait, follow it until it ends")
      .requiredOption("--prompt <text>", "the task for the agent; - reads it from stdin")
      .option("--repo-id <n>", "repository to work in", parsePositiveInteger)
      .option("--model <name>", "model for this run (default: the organization's)")
      .addOption(new Option("--agent-type <type>", "agent type (default: the organization's)").choices(AGENT_TYPES))
      .option("--metadata <json>", "JSON object stored with the run; source_type defaults to API")
      .option("--image <file-or-data-uri>", "image for the agent: a PNG/JPEG/GIF/WebP file or a data: URI (repeatable)", collect)
      .option("--wait", "wait until the run ends; exit 1 if it failed");
    addTimeoutOption(command, "with --wait: stop waiting after this many seconds (exit 3; the run keeps going)");
    addPollIntervalOption(command);
    addJsonOption(command);
    addConnectionOptions(command).action(async (flags: CreateFlags) => {
      // Every local check happens before the first request: a usage error sends nothing.
      if (!flags.wait && flags.timeout !== undefined) throw new UsageError("--timeout only applies with --wait.");
      const metadata = metadataFromFlag(flags.metadata);
      const images = await Promise.all((flags.image ?? []).map((value) => loadImageArgument(value, context.cwd)));
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.io.env);
      const prompt = await resolvePrompt(flags.prompt, context.io.stdin);
      const client = connect(flags, context);

      const request: CreateRunRequest = {
        prompt,
        metadata,
        ...(images.length > 0 ? { images } : {}),
        ...(flags.repoId !== undefined ? { repo_id: flags.repoId } : {}),
        ...(flags.model !== undefined ? { model: flags.model } : {}),
        ...(flags.agentType !== undefined ? { agent_type: flags.agentType } : {}),
      };
      const run = await client.createRun(request);
      const json = flags.json === true;

      if (!flags.wait) {
        if (json) context.json(run);
        else context.out(renderRun(run));
        return;
      }
      if (!json) context.out(`created run ${run.id}${run.web_url ? `: ${run.web_url}` : ""}\n`);
      await watchAndReport(client, run.id, context, { json, timeoutSeconds: flags.timeout, pollIntervalMs });
    });
  },
};

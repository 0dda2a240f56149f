import { Option } from "commander";
import { randomUUID } from "node:crypto";
import {
  AGENT_TYPES,
  bridgeMatchOf,
  CREATE_ONCE_DEFAULTS,
  createRunOnce,
  describeMatch,
  OutcomeUnknownError,
  withCreateId,
  type AgentType,
  type CreateRunRequest,
} from "../../service/index.js";
import { collect, parsePositiveInteger } from "../arguments.js";
import { resolvePollIntervalMs, resolveRunsUrl } from "../config.js";
import { connect } from "../connect.js";
import { loadImageArgument } from "../images.js";
import { metadataFromFlag } from "../metadata.js";
import { resolvePrompt } from "../prompt.js";
import { showOrWatchRun } from "../watch.js";
import { addWatchOptions, checkTimeoutNeedsWait, watchChoice, type StartFlags } from "./shared-options.js";
import { defineCommand } from "./registry.js";
import type { ConnectionFlags } from "../config.js";

interface CreateFlags extends ConnectionFlags, StartFlags {
  prompt: string;
  repoId?: number;
  model?: string;
  agentType?: AgentType;
  metadata?: string;
  image?: string[];
}

export const createCommand = defineCommand("create", "start an agent run; with --wait, follow it until it ends", (command, context) => {
  command
    .requiredOption("--prompt <text>", "the task for the agent; - reads it from stdin")
    .option("--repo-id <n>", "repository to work in", parsePositiveInteger)
    .option("--model <name>", "model for this run (default: the organization's)")
    .addOption(new Option("--agent-type <type>", "agent type (default: the organization's)").choices(AGENT_TYPES))
    .option("--metadata <json>", "JSON object stored with the run; source_type defaults to API")
    .option("--image <file-or-data-uri>", "image for the agent: a PNG/JPEG/GIF/WebP file or a data: URI (repeatable)", collect)
    .option("--wait", "wait until the run ends; exit 1 if it failed");
  addWatchOptions(command, "with --wait: stop waiting after this many seconds (exit 3; the run keeps going)").action(
    async (flags: CreateFlags) => {
      // Every local check happens before the first request: a usage error sends nothing.
      checkTimeoutNeedsWait(flags);
      // A create carries an id of its own (unless the caller gave one), so that a lost answer can be found in the runs list.
      const metadata = withCreateId(metadataFromFlag(flags.metadata), `cli-${randomUUID()}`);
      const images = await Promise.all((flags.image ?? []).map((value) => loadImageArgument(value, context.cwd)));
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.env);
      const runsUrl = resolveRunsUrl(context.env);
      const prompt = await resolvePrompt(flags.prompt, context.stdin);
      const client = connect(flags, context);

      const request: CreateRunRequest = {
        prompt,
        metadata,
        ...(images.length > 0 ? { images } : {}),
        ...(flags.repoId !== undefined ? { repo_id: flags.repoId } : {}),
        ...(flags.model !== undefined ? { model: flags.model } : {}),
        ...(flags.agentType !== undefined ? { agent_type: flags.agentType } : {}),
      };
      // A lost answer is looked up in the runs list after one poll interval (the service's create may still be
      // under way), never sent again blindly (exit 4 if unknown).
      const created = await createRunOnce(client, request, {
        settleMs: pollIntervalMs ?? CREATE_ONCE_DEFAULTS.settleMs,
        onAnswerLost: (error) =>
          context.error(`The answer to the create was lost (${error.message}); looking for its run in the runs list.`),
      }).catch((error: unknown) => {
        // Exit 4's one message (main.ts prints it) also names the page where the run would be.
        if (error instanceof OutcomeUnknownError && runsUrl) error.message += ` The organization's runs are on ${runsUrl}.`;
        throw error;
      });
      const run = created.run;
      if (created.kind === "adopted") {
        context.error(
          `Run ${run.id} is the one this create made (found in the runs list by ${describeMatch(bridgeMatchOf(request))}); nothing was sent again.`,
        );
      }
      await showOrWatchRun(client, run, context, { verb: "created", ...watchChoice(flags, pollIntervalMs) });
    },
  );
});

import { LOGS_PAGE_MAX, classifyRunStatus, isFinalPhase, type AgentRunClient, type LogEntry } from "../../service/index.js";
import { sleep } from "../../service/wait.js";
import { parseRunId } from "../arguments.js";
import { resolvePollIntervalMs, type ConnectionFlags } from "../config.js";
import { addConnectionOptions, connect } from "../connect.js";
import type { CliContext } from "../context.js";
import { WatchInterruptedError } from "../errors.js";
import { exitCodeForPhase } from "../exit-codes.js";
import { renderLogEntry, renderPhaseNote } from "../format.js";
import { defineCommand } from "./registry.js";
import { addJsonOption, addPollIntervalOption } from "./shared-options.js";

interface LogsFlags extends ConnectionFlags {
  follow?: boolean;
  json?: boolean;
  pollInterval?: string;
}

/** While following, new entries keep the polling brisk; a quiet run is polled less and less often. */
const FOLLOW_SCHEDULE = { initialMs: 2_000, maxMs: 10_000, factor: 1.5 };

export const logsCommand = defineCommand(
  "logs",
  "print a run's execution log; --follow keeps printing until the run ends",
  (command, context) => {
    command
      .argument("<run-id>", "the run whose log to print", parseRunId)
      .option("-f, --follow", "keep fetching new entries until the run ends, then exit with its outcome (1 if failed)");
    addPollIntervalOption(command);
    addJsonOption(command, "print one JSON log entry per line on stdout");
    addConnectionOptions(command).action(async (runId: number, flags: LogsFlags) => {
      const pollIntervalMs = resolvePollIntervalMs(flags.pollInterval, context.env);
      const client = connect(flags, context);
      const print = (entry: LogEntry) => (flags.json ? context.json(entry, false) : context.out(`${renderLogEntry(entry)}\n`));
      if (!flags.follow) {
        for await (const entry of client.iterateLogs(runId)) print(entry);
        return;
      }
      await followLogs(client, runId, context, { print, json: flags.json === true, pollIntervalMs });
    });
  },
);

interface FollowOptions {
  print: (entry: LogEntry) => void;
  json: boolean;
  pollIntervalMs?: number;
}

/**
 * Pages through the log with `skip` = entries printed so far until the run is final, then reads
 * once more so that entries written as it ended are not lost, and exits with the run's outcome.
 */
async function followLogs(client: AgentRunClient, runId: number, context: CliContext, options: FollowOptions): Promise<void> {
  const initial = options.pollIntervalMs ?? FOLLOW_SCHEDULE.initialMs;
  const max = options.pollIntervalMs ?? FOLLOW_SCHEDULE.maxMs;
  const abort = new AbortController();
  const unsubscribe = context.onSignal((signal) => abort.abort(signal));
  let skip = 0;
  let interval = initial;
  let finalStatus: string | null | undefined;
  let finalSeen = false;
  let webUrl: string | null | undefined;
  try {
    for (;;) {
      const page = await client.listLogs(runId, { skip, limit: LOGS_PAGE_MAX }, { signal: abort.signal });
      webUrl = page.web_url ?? webUrl;
      for (const entry of page.logs) options.print(entry);
      skip += page.logs.length;
      if (page.logs.length >= LOGS_PAGE_MAX) continue;
      if (finalSeen) break;

      // The logs endpoint is ALPHA: when it leaves the status out, ask the run itself.
      const status = page.status ?? (await client.getRun(runId, { signal: abort.signal })).status;
      if (isFinalPhase(classifyRunStatus(status))) {
        finalSeen = true;
        finalStatus = status;
        continue;
      }
      interval = page.logs.length > 0 ? initial : Math.min(max, interval * FOLLOW_SCHEDULE.factor);
      await sleep(interval, abort.signal); // an interruption rejects it, and is told below
    }
  } catch (error) {
    if (abort.signal.aborted) {
      throw new WatchInterruptedError(
        `stopped following run ${runId}; it keeps going${webUrl ? `: follow it at ${webUrl}` : ""}.`,
        undefined,
      );
    }
    throw error;
  } finally {
    unsubscribe();
  }

  const phase = classifyRunStatus(finalStatus);
  if (!options.json) context.out(`run ${runId} ended: ${finalStatus ?? "(no status)"}\n`);
  const note = renderPhaseNote({ id: runId }, phase);
  if (note) context.error(note);
  context.exitCode = exitCodeForPhase(phase);
}

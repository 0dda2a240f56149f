import { Option } from "commander";
import type { RunningEmulator, StatusVocabulary } from "../../emulator/index.js";
import { DEFAULT_ORG_ID, DEFAULT_TOKEN } from "../../emulator/options.js";
import { parsePort, parsePositiveInteger, parsePositiveNumber } from "../arguments.js";
import { UsageError } from "../errors.js";
import { renderEmulatorBanner } from "../format.js";
import { defineCommand } from "./registry.js";

interface EmulatorFlags {
  port: number;
  host: string;
  token?: string;
  org?: number;
  timeScale: number;
  statusVocabulary: StatusVocabulary;
}

/** A stable default so that exported variables keep working across restarts; 0 picks a free port. */
const DEFAULT_EMULATOR_PORT = 4010;
const STATUS_VOCABULARIES: StatusVocabulary[] = ["spec", "deployment"];

export const emulatorCommand = defineCommand(
  "emulator",
  "run a local Agent Run Service emulator until Ctrl-C (SIGINT) or SIGTERM",
  (command, context) => {
    command
      .addOption(new Option("--port <n>", "port to listen on; 0 = any free port").default(DEFAULT_EMULATOR_PORT).argParser(parsePort))
      .option("--host <host>", "interface to listen on", "127.0.0.1")
      .option("--token <token>", `token the emulator accepts (default: ${DEFAULT_TOKEN}, a local token that is not a secret)`)
      .option("--org <id>", `organization id that token may use (default: ${DEFAULT_ORG_ID})`, parsePositiveInteger)
      .addOption(
        new Option("--time-scale <x>", "multiplies every duration and rate-limit window: 0.01 = 100 times faster")
          .default(1)
          .argParser(parsePositiveNumber),
      )
      .addOption(
        new Option("--status-vocabulary <vocabulary>", "spec: queued/running/completed; deployment: PENDING/ACTIVE/COMPLETE")
          .choices(STATUS_VOCABULARIES)
          .default("spec"),
      )
      .action(async (flags: EmulatorFlags) => {
        const emulator = await start(flags);
        // Written unredacted on purpose: this token is the emulator's own, printed so it can be pasted.
        context.outUnredacted(
          renderEmulatorBanner({
            url: emulator.url,
            token: emulator.token,
            orgId: emulator.orgId,
            timeScale: flags.timeScale,
            statusVocabulary: flags.statusVocabulary,
            pollIntervalSeconds: flags.timeScale < 1 ? suggestedPollIntervalSeconds(flags.timeScale) : undefined,
          }),
        );
        const signal = await context.untilShutdownSignal();
        await emulator.close();
        context.error(`emulator stopped (${signal}).`);
      });
  },
);

/**
 * The client's own 2 s poll scaled like the emulator's clock, but not below 0.1 s: the CLI's client
 * budget stays at real-time rates, and a sped-up run should not exhaust it.
 */
function suggestedPollIntervalSeconds(timeScale: number): number {
  return Math.max(0.1, Math.round(2 * timeScale * 1000) / 1000);
}

async function start(flags: EmulatorFlags): Promise<RunningEmulator> {
  const tokens =
    flags.token !== undefined || flags.org !== undefined
      ? [{ token: flags.token ?? DEFAULT_TOKEN, orgIds: [flags.org ?? DEFAULT_ORG_ID] }]
      : undefined;
  // Loaded on demand: the server stack would slow every other command's start.
  const { startEmulator } = await import("../../emulator/index.js");
  try {
    return await startEmulator({
      host: flags.host,
      port: flags.port,
      timeScale: flags.timeScale,
      statusVocabulary: flags.statusVocabulary,
      ...(tokens ? { tokens } : {}),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EADDRINUSE") {
      throw new UsageError(`port ${flags.port} on ${flags.host} is already in use: pass --port with another port (0 = any free port).`);
    }
    if (code === "EACCES") throw new UsageError(`not allowed to listen on ${flags.host}:${flags.port}: pass --port above 1024.`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
      throw new UsageError(`cannot listen on --host ${flags.host}: no such local address.`);
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The App's logger: Probot's own (pino with Probot's pretty or JSON formatting), with every line
 * passing the App's redaction before it is written, and what a terminal would act on in it (a
 * service error body's escape sequences, say) shown escaped (core/terminal-text.ts), in JSON and
 * pretty output alike. pino's `streamWrite` hook sees each finished line, message and fields alike,
 * so no log call can forget it.
 *
 * pino and @probot/pino are Probot's dependencies, resolved from Probot's own location: the App
 * formats its logs exactly as Probot would, and needs no package of its own for it.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Logger } from "probot";
import type { Redactor } from "../core/redact.js";
import { escapeJsonLogLineForTerminal } from "../core/terminal-text.js";
import type { AppSettings } from "./env.js";

interface PinoModule {
  default: (options: object, stream: NodeJS.WritableStream) => Logger;
  destination: (fd: number) => NodeJS.WritableStream;
}

interface ProbotPinoModule {
  getTransformStream(options: { logFormat?: "pretty" | "json"; logLevelInString?: boolean }): Promise<NodeJS.ReadWriteStream>;
}

/** Imports one of Probot's own dependencies. */
async function importBesideProbot<T>(name: string): Promise<T> {
  const fromProbot = createRequire(fileURLToPath(import.meta.resolve("probot")));
  return (await import(pathToFileURL(fromProbot.resolve(name)).href)) as T;
}

/** A logger like Probot's default one (`name: probot`, level and format from the settings) whose every line is redacted. */
export async function createRedactingLogger(settings: Pick<AppSettings, "logLevel" | "logFormat">, redactor: Redactor): Promise<Logger> {
  const pino = await importBesideProbot<PinoModule>("pino");
  const { getTransformStream } = await importBesideProbot<ProbotPinoModule>("@probot/pino");
  const transform = await getTransformStream({ logFormat: settings.logFormat });
  transform.pipe(pino.destination(1));
  return pino.default(
    {
      level: settings.logLevel,
      name: "probot",
      messageKey: "msg",
      hooks: { streamWrite: (line: string) => escapeJsonLogLineForTerminal(redactor.redact(line)) },
    },
    transform,
  );
}

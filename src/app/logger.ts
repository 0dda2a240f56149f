/**
 * The App's logger: Probot's own (pino with Probot's pretty or JSON formatting), with every line
 * passing the App's redaction before it is written, and what a terminal would act on in it (a
 * service error body's escape sequences, say) shown escaped (core/terminal-text.ts), in JSON and
 * pretty output alike. pino's `streamWrite` hook sees each finished line, message and fields alike,
 * so no log call can forget it.
 *
 * Errors are logged without what users wrote (logSafeErrorSerializer): when a webhook handler
 * throws, @octokit/webhooks attaches the whole event to the error, payload and all, and Probot logs it.
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
  stdSerializers: { err: ErrorSerializer };
}

type ErrorSerializer = (error: unknown) => unknown;

/**
 * What an error may carry that holds users' text or credentials, whatever its type: the event
 * @octokit/webhooks attaches to a handler's error (its `payload`: comments, titles, bodies), an
 * Octokit RequestError's `request` (headers, body) and `response` (headers, data).
 */
const UNLOGGED_ERROR_KEYS: ReadonlySet<string> = new Set(["event", "payload", "request", "response", "headers", "body", "data"]);

const isPlain = (value: unknown) => value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * pino's `err` serializer (`standard`: type, message and stack with their causes) keeping only what an
 * operator needs: the plain values (name, message, stack, status, code…), never an object the error
 * carries; each error of an AggregateError the same way; of a delivery's event, its id and name.
 */
function logSafeErrorSerializer(standard: ErrorSerializer): ErrorSerializer {
  const serialize = (error: unknown): unknown => {
    const full = standard(error);
    // Not an error: pino logs it as it is.
    if (full === error || full === null || typeof full !== "object") return full;
    const safe: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(full)) if (!UNLOGGED_ERROR_KEYS.has(key) && isPlain(value)) safe[key] = value;
    const { errors, event } = error as { errors?: unknown; event?: { id?: unknown; name?: unknown } | null };
    if (Array.isArray(errors)) safe.aggregateErrors = errors.map(serialize);
    if (typeof event?.id === "string") safe.delivery = event.id;
    if (typeof event?.name === "string") safe.event = event.name;
    return safe;
  };
  return serialize;
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
      serializers: { err: logSafeErrorSerializer(pino.stdSerializers.err) },
      hooks: { streamWrite: (line: string) => escapeJsonLogLineForTerminal(redactor.redact(line)) },
    },
    transform,
  );
}

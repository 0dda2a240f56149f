/**
 * Whether a signed webhook body is one the App can use, decided before anything turns it into
 * objects that are copied or logged. First a scan of the raw bytes (a loop with a counter, no
 * recursion, nothing built) bounds the nesting and the number of entries; then `JSON.parse`; then,
 * for the events the App acts on, the fields it reads (payloads.ts) and an installation it can act
 * as. Every "no" has a code and a sentence that names fields and kinds of values, never the values.
 */
import { describeGivenKind } from "../../config/issues.js";
import { isKnownEventName, knownPayloadProblems } from "./payloads.js";

/**
 * Objects and arrays nested deeper than this are refused. GitHub's payloads nest at most 7 levels
 * (every example in @octokit/webhooks-examples); loggers and copiers give up at 1,000 (pino-pretty's
 * copy), and recursive code before that.
 */
export const MAX_PAYLOAD_DEPTH = 64;

/**
 * Object members and array elements, together, beyond which a payload is refused: GitHub's largest
 * examples hold about 1,000. Parsing is linear, but checking a field that should be an object and is
 * a list of a million is not (one problem per element).
 */
export const MAX_PAYLOAD_ENTRIES = 100_000;

/** How many problems a refusal lists; the rest are counted. */
const MAX_PROBLEMS = 5;

export type UnusablePayloadCode =
  "payload_too_deep" | "payload_too_many_entries" | "payload_not_json" | "payload_not_an_object" | "payload_fields_unusable";

export type PayloadVerdict =
  | { usable: true }
  | {
      usable: false;
      code: UnusablePayloadCode;
      /** One sentence for the sender (GitHub shows it in the App's delivery log) and the log line. */
      reason: string;
      /** Field paths and what is wrong with each, at most MAX_PROBLEMS and a count of the rest. */
      problems: string[];
    };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export type JsonBound = "depth" | "entries";

/** A scan fed the body chunk by chunk, as it arrives: `feed` says which bound was passed first, if any. */
export interface JsonBoundsScan {
  feed(chunk: Uint8Array): JsonBound | null;
}

/**
 * Reads each byte once, front to back, across chunks: brackets outside strings count the nesting,
 * commas the entries; a string is skipped by native search for its closing quote (a quote after an odd
 * run of backslashes is escaped). UTF-8 never uses these bytes inside a multi-byte character, so the
 * bytes need no decoding. Malformed JSON is JSON.parse's to find.
 */
export function createJsonBoundsScan(maxDepth = MAX_PAYLOAD_DEPTH, maxEntries = MAX_PAYLOAD_ENTRIES): JsonBoundsScan {
  let depth = 0;
  let entries = 1;
  let inString = false;
  /** Backslashes that ended the previous chunk inside a string. */
  let carriedBackslashes = 0;
  let passed: JsonBound | null = null;

  /** Backslashes right before `at`, counting those the previous chunk ended with when the run reaches this one's start. */
  const backslashesBefore = (chunk: Uint8Array, at: number) => {
    let run = 0;
    while (at - 1 - run >= 0 && chunk[at - 1 - run] === BACKSLASH) run++;
    return run === at ? run + carriedBackslashes : run;
  };

  const scan = (chunk: Uint8Array): JsonBound | null => {
    let i = 0;
    while (i < chunk.length) {
      if (inString) {
        let quote = chunk.indexOf(QUOTE, i);
        while (quote !== -1 && backslashesBefore(chunk, quote) % 2 === 1) quote = chunk.indexOf(QUOTE, quote + 1);
        if (quote === -1) {
          carriedBackslashes = backslashesBefore(chunk, chunk.length);
          return null;
        }
        inString = false;
        carriedBackslashes = 0;
        i = quote + 1;
        continue;
      }
      const byte = chunk[i];
      if (byte === QUOTE) {
        // Backslashes carried from an earlier chunk belong to an earlier string; a run in this one stops at this quote.
        inString = true;
        carriedBackslashes = 0;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > maxDepth) return "depth";
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
      else if (byte === COMMA && ++entries > maxEntries) return "entries";
      i++;
    }
    return null;
  };

  return {
    feed(chunk) {
      passed ??= scan(chunk);
      return passed;
    },
  };
}

/** Which bound a whole body passes first, if any. */
export function exceededJsonBound(body: Uint8Array, maxDepth = MAX_PAYLOAD_DEPTH, maxEntries = MAX_PAYLOAD_ENTRIES): JsonBound | null {
  return createJsonBoundsScan(maxDepth, maxEntries).feed(body);
}

/** What is wrong with the installation a delivery names, if anything: the App acts only as an installation. */
function installationProblem(payload: Record<string, unknown>): string | null {
  const installation = payload.installation;
  if (installation === undefined || installation === null)
    return "`installation`: missing (a delivery to a GitHub App names the installation it is for)";
  if (typeof installation !== "object" || Array.isArray(installation))
    return `\`installation\`: must be an object with an \`id\` (got ${describeGivenKind(installation)})`;
  const id = (installation as Record<string, unknown>).id;
  if (typeof id === "number" && Number.isSafeInteger(id) && id > 0) return null;
  return `\`installation.id\`: must be a positive integer (got ${id === undefined ? "nothing" : describeGivenKind(id)})`;
}

function unusable(code: UnusablePayloadCode, reason: string, problems: string[] = []): PayloadVerdict {
  return { usable: false, code, reason, problems };
}

/**
 * Judges a signed delivery's body: `bound` is what its scan found (`createJsonBoundsScan`, fed as the
 * bytes arrived), `text` the body. `event` is `x-github-event` (null when absent); `actsOn` lists the
 * events the App subscribes to: only those are held to the fields the App reads. Others (a `ping`,
 * say) need only be a JSON object within the bounds.
 */
export function judgeDeliveryPayload(
  event: string | null,
  bound: JsonBound | null,
  text: string,
  actsOn: ReadonlySet<string>,
): PayloadVerdict {
  if (bound === "depth")
    return unusable(
      "payload_too_deep",
      `The payload nests objects or arrays more than ${MAX_PAYLOAD_DEPTH} levels deep; GitHub's nest fewer than 10.`,
    );
  if (bound === "entries")
    return unusable("payload_too_many_entries", `The payload holds more than ${MAX_PAYLOAD_ENTRIES} object members and array elements.`);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return unusable("payload_not_json", "The payload is not valid JSON.");
  }
  if (payload === null || typeof payload !== "object" || Array.isArray(payload))
    return unusable("payload_not_an_object", `The payload must be a JSON object (got ${describeGivenKind(payload)}).`);
  if (event === null || !actsOn.has(event)) return { usable: true };

  const fields = payload as Record<string, unknown>;
  const installation = installationProblem(fields);
  // With the installation already named as wrong, the schema is not asked about it again.
  const rest = isKnownEventName(event)
    ? knownPayloadProblems(event, installation ? { ...fields, installation: undefined } : fields, MAX_PROBLEMS)
    : [];
  const problems = installation ? [installation, ...rest] : rest;
  if (problems.length === 0) return { usable: true };
  return unusable("payload_fields_unusable", `The "${event}" payload lacks fields the App reads, or has them of the wrong kind.`, problems);
}

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

/** Where the string that opened before `from` ends (its closing quote), or -1; found natively, so a huge string costs little. */
function endOfString(body: Uint8Array, from: number): number {
  for (let quote = body.indexOf(QUOTE, from); quote !== -1; quote = body.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    // An odd run of backslashes escapes the quote; an even one is escaped backslashes.
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/**
 * Which bound the JSON text passes first, if any. Reads the bytes once, front to back: brackets
 * outside strings count the nesting, commas the entries. UTF-8 never uses these bytes inside a
 * multi-byte character, so the bytes need no decoding. Malformed JSON is JSON.parse's to find.
 */
export function exceededJsonBound(
  body: Uint8Array,
  maxDepth = MAX_PAYLOAD_DEPTH,
  maxEntries = MAX_PAYLOAD_ENTRIES,
): "depth" | "entries" | null {
  let depth = 0;
  let entries = 1;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === QUOTE) {
      i = endOfString(body, i + 1);
      if (i === -1) return null;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > maxDepth) return "depth";
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
    else if (byte === COMMA && ++entries > maxEntries) return "entries";
  }
  return null;
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
 * Judges a signed delivery's body. `event` is `x-github-event` (null when absent); `actsOn` lists the
 * events the App subscribes to: only those are held to the fields the App reads. Others (a `ping`,
 * say) need only be a JSON object within the bounds.
 */
export function judgeDeliveryPayload(event: string | null, body: Uint8Array, text: string, actsOn: ReadonlySet<string>): PayloadVerdict {
  const bound = exceededJsonBound(body);
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

/**
 * Reading markers: the run marker, or the marker of another kind (with the thread it names), from
 * a comment body alone. A marker is one whole line; a comment holds exactly one marker (a second
 * one, of any kind, makes the comment unreadable rather than ambiguous); the JSON is validated
 * strictly and bounded in size. Whose comment it is, is trust.ts's question: anybody can paste a perfect marker.
 */
import { GITHUB_COMMENT_MAX_LENGTH } from "../render/fit.js";
import { MARKER_NAMESPACE, MARKER_OPENING } from "../sanitize-output/safe-markdown.js";
import { MARKER_SIGNATURE_SUFFIX } from "./signature.js";
import {
  BOT_COMMENT_KINDS,
  KindMarkerPlaceSchema,
  MARKER_LIMITS,
  OverLimitMarkerSchema,
  RunMarkerSchema,
  type KindMarker,
  type RunMarker,
} from "./schema.js";

// Each may end with the Action's signature (signature.ts), checked by trust.ts, not here.
const SIG = `(?:${MARKER_SIGNATURE_SUFFIX})?`;
const RUN_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:run (\\{[^\\n]*\\})${SIG} -->[ \\t]*$`, "m");
// A kind marker's JSON (its thread, an over-limit reply's limit) is small: 400 characters bound it.
const KIND_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:([a-z_]+)(?: (\\{[^\\n]{1,400}\\}))?${SIG} -->[ \\t]*$`, "m");

// Bodies longer than GitHub allows (GITHUB_COMMENT_MAX_LENGTH) are not ours.

function countMarkerOpenings(body: string): number {
  return body.match(MARKER_OPENING)?.length ?? 0;
}

/** The run marker of a comment body, or null when there is none, more than one, or it is malformed. */
export function parseMarker(body: string | null | undefined): RunMarker | null {
  if (!body || body.length > GITHUB_COMMENT_MAX_LENGTH) return null;
  if (countMarkerOpenings(body) !== 1) return null;
  const line = RUN_MARKER_LINE.exec(body);
  if (!line || line[1]!.length > MARKER_LIMITS.json) return null;
  const parsed = RunMarkerSchema.safeParse(parseJson(line[1]!));
  return parsed.success ? parsed.data : null;
}

/** `text` as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The marker of a bot comment of a kind other than `run` (refusal, stop, over-limit reply…), with the
 * thread it names (null: written before kind markers named one), or null when there is none, more
 * than one marker, or it is malformed. Does not check the author.
 */
export function parseKindMarker(body: string | null | undefined): KindMarker | null {
  if (!body || body.length > GITHUB_COMMENT_MAX_LENGTH || countMarkerOpenings(body) !== 1) return null;
  const line = KIND_MARKER_LINE.exec(body);
  const kind = line?.[1];
  if (!line || kind === undefined || kind === "run" || !(BOT_COMMENT_KINDS as readonly string[]).includes(kind)) return null;
  const json = line[2] === undefined ? undefined : parseJson(line[2]);
  if (kind === "over_limit") {
    const parsed = OverLimitMarkerSchema.safeParse(json);
    if (!parsed.success) return null;
    const place = parsed.data.v === 1 ? null : { repository: parsed.data.repo, thread: parsed.data.thread };
    return { kind, place, limit: parsed.data.limit };
  }
  if (line[2] === undefined) return { kind: kind as KindMarker["kind"], place: null };
  const parsed = KindMarkerPlaceSchema.safeParse(json);
  return parsed.success ? { kind: kind as KindMarker["kind"], place: { repository: parsed.data.repo, thread: parsed.data.thread } } : null;
}

/**
 * Reading markers: the run marker, the over-limit marker or the kind of a bot comment, from its
 * body alone. A marker is one whole line; a comment holds exactly one marker (a second one, of any
 * kind, makes the comment unreadable rather than ambiguous); the JSON is validated strictly and
 * bounded in size. Whose comment it is, is trust.ts's question: anybody can paste a perfect marker.
 */
import type { RunLimitName } from "../../config/schema.js";
import { GITHUB_COMMENT_MAX_LENGTH } from "../render/fit.js";
import { MARKER_NAMESPACE, MARKER_OPENING } from "../sanitize-output/safe-markdown.js";
import { MARKER_SIGNATURE_SUFFIX } from "./signature.js";
import { BOT_COMMENT_KINDS, MARKER_LIMITS, OverLimitMarkerSchema, RunMarkerSchema, type BotCommentKind, type RunMarker } from "./schema.js";

// Each may end with the Action's signature (signature.ts), checked by trust.ts, not here.
const SIG = `(?:${MARKER_SIGNATURE_SUFFIX})?`;
const RUN_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:run (\\{[^\\n]*\\})${SIG} -->[ \\t]*$`, "m");
const KIND_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:([a-z_]+)${SIG} -->[ \\t]*$`, "m");
const OVER_LIMIT_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:over_limit (\\{[^\\n]{1,200}\\})${SIG} -->[ \\t]*$`, "m");

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
  let json: unknown;
  try {
    json = JSON.parse(line[1]!);
  } catch {
    return null;
  }
  const parsed = RunMarkerSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The limit an over-limit reply answered, or null when the body is not one. Does not check the author. */
export function parseOverLimitMarker(body: string | null | undefined): RunLimitName | null {
  if (!body || body.length > GITHUB_COMMENT_MAX_LENGTH || countMarkerOpenings(body) !== 1) return null;
  const line = OVER_LIMIT_MARKER_LINE.exec(body);
  if (!line) return null;
  try {
    const parsed = OverLimitMarkerSchema.safeParse(JSON.parse(line[1]!));
    return parsed.success ? parsed.data.limit : null;
  } catch {
    return null;
  }
}

/** Which kind of bot comment a body is (by its single marker), or null. Does not check the author. */
export function parseCommentKind(body: string | null | undefined): BotCommentKind | null {
  if (!body || body.length > GITHUB_COMMENT_MAX_LENGTH) return null;
  if (parseMarker(body) !== null) return "run";
  if (parseOverLimitMarker(body) !== null) return "over_limit";
  if (countMarkerOpenings(body) !== 1) return null;
  const kind = KIND_MARKER_LINE.exec(body)?.[1];
  return kind !== undefined && kind !== "run" && kind !== "over_limit" && (BOT_COMMENT_KINDS as readonly string[]).includes(kind)
    ? (kind as BotCommentKind)
    : null;
}

/**
 * Writing markers: the one marker line a bot comment starts with (a run marker's JSON in a fixed key
 * order, so the same marker always renders to the same line), and the markers of each step of a run
 * (new, with its branches, done with an outcome), and the binding of a kind marker to its thread.
 * `<`, `>` and `&` inside the JSON are written as `\u003c`…, so a marker can never contain `-->`.
 */
import type { RunPhase } from "../../service/status.js";
import type { AgentRun, SourceType } from "../../service/wire.js";
import type { RunLimitName } from "../../config/schema.js";
import { MARKER_NAMESPACE } from "../sanitize-output/safe-markdown.js";
import type { CommentBody } from "../render/fit.js";
import { parseKindMarker } from "./read.js";
import {
  BranchSchema,
  KIND_MARKER_VERSION,
  KindMarkerPlaceSchema,
  MARKER_LIMITS,
  normalizeBranch,
  RunMarkerSchema,
  RUN_MARKER_VERSION,
  type BotCommentKind,
  type MarkerPlace,
  type RunMarker,
  type RunMarkerState,
  type RunOutcome,
} from "./schema.js";

/** JSON with `<`, `>`, `&` and line separators escaped: cannot end the HTML comment or the line. */
function markerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The marker line. Throws a TypeError naming the problem when `marker` is invalid (a bridge bug, not user input). */
export function renderMarker(marker: RunMarker): string {
  const checked = RunMarkerSchema.safeParse(marker);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join(".") || "marker"}: ${issue.message}`);
    throw new TypeError(`renderMarker: invalid run marker (${issues.join("; ")})`);
  }
  const m = checked.data;
  // Fixed key order: the same marker always renders to the same line.
  const ordered = {
    v: m.v,
    ...(m.repo !== undefined ? { repo: m.repo, thread: m.thread } : {}),
    runId: m.runId,
    orgId: m.orgId,
    sourceType: m.sourceType,
    branches: m.branches,
    state: m.state,
    ...(m.outcome !== undefined ? { outcome: m.outcome } : {}),
    ...(m.requestId !== undefined ? { requestId: m.requestId } : {}),
    ...(m.headSha !== undefined ? { headSha: m.headSha } : {}),
    ...(m.automation !== undefined ? { automation: m.automation } : {}),
  };
  const json = markerJson(ordered);
  if (json.length > MARKER_LIMITS.json) {
    throw new TypeError(`renderMarker: the marker JSON is ${json.length} characters, over the ${MARKER_LIMITS.json} limit`);
  }
  return `<!-- ${MARKER_NAMESPACE}:run ${json} -->`;
}

/** The JSON of a kind marker bound to `place`, in a fixed key order. */
function kindPlaceFields(place: MarkerPlace) {
  return { v: KIND_MARKER_VERSION, repo: place.repository, thread: place.thread };
}

/**
 * The marker line of a comment kind (refusals, config errors…). Renderers write it without a place;
 * the door out binds it to the thread it is posted in (`bindKindMarker`).
 */
export function renderKindMarker(kind: Exclude<BotCommentKind, "run" | "over_limit">, place: MarkerPlace | null = null): string {
  return place ? `<!-- ${MARKER_NAMESPACE}:${kind} ${markerJson(kindPlaceFields(place))} -->` : `<!-- ${MARKER_NAMESPACE}:${kind} -->`;
}

/** The marker of an over-limit reply: which limit it answered, so that a thread hears it once per window. */
export function renderOverLimitMarker(limit: RunLimitName, place: MarkerPlace | null = null): string {
  return `<!-- ${MARKER_NAMESPACE}:over_limit ${markerJson(place ? { ...kindPlaceFields(place), limit } : { v: 1, limit })} -->`;
}

/** The characters binding adds to a kind marker at most (repository and thread number at their bounds). */
const KIND_MARKER_PLACE_LENGTH =
  markerJson(kindPlaceFields({ repository: "x".repeat(MARKER_LIMITS.repository), thread: 2 ** 53 })).length + 1;

// The one marker line of a body, unsigned (binding comes before signing).
const KIND_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:[a-z_]+(?: \\{[^\\n]*\\})? -->`, "m");

/**
 * The body with its kind marker bound to the thread at `place` (the marker names the repository
 * and the thread, so that a copy in another thread is not believed there). Run markers carry their
 * place from newRunMarker, and a body with a bound marker or none is returned as is.
 */
export function bindKindMarker(body: string, place: MarkerPlace): string {
  const found = parseKindMarker(body);
  if (!found || found.place !== null || !KindMarkerPlaceSchema.safeParse(kindPlaceFields(place)).success) return body;
  if (found.kind !== "over_limit") return body.replace(KIND_LINE, renderKindMarker(found.kind, place));
  return found.limit ? body.replace(KIND_LINE, renderOverLimitMarker(found.limit, place)) : body;
}

/** `bindKindMarker` for a body the door may render at a maximum length: room is left for the place. */
export function bindCommentBody(body: CommentBody, place: MarkerPlace): CommentBody {
  return typeof body === "string"
    ? bindKindMarker(body, place)
    : (maxLength) => bindKindMarker(body(maxLength - KIND_MARKER_PLACE_LENGTH), place);
}

// ---------------------------------------------------------------------------------------------
// Transitions

/** What a watcher's last word says about how the run ended. */
export function outcomeForPhase(phase: RunPhase): RunOutcome {
  return phase === "in_progress" ? "watch_timed_out" : phase;
}

/** Adds branches (deduplicated, newest last), keeping the most recent that fit the marker's bounds. */
export function withBranches(marker: RunMarker, branches: readonly (string | null | undefined)[]): RunMarker {
  const merged: string[] = [];
  for (const branch of [...marker.branches, ...branches]) {
    if (!branch) continue;
    const name = normalizeBranch(branch);
    if (!BranchSchema.safeParse(name).success) continue;
    const existing = merged.indexOf(name);
    if (existing !== -1) merged.splice(existing, 1);
    merged.push(name);
  }
  return { ...marker, branches: merged.slice(-MARKER_LIMITS.branches) };
}

/** The marker of a result comment: `done`, with the outcome and the head branches of the run's pull requests. */
export function resultMarker(marker: RunMarker, run: AgentRun, phase: RunPhase): RunMarker {
  const prBranches = (run.git_host_pull_requests ?? []).map((pr) => pr.head_branch_name);
  return { ...withBranches(marker, prBranches), runId: run.id, state: "done", outcome: outcomeForPhase(phase) };
}

/** A fresh marker for a run (or a queued request) from what the caller knows, bound to the thread it is written in (null: none, never posted). */
export function newRunMarker(fields: {
  place: MarkerPlace | null;
  runId: number | null;
  orgId: number;
  sourceType: SourceType;
  state?: Exclude<RunMarkerState, "done">;
  branches?: string[];
  requestId?: string;
  headSha?: string;
  automation?: string;
}): RunMarker {
  const state = fields.state ?? (fields.runId === null ? "queued" : "running");
  return withBranches(
    {
      v: RUN_MARKER_VERSION,
      ...(fields.place ? { repo: fields.place.repository, thread: fields.place.thread } : {}),
      runId: fields.runId,
      orgId: fields.orgId,
      sourceType: fields.sourceType,
      branches: [],
      state,
      ...(fields.requestId !== undefined ? { requestId: fields.requestId } : {}),
      ...(fields.headSha !== undefined ? { headSha: fields.headSha } : {}),
      ...(fields.automation !== undefined ? { automation: fields.automation } : {}),
    },
    fields.branches ?? [],
  );
}

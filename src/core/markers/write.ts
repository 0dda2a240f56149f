/**
 * Writing markers: the one marker line a bot comment starts with (a run marker's JSON in a fixed key
 * order, so the same marker always renders to the same line), and the markers of each step of a run
 * (new, with its branches, done with an outcome). `<`, `>` and `&` inside the JSON are written as
 * `\u003c`…, so a marker can never contain `-->`.
 */
import type { RunPhase } from "../../service/status.js";
import type { AgentRun, SourceType } from "../../service/wire.js";
import type { RunLimitName } from "../../config/schema.js";
import { MARKER_NAMESPACE } from "../sanitize-output/safe-markdown.js";
import {
  BranchSchema,
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

/** The marker line of a comment kind without JSON (refusals, config errors…). */
export function renderKindMarker(kind: Exclude<BotCommentKind, "run" | "over_limit">): string {
  return `<!-- ${MARKER_NAMESPACE}:${kind} -->`;
}

/** The marker of an over-limit reply: which limit it answered, so that a thread hears it once per window. */
export function renderOverLimitMarker(limit: RunLimitName): string {
  return `<!-- ${MARKER_NAMESPACE}:over_limit ${markerJson({ v: 1, limit })} -->`;
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

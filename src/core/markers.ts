/**
 * The hidden markers the bot writes into its own comments, so that the thread itself remembers
 * which run it belongs to (no database needed, e.g. in the Action):
 *
 *   <!-- agent-run-bridge:run {"v":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->
 *   <!-- agent-run-bridge:refusal -->
 *   <!-- agent-run-bridge:over_limit {"v":1,"limit":"runs_per_repo_per_hour"} -->
 *
 * Rules: a marker is one whole line; a comment holds exactly one marker (a second one, of any
 * kind, makes the comment unreadable rather than ambiguous); the JSON is validated strictly and
 * bounded in size; `<`, `>` and `&` inside it are written as `\u003c`… so it can never contain
 * `-->`. Only comments written by one of the bot's own logins are trusted: anybody can paste a
 * perfect marker into a comment of their own.
 *
 * The run marker's `state` is also the delivery record: the result comment says `"state":"done"`,
 * so a restarted watcher that finds it knows the result was already posted.
 */
import { classifyActor, isBotAccount } from "./actors.js";
import * as z from "zod/mini";
import type { RunPhase } from "../service/status.js";
import type { AgentRun, SourceType } from "../service/wire.js";
import { SOURCE, SourceTypeSchema } from "../service/wire.js";
import { RUN_LIMIT_NAMES, type RunLimitName } from "../config/schema.js";
import { MARKER_NAMESPACE, MARKER_OPENING } from "./sanitize-output.js";

/** `queued`: waiting for rate budget (no run yet, or a resume not sent yet); `running`: being watched; `done`: the bridge's last word is posted. */
export const RUN_MARKER_STATES = ["queued", "running", "done"] as const;
export type RunMarkerState = (typeof RUN_MARKER_STATES)[number];

/**
 * How a `done` run ended, as far as the bridge saw it; `stopped`: the run was stopped or cancelled on
 * the service, or someone said `/agent stop` and the bridge stopped watching (the run itself may go
 * on: the service has no cancel call); `watch_timed_out`: still running when the watch gave up.
 */
export const RUN_OUTCOMES = ["succeeded", "failed", "stopped", "waiting_for_input", "unknown", "watch_timed_out"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Bounds: a marker stays small whatever a run produced. */
export const MARKER_LIMITS = { json: 3000, branches: 10, branchLength: 200, requestId: 100 } as const;

// Built on first use (`z.lazy`), like the wire schemas: a step that reads no marker builds none.
const BranchSchema = z.lazy(() =>
  z.string().check(
    z.minLength(1),
    z.maxLength(MARKER_LIMITS.branchLength),
    // eslint-disable-next-line no-control-regex
    z.regex(/^[^\s\u0000-\u001f\u007f]+$/, { error: "a branch name has no whitespace or control characters" }),
  ),
);

export const RunMarkerSchema = z.lazy(() =>
  z
    .strictObject({
      v: z.literal(1),
      /** Null only while `queued` for a run that does not exist yet (and after a stop that came before it did). */
      runId: z.nullable(z.int().check(z.nonnegative())),
      orgId: z.int().check(z.nonnegative()),
      sourceType: SourceTypeSchema,
      /** Head branches the run works on or produced, newest last. */
      branches: z.array(BranchSchema).check(z.maxLength(MARKER_LIMITS.branches)),
      state: z.enum(RUN_MARKER_STATES),
      /** Set exactly when `state` is `done`. */
      outcome: z.optional(z.enum(RUN_OUTCOMES)),
      /** What started this cycle (e.g. the webhook delivery id): a redelivery finds its comment. */
      requestId: z.optional(z.string().check(z.maxLength(MARKER_LIMITS.requestId), z.regex(/^[A-Za-z0-9._:-]+$/))),
      /** For CI fixes: the head commit whose failure this cycle answers. */
      headSha: z.optional(z.string().check(z.regex(/^[0-9a-f]{40}$/))),
    })
    .check(
      z.superRefine((marker, ctx) => {
        // A request stopped before its run existed ends without one.
        if (marker.runId === null && marker.state !== "queued" && marker.outcome !== "stopped") {
          ctx.addIssue({ code: "custom", path: ["runId"], message: `a "${marker.state}" marker needs a runId` });
        }
        if ((marker.state === "done") !== (marker.outcome !== undefined)) {
          ctx.addIssue({ code: "custom", path: ["outcome"], message: "outcome is set exactly when state is done" });
        }
      }),
    ),
);

export type RunMarker = z.infer<typeof RunMarkerSchema>;

/** Kinds of bot comments; `run` and `over_limit` carry JSON. `stop` answers a `/agent stop`. */
export const BOT_COMMENT_KINDS = ["run", "refusal", "config_error", "hand_back", "service_error", "over_limit", "stop"] as const;
export type BotCommentKind = (typeof BOT_COMMENT_KINDS)[number];

/** The shape of an issue comment as the GitHub REST API returns it (only what trust needs). */
export interface ThreadComment {
  id: number;
  body?: string | null;
  /** ISO 8601; needed only by readers that count by time (spend limits). */
  created_at?: string | null;
  user?: { login: string; type?: string } | null;
  performed_via_github_app?: { slug?: string } | null;
}

/** Who the bot is: its comment author logins, e.g. `my-app[bot]` (App) or `github-actions[bot]` (Action). */
export interface BotIdentity {
  botLogins: string[];
}

export interface FoundRunMarker {
  marker: RunMarker;
  commentId: number;
}

// ---------------------------------------------------------------------------------------------
// Writing

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
    runId: m.runId,
    orgId: m.orgId,
    sourceType: m.sourceType,
    branches: m.branches,
    state: m.state,
    ...(m.outcome !== undefined ? { outcome: m.outcome } : {}),
    ...(m.requestId !== undefined ? { requestId: m.requestId } : {}),
    ...(m.headSha !== undefined ? { headSha: m.headSha } : {}),
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

const OverLimitMarkerSchema = z.lazy(() => z.strictObject({ v: z.literal(1), limit: z.enum(RUN_LIMIT_NAMES) }));

/** The marker of an over-limit reply: which limit it answered, so that a thread hears it once per window. */
export function renderOverLimitMarker(limit: RunLimitName): string {
  return `<!-- ${MARKER_NAMESPACE}:over_limit ${markerJson({ v: 1, limit })} -->`;
}

// ---------------------------------------------------------------------------------------------
// Reading

const RUN_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:run (\\{[^\\n]*\\}) -->[ \\t]*$`, "m");
const KIND_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:([a-z_]+) -->[ \\t]*$`, "m");
const OVER_LIMIT_MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:over_limit (\\{[^\\n]{1,200}\\}) -->[ \\t]*$`, "m");

/** Bodies longer than GitHub allows are not ours. */
const MAX_BODY_LENGTH = 65_536;

function countMarkerOpenings(body: string): number {
  return body.match(MARKER_OPENING)?.length ?? 0;
}

/** The run marker of a comment body, or null when there is none, more than one, or it is malformed. */
export function parseMarker(body: string | null | undefined): RunMarker | null {
  if (!body || body.length > MAX_BODY_LENGTH) return null;
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
  if (!body || body.length > MAX_BODY_LENGTH || countMarkerOpenings(body) !== 1) return null;
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
  if (!body || body.length > MAX_BODY_LENGTH) return null;
  if (parseMarker(body) !== null) return "run";
  if (parseOverLimitMarker(body) !== null) return "over_limit";
  if (countMarkerOpenings(body) !== 1) return null;
  const kind = KIND_MARKER_LINE.exec(body)?.[1];
  return kind !== undefined && kind !== "run" && kind !== "over_limit" && (BOT_COMMENT_KINDS as readonly string[]).includes(kind) ? (kind as BotCommentKind) : null;
}

/**
 * Whether the bot wrote this comment. Logins compare case-insensitively (GitHub logins do); a
 * `…[bot]` login must not come with a user type other than `Bot`.
 */
export function isTrustedAuthor(comment: ThreadComment, self: BotIdentity): boolean {
  const login = comment.user?.login;
  if (!login || classifyActor(login, self) !== "self") return false;
  const type = comment.user?.type;
  return !(isBotAccount(login) && type !== undefined && type !== "Bot");
}

/** Every run marker the bot wrote in the thread, newest first (by comment id: GitHub ids increase). */
export function listTrustedRunMarkers(comments: readonly ThreadComment[], self: BotIdentity): FoundRunMarker[] {
  const found: FoundRunMarker[] = [];
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self)) continue;
    const marker = parseMarker(comment.body);
    if (marker) found.push({ marker, commentId: comment.id });
  }
  return found.sort((a, b) => b.commentId - a.commentId);
}

/** The newest run marker the bot wrote in the thread. Markers in anyone else's comments are ignored. */
export function findTrustedRunMarker(comments: readonly ThreadComment[], self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self)[0] ?? null;
}

/** Strips `refs/heads/`: events name branches both ways. */
export function normalizeBranch(branch: string): string {
  return branch.replace(/^refs\/heads\//, "");
}

/**
 * The newest trusted run marker that names `branch`: for a review or a check failure on a pull
 * request whose head branch a known run produced or worked on.
 */
export function findRunForBranch(comments: readonly ThreadComment[], branch: string, self: BotIdentity): FoundRunMarker | null {
  const wanted = normalizeBranch(branch);
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId !== null && marker.branches.includes(wanted)) ?? null;
}

/** The newest trusted marker of one run: its state says whether the result was already delivered. */
export function findLatestMarkerForRun(comments: readonly ThreadComment[], runId: number, self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId === runId) ?? null;
}

/** The comment the bot already posted for a request (a webhook redelivery must not post twice). */
export function findMarkerForRequest(comments: readonly ThreadComment[], requestId: string, self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.requestId === requestId) ?? null;
}

/**
 * CI fix cycles the bot started on `branch` (one tracking comment each, created or resumed), and
 * the head commits they answered: the facts behind an attempt cap.
 */
export function countFixAttempts(comments: readonly ThreadComment[], branch: string, self: BotIdentity): { attempts: number; headShas: string[] } {
  const wanted = normalizeBranch(branch);
  const cycles = listTrustedRunMarkers(comments, self).filter(
    ({ marker }) => marker.sourceType === SOURCE.gitHostCheckSuite && marker.branches.includes(wanted),
  );
  const headShas = [...new Set(cycles.map(({ marker }) => marker.headSha).filter((sha): sha is string => sha !== undefined))];
  return { attempts: cycles.length, headShas };
}

/** The newest trusted comment of a kind (e.g. `hand_back`: the pull request was already handed back). */
export function findTrustedComment(comments: readonly ThreadComment[], kind: BotCommentKind, self: BotIdentity): ThreadComment | null {
  let newest: ThreadComment | null = null;
  for (const comment of comments) {
    if (!isTrustedAuthor(comment, self) || parseCommentKind(comment.body) !== kind) continue;
    if (newest === null || comment.id > newest.id) newest = comment;
  }
  return newest;
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

/** A fresh marker for a run (or a queued request) from what the caller knows. */
export function newRunMarker(fields: {
  runId: number | null;
  orgId: number;
  sourceType: SourceType;
  state?: Exclude<RunMarkerState, "done">;
  branches?: string[];
  requestId?: string;
  headSha?: string;
}): RunMarker {
  const state = fields.state ?? (fields.runId === null ? "queued" : "running");
  return withBranches(
    {
      v: 1,
      runId: fields.runId,
      orgId: fields.orgId,
      sourceType: fields.sourceType,
      branches: [],
      state,
      ...(fields.requestId !== undefined ? { requestId: fields.requestId } : {}),
      ...(fields.headSha !== undefined ? { headSha: fields.headSha } : {}),
    },
    fields.branches ?? [],
  );
}

/**
 * The hidden markers the bot writes into its own comments, so that the thread itself remembers
 * which run it belongs to (no database needed, e.g. in the Action):
 *
 *   <!-- agent-run-bridge:run {"v":2,"repo":"octo/app","thread":7,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->
 *   <!-- agent-run-bridge:refusal {"v":2,"repo":"octo/app","thread":7} -->
 *   <!-- agent-run-bridge:over_limit {"v":2,"repo":"octo/app","thread":7,"limit":"runs_per_repo_per_hour"} -->
 *
 * This file is their format: the states, the bounds and the JSON schemas (writing is write.ts,
 * reading read.ts, and which comments to believe trust.ts). The run marker's `state` is also the
 * delivery record: the result comment says `"state":"done"`, so a restarted watcher that finds it
 * knows the result was already posted.
 *
 * A run marker names the thread it was written in (`repo`, `thread`, since `"v":2`): a marker copied
 * into another thread, even a signed one (trust.ts), does not point that thread at its run. Markers
 * of `"v":1` name no thread, nor does one made for a step without a thread (never posted): trust.ts
 * reads such markers as legacy (believed only where the service's record of the run names the thread).
 * Every other kind names its thread the same way (`{"v":2,"repo":…,"thread":…}`); the writers' doors
 * add it (bindKindMarker in write.ts), so no reply can be written unbound. Kind markers without it
 * are legacy too: trust.ts decides per kind whether to believe them (LEGACY_KIND_MARKERS).
 */
import * as z from "zod/mini";
import { SourceTypeSchema } from "../../service/wire.js";
import { RUN_LIMIT_NAMES, type RunLimitName } from "../../config/schema.js";
import { AUTOMATION_NAME } from "../../config/automations.js";

/** `queued`: waiting for rate budget (no run yet, or a resume not sent yet); `running`: being watched; `done`: the bridge's last word is posted. */
const RUN_MARKER_STATES = ["queued", "running", "done"] as const;
export type RunMarkerState = (typeof RUN_MARKER_STATES)[number];

/**
 * How a `done` run ended, as far as the bridge saw it; `stopped`: the run was stopped or cancelled on
 * the service, or someone said `/agent stop` and the bridge stopped watching (the run itself may go
 * on: the service has no cancel call); `watch_timed_out`: still running when the watch gave up.
 */
const RUN_OUTCOMES = ["succeeded", "failed", "stopped", "waiting_for_input", "unknown", "watch_timed_out"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Bounds: a marker stays small whatever a run produced. */
export const MARKER_LIMITS = { json: 3000, branches: 10, branchLength: 200, requestId: 100, repository: 200 } as const;

/** The marker version the bridge writes: 2 names the thread; 1 (read, rewritten as it was) does not. */
export const RUN_MARKER_VERSION = 2;

// Built on first use (`z.lazy`), like the wire schemas: a step that reads no marker builds none.
export const BranchSchema = z.lazy(() =>
  z.string().check(
    z.minLength(1),
    z.maxLength(MARKER_LIMITS.branchLength),
    // eslint-disable-next-line no-control-regex
    z.regex(/^[^\s\u0000-\u001f\u007f]+$/, { error: "a branch name has no whitespace or control characters" }),
  ),
);

const RepositorySchema = z.lazy(() =>
  z.string().check(z.maxLength(MARKER_LIMITS.repository), z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: "repo is owner/name" })),
);
const ThreadNumberSchema = z.lazy(() => z.int().check(z.positive()));

export const RunMarkerSchema = z.lazy(() =>
  z
    .strictObject({
      v: z.union([z.literal(1), z.literal(RUN_MARKER_VERSION)]),
      /** `owner/name` of the repository whose thread the marker was written in (v2). */
      repo: z.optional(RepositorySchema),
      /** The issue or pull-request number of that thread (v2). */
      thread: z.optional(ThreadNumberSchema),
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
      /** The automation (`automations[].name`) that started the run: it starts once per thread, and a shell without a store reads that here. */
      automation: z.optional(z.string().check(z.regex(AUTOMATION_NAME))),
    })
    .check(
      z.superRefine((marker, ctx) => {
        // A request stopped before its run existed ends without one.
        if (marker.runId === null && marker.state !== "queued" && marker.outcome !== "stopped") {
          ctx.addIssue({ code: "custom", path: ["runId"], message: `a "${marker.state}" marker needs a runId` });
        }
        // A place is whole or absent, and only v2 has one (a v2 marker for no thread, never posted, has none).
        if ((marker.repo === undefined) !== (marker.thread === undefined)) {
          ctx.addIssue({ code: "custom", path: ["thread"], message: "repo and thread are set together" });
        }
        if (marker.v === 1 && marker.repo !== undefined) {
          ctx.addIssue({ code: "custom", path: ["repo"], message: "a v1 marker names no thread" });
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

/** The version of a kind marker's JSON (`{"v":2,"repo":…,"thread":…}`): 2 names the thread; a kind marker without JSON (and an over-limit one of `"v":1`) names none. */
export const KIND_MARKER_VERSION = 2;

// Built on first use, like the run marker's schema.
/** The JSON of a kind marker (refusal, stop, hand_back…): the thread it was written in. */
export const KindMarkerPlaceSchema = z.lazy(() =>
  z.strictObject({ v: z.literal(KIND_MARKER_VERSION), repo: RepositorySchema, thread: ThreadNumberSchema }),
);
export const OverLimitMarkerSchema = z.lazy(() =>
  z.union([
    z.strictObject({ v: z.literal(1), limit: z.enum(RUN_LIMIT_NAMES) }),
    z.strictObject({
      v: z.literal(KIND_MARKER_VERSION),
      repo: RepositorySchema,
      thread: ThreadNumberSchema,
      limit: z.enum(RUN_LIMIT_NAMES),
    }),
  ]),
);

/** Where a marker is written or read: the repository (`owner/name`) and the issue or pull-request number. */
export interface MarkerPlace {
  repository: string;
  thread: number;
}

/** The place of a thread of `owner/repo`. */
export function markerPlaceIn(repo: { owner: string; repo: string }, thread: number): MarkerPlace {
  return { repository: `${repo.owner}/${repo.repo}`, thread };
}

/**
 * A marker of a kind other than `run`, as read: `place` is null for one written before kind markers
 * named their thread (legacy); `limit` is what an over-limit reply answered.
 */
export interface KindMarker {
  kind: Exclude<BotCommentKind, "run">;
  place: MarkerPlace | null;
  limit?: RunLimitName;
}

/** Strips `refs/heads/`: events name branches both ways. */
export function normalizeBranch(branch: string): string {
  return branch.replace(/^refs\/heads\//, "");
}

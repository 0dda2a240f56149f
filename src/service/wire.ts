/**
 * The Agent Run Service's wire format: the only module where the spec's identifiers live
 * (`../shared/spec/agent-run-service.md`). Everything else imports names from here.
 *
 * Response schemas are tolerant readers: unknown fields are kept (`z.looseObject`), nullable and missing optional fields are accepted, and only what the
 * bridge cannot work without (a run's `id`) is required. Request schemas are strict: the
 * bridge never sends a field the spec does not list. The paths are in paths.ts (re-exported here),
 * which loads no schema: the Action's entry sends a request before zod is loaded.
 *
 * Each schema is built on first use (`z.lazy`): building every one of them when the module loads
 * cost the Action's start about 20 M instructions, most of them for endpoints a step never calls.
 */
import * as z from "zod/mini";
import { LIST_PAGE_MAX } from "./paths.js";

export { API_PATHS, LIST_PAGE_MAX, serviceUrl } from "./paths.js";

/** Where the logs endpoint is: the spec's path, the `/v1/alpha/` path real deployments publish, or whichever answers. */
export const LOGS_PATH_CHOICES = ["auto", "spec", "alpha"] as const;
export type LogsPathChoice = (typeof LOGS_PATH_CHOICES)[number];
export const LogsPathChoiceSchema = z.enum(LOGS_PATH_CHOICES, { error: `must be one of: ${LOGS_PATH_CHOICES.join(", ")}` });

/** Spec §2.2, in the spec's order. */
export const SOURCE_TYPES = [
  "LOCAL",
  "MESSAGING",
  "GIT_HOST",
  "GIT_HOST_CHECK_SUITE",
  "GIT_HOST_PR_REVIEW",
  "ISSUE_TRACKER_A",
  "API",
  "CHAT",
  "ISSUE_TRACKER_B",
  "ISSUE_TRACKER_C",
  "WORK_MGMT",
  "SETUP_COMMANDS",
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const SourceTypeSchema = z.enum(SOURCE_TYPES);

/** Named aliases so that callers never spell a wire value themselves. */
export const SOURCE = {
  gitHost: "GIT_HOST",
  gitHostCheckSuite: "GIT_HOST_CHECK_SUITE",
  gitHostPrReview: "GIT_HOST_PR_REVIEW",
  api: "API",
  local: "LOCAL",
} as const satisfies Record<string, SourceType>;

/** Spec §4.1 `agent_type`. */
export const AGENT_TYPES = ["native", "partner_code"] as const;
export type AgentType = (typeof AGENT_TYPES)[number];
export const AgentTypeSchema = z.enum(AGENT_TYPES);

/** Spec §2.6. */
export const MESSAGE_TYPES = [
  "ACTION",
  "PLAN_EVALUATION",
  "FINAL_ANSWER",
  "ERROR",
  "USER_MESSAGE",
  "USER_GIT_HOST_ISSUE_COMMENT",
  "INITIAL_PR_GENERATION",
  "DETECT_PR_ERRORS",
  "FIX_PR_ERRORS",
  "PR_CREATION_FAILED",
  "PR_EVALUATION",
  "COMMIT_EVALUATION",
  "AGENT_RUN_LINK",
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Spec §2.5: tool names seen in traces. */
export const TOOL_NAMES = { search: "ripgrep_search", write: "file_write" } as const;

/** Spec §4.4 and §8: logs pagination (the optional list endpoints page the same way). */
export const LOGS_PAGE_MAX = 100;
export const LOGS_PAGE_DEFAULT = 100;

/**
 * Spec §8 rate limits per API token. The logs endpoint states "60 per 60 s shared across all
 * endpoints", stricter than "60 per 30 s" for standard endpoints: the client uses the stricter.
 */
export const RATE_LIMITS = {
  standard: { points: 60, durationSeconds: 30 },
  sharedStrict: { points: 60, durationSeconds: 60 },
  create: { points: 10, durationSeconds: 60 },
  setupCommands: { points: 5, durationSeconds: 60 },
  logAnalysis: { points: 5, durationSeconds: 60 },
} as const;

/**
 * Status values, by what they mean. The spec shows only lowercase `completed`; real deployments
 * use the uppercase values, and their examples the lowercase ones (facts.md). Matching ignores
 * case, so each value is listed once (`RUNNING` is also the emulator's `running`, `FAILED` the
 * examples' `failed`). Status is an open set: see `status.ts` for classification and for unknown values.
 */
export const KNOWN_STATUSES = {
  inProgress: ["ACTIVE", "PENDING", "RUNNING", "EVALUATION", "queued", "in_progress"],
  waitingForInput: ["PAUSED", "waiting_for_input"],
  succeeded: ["COMPLETE", "completed"],
  stopped: ["STOPPED", "CANCELLED"],
  failed: ["ERROR", "FAILED", "TIMEOUT", "MAX_ITERATIONS_REACHED", "OUT_OF_TOKENS"],
} as const;

// ---------------------------------------------------------------------------------------------
// Responses (tolerant readers)

const nullableString = z.nullish(z.string());
const nullableInt = z.nullish(z.int());
/** An integer without which the object is useless; `error` says which one is missing. */
const requiredInt = (error: string) => z.number({ error }).check(z.int());

/** What a run and a page of its logs both say of the run (called inside a `z.lazy`, like every schema here). */
const runHeadFields = (idError: string) => ({
  id: requiredInt(idError),
  organization_id: nullableInt,
  status: nullableString,
  created_at: nullableString,
  web_url: nullableString,
  result: nullableString,
});

/** Spec §2.3. Fields are read leniently: a PR link is still useful with a missing date. */
export const GitHostPullRequestSchema = z.lazy(() =>
  z.looseObject({
    id: nullableInt,
    title: nullableString,
    url: nullableString,
    created_at: nullableString,
    head_branch_name: nullableString,
  }),
);
export type GitHostPullRequest = z.infer<typeof GitHostPullRequestSchema>;

/** Spec §2.1. `id` is the one field without which nothing can be done. */
export const AgentRunSchema = z.lazy(() =>
  z.looseObject({
    ...runHeadFields("the response has no numeric run `id`"),
    summary: nullableString,
    // An unknown source type is kept as a string rather than rejecting the whole run.
    source_type: nullableString,
    git_host_pull_requests: z.nullish(z.array(GitHostPullRequestSchema)),
    metadata: z.nullish(z.record(z.string(), z.unknown())),
  }),
);
export type AgentRun = z.infer<typeof AgentRunSchema>;

/** Spec §2.5. ALPHA: every field but the type is optional; `message_type` stays an open string. */
export const LogEntrySchema = z.lazy(() =>
  z.looseObject({
    agent_run_id: nullableInt,
    created_at: nullableString,
    message_type: nullableString,
    thought: nullableString,
    tool_name: nullableString,
    tool_input: z.optional(z.unknown()),
    tool_output: z.optional(z.unknown()),
    observation: z.optional(z.unknown()),
  }),
);
export type LogEntry = z.infer<typeof LogEntrySchema>;

/** A list the service may leave out or send as null: read as empty. */
const listOf = <T extends z.ZodMiniType>(item: T) =>
  z.pipe(
    z.nullish(z.array(item)),
    z.transform((items) => items ?? []),
  );

/** Spec §2.4 `AgentRunWithLogsResponse`, read leniently (ALPHA). */
export const AgentRunWithLogsSchema = z.lazy(() =>
  z.looseObject({
    ...runHeadFields("the logs response has no numeric run `id`"),
    logs: listOf(LogEntrySchema),
    total_logs: nullableInt,
    page: nullableInt,
    size: nullableInt,
    pages: nullableInt,
  }),
);
export type AgentRunWithLogs = z.infer<typeof AgentRunWithLogsSchema>;

/** §4.5 pages of real deployments: `{ items, total, page, size, pages }`, read leniently. */
function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    items: listOf(item),
    total: nullableInt,
    page: nullableInt,
    size: nullableInt,
    pages: nullableInt,
  });
}

/** `GET /v1/organizations/{org_id}/agent/runs`: run objects, newest first. */
export const RunsPageSchema = z.lazy(() => pageOf(AgentRunSchema));
export type RunsPage = z.infer<typeof RunsPageSchema>;

/** An item of `GET /v1/organizations/{org_id}/repos`: the service's id and the Git host's names. */
export const ServiceRepositorySchema = z.lazy(() =>
  z.looseObject({
    id: requiredInt("a repository has no numeric `id`"),
    name: nullableString,
    full_name: nullableString,
    github_id: nullableInt,
  }),
);
export type ServiceRepository = z.infer<typeof ServiceRepositorySchema>;
export const RepositoriesPageSchema = z.lazy(() => pageOf(ServiceRepositorySchema));
export type RepositoriesPage = z.infer<typeof RepositoriesPageSchema>;

/**
 * Error bodies seen: `{ message, status_code }`, `{ detail: "…" }` (sometimes with `status_code`)
 * and FastAPI's validation failures `{ detail: [{ loc, msg, type }] }`.
 */
export const ErrorBodySchema = z.lazy(() =>
  z.looseObject({
    message: z.optional(z.string()),
    detail: z.optional(
      z.union([
        z.string(),
        z.array(
          z.looseObject({
            loc: z.optional(z.array(z.union([z.string(), z.number()]))),
            msg: z.optional(z.string()),
            type: z.optional(z.string()),
          }),
        ),
      ]),
    ),
    status_code: z.optional(z.int()),
  }),
);

// ---------------------------------------------------------------------------------------------
// Requests (strict: nothing the spec does not list)

const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+(;[\w-]+=[\w.-]+)*;base64,[A-Za-z0-9+/]+={0,2}$/;

export const ImageDataUriSchema = z.lazy(() =>
  z.string().check(z.regex(DATA_URI, { error: "each image must be a base64 data URI such as data:image/png;base64,iVBOR…" })),
);

/** A JSON object (not an array, not null). */
export const MetadataSchema = z.lazy(() =>
  z.record(z.string(), z.unknown(), {
    error: 'metadata must be a JSON object such as {"key":"value"}',
  }),
);

/** A positive integer whose every failure reads `message`. */
const positiveInt = (message: string) => z.int().check(z.positive({ error: message }));
/** A prompt: required, trimmed, not empty. */
const promptField = () => z.string({ error: "prompt is required" }).check(z.trim(), z.minLength(1, { error: "prompt must not be empty" }));

/** Spec §4.1. */
export const CreateRunRequestSchema = z.lazy(() =>
  z.strictObject({
    prompt: promptField(),
    images: z.nullish(z.array(ImageDataUriSchema)),
    metadata: z.nullish(MetadataSchema),
    repo_id: z.nullish(positiveInt("repo_id must be a positive integer")),
    model: z.nullish(z.string().check(z.minLength(1))),
    agent_type: z.nullish(z.enum(AGENT_TYPES, { error: `agent_type must be one of: ${AGENT_TYPES.join(", ")}` })),
  }),
);
export type CreateRunRequest = z.input<typeof CreateRunRequestSchema>;

/** Spec §4.3: exactly these two fields. */
export const ResumeRunRequestSchema = z.lazy(() =>
  z.strictObject({
    agent_run_id: positiveInt("agent_run_id must be a positive integer"),
    prompt: promptField(),
  }),
);
export type ResumeRunRequest = z.input<typeof ResumeRunRequestSchema>;

/** `skip` and `limit` of a paged query, `limit` between 1 and `max`. */
function pageQueryOf(max: number, defaultLimit: number) {
  const limitError = { error: `limit must be between 1 and ${max}` };
  return {
    skip: z._default(z.int().check(z.minimum(0, { error: "skip must be 0 or more" })), 0),
    limit: z._default(z.int().check(z.minimum(1, limitError), z.maximum(max, limitError)), defaultLimit),
  };
}

/** Spec §4.4 query. */
export const LogsQuerySchema = z.lazy(() => z.strictObject(pageQueryOf(LOGS_PAGE_MAX, LOGS_PAGE_DEFAULT)));
export type LogsQuery = z.input<typeof LogsQuerySchema>;

/** `GET /v1/organizations/{org_id}/agent/runs` query (real deployments; not in the spec). */
export const ListRunsQuerySchema = z.lazy(() =>
  z.strictObject({
    ...pageQueryOf(LIST_PAGE_MAX, LIST_PAGE_MAX),
    source_type: z.optional(SourceTypeSchema),
    user_id: z.optional(positiveInt("user_id must be a positive integer")),
  }),
);
export type ListRunsQuery = z.input<typeof ListRunsQuerySchema>;

/** `GET /v1/organizations/{org_id}/repos` query (real deployments; not in the spec). */
export const ListRepositoriesQuerySchema = z.lazy(() => z.strictObject(pageQueryOf(LIST_PAGE_MAX, LIST_PAGE_MAX)));
export type ListRepositoriesQuery = z.input<typeof ListRepositoriesQuerySchema>;

/**
 * Metadata keys the bridge itself reads back from runs: the delivery that asked for the run and
 * the bridge's own task id, set when the create is sent (crash recovery matches on them); the
 * repository and the issue or pull-request number the run was started from (a legacy marker's
 * run is believed only in the thread these name).
 */
export const BRIDGE_METADATA_KEYS = {
  deliveryId: "delivery_id",
  bridgeTaskId: "bridge_task_id",
  statusCommentId: "status_comment_id",
  repository: "repository",
  issueNumber: "issue_number",
  pullRequestNumber: "pull_request_number",
} as const;

/**
 * The repository configuration, `.github/agent-run.yml`: one zod schema with defaults (zod/mini:
 * the Action's bundle loads no more of zod than it uses). The same
 * field schemas are exported one by one so the Action can compose its inputs from them.
 *
 * The field schemas the Action's inputs share are built when the module loads; the rest are built on
 * first use (core/once.ts), since a step whose repository has no file only needs the defaults.
 *
 * Every object is strict (an unknown key is a typo the user wants to hear about); `_extends` is
 * the one exception, because Probot resolves it before we see the file.
 */
import * as z from "zod/mini";
import { AGENT_TYPES } from "../service/wire.js";
import { automationsSchema, setAsideInvalidAutomations } from "./automations.js";
import { locateIssues, type LocatedProblem } from "./issues.js";
import { suggestKey } from "./key-suggestions.js";
import { once } from "../core/once.js";

/** GitHub repository roles, weakest first (the `role_name` of the collaborator permission API). */
export const REPO_ROLES = ["none", "read", "triage", "write", "maintain", "admin"] as const;
export type RepoRole = (typeof REPO_ROLES)[number];

/** The roles a repository may require from whoever triggers a run. */
export const MINIMUM_ROLES = ["write", "maintain", "admin"] as const;
export type MinimumRole = (typeof MINIMUM_ROLES)[number];

const FOLLOW_UP_POLICIES = ["queue", "new", "interrupt"] as const;
export type FollowUpPolicy = (typeof FOLLOW_UP_POLICIES)[number];

/** Which pull requests a review requesting changes acts on without the trigger phrase (forks never). */
const CHANGES_REQUESTED_SCOPES = ["bridge_branches", "base_repository"] as const;
export type ChangesRequestedScope = (typeof CHANGES_REQUESTED_SCOPES)[number];

const INSTRUCTIONS_MAX_CHARS = 4000;
const MAX_ATTEMPTS_LIMIT = 20;

const booleanField = () => z.boolean({ error: "must be true or false" });

/** A schema with its description for the JSON Schema and the configuration reference in docs/configuration.md (registered on the schema itself). */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema, { description });
  return schema;
}

const intBetween = (min: number, max: number) => {
  const error = `must be an integer between ${min} and ${max}`;
  return z.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error }));
};

/** A label name: trimmed, 1 to 50 characters (GitHub's limit). */
const labelName = (example: string) =>
  z
    .string({ error: `must be a label name such as "${example}"` })
    .check(
      z.trim(),
      z.minLength(1, { error: `must not be empty (a label name such as "${example}")` }),
      z.maxLength(50, { error: "must be at most 50 characters (GitHub's limit for label names)" }),
    );

/**
 * A section of the file (`permissions`, `label`…): a strict mapping whose every key has a default, so
 * an absent section reads as `{}`; a value that is not a mapping is told the keys it takes.
 */
function section<Shape extends z.core.$ZodLooseShape>(shape: Shape, description: string) {
  const keys = Object.keys(shape).join(", ");
  const object = z.strictObject(shape, {
    error: (issue) => (issue.code === "invalid_type" ? `must be a mapping with the keys ${keys}` : undefined),
  });
  // Every key has a default (or is optional), so the empty mapping is a valid input.
  return described(z.prefault(object, {} as z.input<typeof object>), description);
}

// GitHub logins: letters, digits and single hyphens, at most 39 characters.
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
// A team is "org/team-slug" or "team-slug" (the repository owner's organization).
const TEAM = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?\/)?[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The trigger phrase as written (the Action's input reads it without the default: empty defers to the file). */
export const TriggerPhraseTextSchema = z.string({ error: 'must be a string such as "/agent"' }).check(
  z.regex(/^\S(?:[^\r\n]*\S)?$/, {
    error: 'must be one line that starts and ends with a non-space character, such as "/agent"',
  }),
  z.maxLength(100, { error: "must be at most 100 characters" }),
);

const REPO_ID_ERROR = "must be a positive integer (the service's repository id)";
/** A repository id as given (the Action's input reads it the same way). */
export const RepoIdValueSchema = z
  .number({ error: REPO_ID_ERROR })
  .check(z.int({ error: REPO_ID_ERROR }), z.positive({ error: REPO_ID_ERROR }));

export const ModelSchema = described(
  z.optional(
    z
      .string({ error: "must be a model name (a string)" })
      .check(z.minLength(1, { error: "must not be empty; remove the key to use the organization's default model" })),
  ),
  "Model for the runs. Unset: the organization's default.",
);

export const AgentTypeFieldSchema = described(
  z.optional(z.enum(AGENT_TYPES, { error: `must be one of: ${AGENT_TYPES.join(", ")}` })),
  "Agent type for the runs. Unset: the organization's default.",
);

/** A list of strings matching `pattern`, empty by default. */
const listOf = (entry: z.ZodMiniString<string>, error: string, description: string) =>
  described(z._default(z.array(entry, { error }), []), description);

/** Upper bound of every spend limit: high enough to mean "no practical limit", low enough to catch a typo. */
const RUN_LIMIT_MAX = 10_000;

/** The spend limits, each counted over a sliding window ending now. */
export const RUN_LIMIT_NAMES = ["runs_per_thread_per_day", "runs_per_repo_per_hour", "ci_fixes_per_repo_per_day"] as const;
export type RunLimitName = (typeof RUN_LIMIT_NAMES)[number];

/**
 * The fields of the repository configuration, for composing other schemas (the Action's inputs), built
 * on first use.
 */
export const repoConfigFields = once(() => {
  const TriggerPhraseSchema = described(
    z._default(TriggerPhraseTextSchema, "/agent"),
    "Text that starts a run when a comment line begins with it (case-insensitive), e.g. `/agent fix the typo`. `/agent new …` forces a fresh run.",
  );

  const MentionSchema = described(
    z._default(booleanField(), true),
    "Whether a mention of the app (`@<app-slug>` or `@<app-slug>[bot]`) anywhere in a comment also starts a run.",
  );

  const RepoIdSchema = described(
    z.optional(RepoIdValueSchema),
    "The Agent Run Service's id of this repository. Unset: the id the service lists for this GitHub repository (asked once an hour), else none and the organization's default applies. Set: when the service lists that id with another repository's `github_id`, runs are refused; when it lists no `github_id` for it (or has no list), the id is trusted as written.",
  );

  const PermissionsSchema = section(
    {
      minimum: described(
        z._default(z.enum(MINIMUM_ROLES, { error: `must be one of: ${MINIMUM_ROLES.join(", ")}` }), "write"),
        "Lowest repository role that may trigger a run.",
      ),
      users: listOf(
        z
          .string({ error: 'each entry must be a GitHub login such as "octocat"' })
          .check(z.regex(LOGIN, { error: 'each entry must be a GitHub login such as "octocat" (without the @)' })),
        'must be a list of GitHub logins such as ["octocat"]',
        "Logins that may trigger a run whatever their role.",
      ),
      teams: listOf(
        z.string({ error: 'each entry must be a team such as "my-org/reviewers" or "reviewers"' }).check(
          z.regex(TEAM, {
            error: 'each entry must be a team such as "my-org/reviewers" or "reviewers" (the repository owner\'s organization)',
          }),
        ),
        'must be a list of teams such as ["my-org/reviewers"]',
        "Teams (`org/team-slug`, or `team-slug` in the repository owner's organization) whose members may trigger a run whatever their role. The App reads them; the Action only with a token that can read the organization's teams (a workflow's `GITHUB_TOKEN` cannot: there a team counts as no member).",
      ),
    },
    "Who may trigger a run: anyone whose role is at least `minimum`, OR listed in `users`, OR a member of one of `teams`. CI auto-fix is started by GitHub itself and needs no permission.",
  );

  const LabelSchema = section(
    {
      enabled: described(z._default(booleanField(), true), "Whether adding the label to an issue starts a run."),
      name: described(z._default(labelName("agent"), "agent"), "Label that starts a run on the issue it is added to (case-insensitive)."),
    },
    "Start a run when a label is added to an issue.",
  );

  const ReviewsSchema = section(
    {
      enabled: described(
        z._default(booleanField(), true),
        "Whether pull request reviews start runs: a review requesting changes, or a review or review comment containing the trigger.",
      ),
      changes_requested: described(
        z._default(
          z.enum(CHANGES_REQUESTED_SCOPES, { error: `must be one of: ${CHANGES_REQUESTED_SCOPES.join(", ")}` }),
          "bridge_branches",
        ),
        "What a review requesting changes does without the trigger: `bridge_branches` continues only the run that produced the pull request's branch in this repository (other reviews need the trigger); `base_repository` acts on any pull request whose branch is in this repository. A pull request from a fork never acts without the trigger.",
      ),
    },
    "Act on pull request reviews.",
  );

  const CheckSuiteSchema = section(
    {
      enabled: described(z._default(booleanField(), false), "Whether failing CI on a pull request starts a run that tries to fix it."),
      max_attempts: described(
        z._default(intBetween(1, MAX_ATTEMPTS_LIMIT), 3),
        "Fix attempts per pull request before it is handed back to humans.",
      ),
      branches: listOf(
        z.string({ error: 'each entry must be a glob pattern such as "feature/**"' }).check(
          z.regex(/^[^!\s]/, {
            error:
              'each entry must be a non-empty glob pattern such as "feature/**" (a leading "!" is not supported: list the branches to include)',
          }),
        ),
        'must be a list of glob patterns such as ["main", "feature/**"]',
        "Glob patterns on the pull request's head branch (`*`, `**`, `?`). Empty: every branch.",
      ),
      ignore_checks: listOf(
        z
          .string({ error: 'each entry must be a check name or glob pattern such as "lint*"' })
          .check(z.minLength(1, { error: 'each entry must be a non-empty check name or glob pattern such as "lint*"' })),
        'must be a list of check names or glob patterns such as ["lint*"]',
        "Check run (or job) names whose failure is ignored; glob patterns allowed.",
      ),
      allow_forks: described(z._default(booleanField(), false), "Whether failing CI on pull requests from forks is fixed too."),
    },
    "Fix failing CI on pull requests (check suites in the App, workflow runs in the Action).",
  );

  const FollowUpSchema = described(
    z._default(z.enum(FOLLOW_UP_POLICIES, { error: `must be one of: ${FOLLOW_UP_POLICIES.join(", ")}` }), "queue"),
    "What a follow-up comment does while the thread's run is still working: `queue` (resume the run when it finishes), `new` (start another run) or `interrupt` (send it to the working agent at once, where the service takes it; else queued).",
  );

  const InstructionsSchema = described(
    z._default(
      z
        .string({ error: "must be text (a string)" })
        .check(z.maxLength(INSTRUCTIONS_MAX_CHARS, { error: `must be at most ${INSTRUCTIONS_MAX_CHARS} characters` })),
      "",
    ),
    "Text appended to every prompt, e.g. house rules for the agent.",
  );

  const LimitsSchema = section(
    {
      runs_per_thread_per_day: described(
        z._default(intBetween(1, RUN_LIMIT_MAX), 20),
        "Runs one issue or pull request may start (created or resumed, CI fixes included) in any 24 hours.",
      ),
      runs_per_repo_per_hour: described(
        z._default(intBetween(1, RUN_LIMIT_MAX), 30),
        "Runs the whole repository may start (created or resumed) in any 60 minutes.",
      ),
      ci_fixes_per_repo_per_day: described(
        z._default(intBetween(1, RUN_LIMIT_MAX), 20),
        "CI auto-fix runs the whole repository may start in any 24 hours.",
      ),
    },
    "Spend guards. Over a limit, nothing is sent to the service and the thread gets one short reply saying which limit, its count and when it frees (at most one such reply per thread per window).",
  );

  /** Review mode (`/agent review` on a pull request, or an automation with `mode: review`). */
  const ReviewModeSchema = section(
    {
      max_comments: described(
        z._default(intBetween(0, 100), 20),
        "Most findings a review posts as inline comments; the rest are listed in the review's body.",
      ),
    },
    "Review mode: `/agent review …` on a pull request (or an automation with `mode: review`) posts one pull-request review with inline comments and suggestions.",
  );

  const KillSwitchLabelSchema = described(
    z._default(labelName("agent:off"), "agent:off"),
    "Label that switches the agent off in its issue or pull request (case-insensitive): while it is there, no run of any kind starts there, CI auto-fix included.",
  );

  return {
    trigger_phrase: TriggerPhraseSchema,
    mention: MentionSchema,
    repo_id: RepoIdSchema,
    model: ModelSchema,
    agent_type: AgentTypeFieldSchema,
    permissions: PermissionsSchema,
    label: LabelSchema,
    reviews: ReviewsSchema,
    review: ReviewModeSchema,
    check_suite: CheckSuiteSchema,
    limits: LimitsSchema,
    kill_switch_label: KillSwitchLabelSchema,
    follow_up: FollowUpSchema,
    instructions: InstructionsSchema,
    automations: automationsSchema(),
  } as const;
});

/** The whole file's schema, built on first use. */
export const repoConfigSchema = once(() =>
  z.strictObject(repoConfigFields(), {
    error: (issue) =>
      issue.code === "invalid_type" ? "must be a YAML mapping of keys to values, such as `trigger_phrase: /agent`" : undefined,
  }),
);

/** The configuration after defaults: every field but the optional service settings is present. */
export type RepoConfig = z.output<ReturnType<typeof repoConfigSchema>>;

/**
 * The configuration used when a repository has no `.github/agent-run.yml`: what the schema makes of
 * `{}`, written out so that a step without the file builds no schema (test/unit/config/schema.test.ts
 * holds the two equal).
 */
export const DEFAULT_REPO_CONFIG: RepoConfig = {
  trigger_phrase: "/agent",
  mention: true,
  permissions: { minimum: "write", users: [], teams: [] },
  label: { enabled: true, name: "agent" },
  reviews: { enabled: true, changes_requested: "bridge_branches" },
  review: { max_comments: 20 },
  check_suite: { enabled: false, max_attempts: 3, branches: [], ignore_checks: [], allow_forks: false },
  limits: { runs_per_thread_per_day: 20, runs_per_repo_per_hour: 30, ci_fixes_per_repo_per_day: 20 },
  kill_switch_label: "agent:off",
  follow_up: "queue",
  instructions: "",
  automations: [],
};

// ---------------------------------------------------------------------------------------------
// Parsing

/** A YAML mapping as parsed: an object that is not a list. */
export const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `warnings`: invalid `automations` entries, skipped (the rest of the file applies). */
export type ParseRepoConfigResult = { ok: true; config: RepoConfig; warnings: string[] } | { ok: false; errors: string[] };

/** A schema under the wrappers that defaults and optional values add (default, prefault, optional…): what the value itself must be. */
export function unwrappedSchemaOf(schema: z.core.$ZodType): z.core.$ZodType {
  let current: z.core.$ZodType = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = current._zod.def as { innerType?: z.core.$ZodType };
    if (!def.innerType) return current;
    current = def.innerType;
  }
  return current;
}

/** The object schema under a field's wrappers, if the field is an object. */
export function objectSchemaOf(schema: z.core.$ZodType): z.core.$ZodObject | undefined {
  const inner = unwrappedSchemaOf(schema);
  return inner._zod.def.type === "object" ? (inner as z.core.$ZodObject) : undefined;
}

/** The keys a schema accepts at `path` (for "did you mean" on unknown keys). */
function allowedKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let object = objectSchemaOf(schema);
  for (const segment of path) {
    if (!object || typeof segment !== "string") return undefined;
    const child = (object._zod.def.shape as Record<string, z.core.$ZodType>)[segment];
    object = child ? objectSchemaOf(child) : undefined;
  }
  return object ? Object.keys(object._zod.def.shape) : undefined;
}

/**
 * Validates a parsed `.github/agent-run.yml` (or `null`/`undefined` when there is none) and fills
 * in defaults. `_extends` at the top level is dropped: Probot has already merged the base file.
 */
export interface ParseRepoConfigOptions {
  /** How a field is named in messages; default "`a.b`". The Action names its inputs instead. */
  label?: (path: string) => string;
  /** Whether messages quote the values given (only a local check of one's own file does); default: their kind only. */
  values?: "quoted" | "kinds";
}

export function parseRepoConfig(raw: unknown, options: ParseRepoConfigOptions = {}): ParseRepoConfigResult {
  const result = validateRepoConfig(raw, options);
  return result.ok
    ? { ok: true, config: result.config, warnings: result.skipped.map((problem) => problem.message) }
    : { ok: false, errors: result.problems.map((problem) => problem.message) };
}

/**
 * `parseRepoConfig` with the path of every problem (for pointing at a line of the file). Invalid
 * `automations` entries are `skipped` when the rest is valid, and among the problems when it is not.
 */
export function validateRepoConfig(
  raw: unknown,
  options: ParseRepoConfigOptions = {},
): { ok: true; config: RepoConfig; skipped: LocatedProblem[] } | { ok: false; problems: LocatedProblem[] } {
  let input: unknown = raw ?? {};
  if (isMapping(input) && "_extends" in input) {
    const { _extends: _ignored, ...rest } = input;
    input = rest;
  }
  // No file, or nothing in it: the defaults (what the schema makes of any object without keys), and no
  // schema built (a step's start, core/once.ts).
  if (isMapping(input) && Object.keys(input).length === 0) return { ok: true, config: structuredClone(DEFAULT_REPO_CONFIG), skipped: [] };
  const setAside = setAsideInvalidAutomations(input, options.label, options.values);
  const skipped = setAside.problems;
  input = setAside.input;
  const result = repoConfigSchema().safeParse(input);
  if (result.success) return { ok: true, config: result.data, skipped };
  const problems = locateIssues(result.error.issues, input, {
    allowedKeysAt: (path) => allowedKeysAt(repoConfigSchema(), path),
    label: options.label,
    suggest: suggestKey,
    values: options.values,
  });
  return { ok: false, problems: [...problems, ...skipped] };
}

/**
 * The webhook payload schemas: only the fields the bridge reads, tolerant of everything else. Each
 * is built on first use (`z.lazy`; the objects that others extend are functions): a process builds
 * the schemas of the events it receives, and no more (the Action's start paid about 20 M
 * instructions for all of them).
 */
import * as z from "zod/mini";
import { describeIssues } from "../../config/issues.js";
import { EventPayloadError } from "./types.js";

const text = z.pipe(
  z.nullish(z.string()),
  z.transform((value) => value ?? ""),
);
const optionalString = z.pipe(
  z.nullish(z.string()),
  z.transform((value) => value ?? null),
);
const optionalInt = z.pipe(
  z.nullish(z.int()),
  z.transform((value) => value ?? null),
);
/**
 * The most items a list the bridge reads may hold (labels, linked pull requests): far above what
 * GitHub sends, and checked before the items are, so a huge wrong list is one problem, not one per item.
 */
export const MAX_LIST_ITEMS = 1_000;

/** A list of `item`, held to MAX_LIST_ITEMS before any item is checked (a pipe stops at its first failing stage). */
function boundedList<T extends z.core.SomeType>(item: T) {
  return z.pipe(
    z.custom<unknown>((value) => !Array.isArray(value) || value.length <= MAX_LIST_ITEMS, {
      error: `must hold at most ${MAX_LIST_ITEMS} items`,
    }),
    z.array(item),
  );
}

const nullishString = z.nullish(z.string());
const nullishBoolean = z.nullish(z.boolean());

export const UserSchema = z.lazy(() => z.looseObject({ login: z.string(), type: nullishString }));

export const RepositorySchema = z.lazy(() =>
  z.looseObject({
    id: z.int(),
    name: z.string(),
    full_name: z.string(),
    private: nullishBoolean,
    html_url: nullishString,
    default_branch: nullishString,
    owner: z.nullish(z.looseObject({ login: z.string() })),
  }),
);

const commonSchema = () =>
  z.looseObject({
    action: nullishString,
    repository: RepositorySchema,
    installation: z.nullish(z.looseObject({ id: z.int() })),
    sender: UserSchema,
  });

const LabelsSchema = z.lazy(() =>
  z.pipe(
    z.nullish(boundedList(z.looseObject({ name: z.string() }))),
    z.transform((labels) => (labels ?? []).map((label) => label.name)),
  ),
);

const IssueSchema = z.lazy(() =>
  z.looseObject({
    number: z.int(),
    title: text,
    body: text,
    html_url: z.string(),
    state: optionalString,
    user: z.nullish(UserSchema),
    pull_request: z.nullish(z.looseObject({})),
    labels: LabelsSchema,
  }),
);

const commentSchema = () =>
  z.looseObject({
    id: z.int(),
    body: text,
    html_url: z.string(),
    user: UserSchema,
    created_at: optionalString,
  });

const PullRequestSchema = z.lazy(() =>
  z.looseObject({
    number: z.int(),
    html_url: z.string(),
    title: text,
    body: text,
    state: optionalString,
    draft: nullishBoolean,
    user: z.nullish(UserSchema),
    labels: LabelsSchema,
    head: z.looseObject({
      ref: z.string(),
      sha: z.string(),
      repo: z.nullish(z.looseObject({ id: z.int(), full_name: z.string() })),
    }),
    base: z.looseObject({
      ref: z.string(),
      repo: z.looseObject({ id: z.int(), full_name: z.string() }),
    }),
  }),
);

const LinkedPullRequestSchema = z.lazy(() =>
  z.looseObject({
    number: z.int(),
    head: z.looseObject({ ref: z.string(), sha: z.string(), repo: z.looseObject({ id: z.int() }) }),
    base: z.looseObject({ ref: z.string(), repo: z.looseObject({ id: z.int() }) }),
  }),
);

const schemas = {
  issue_comment: z.lazy(() => z.extend(commonSchema(), { issue: IssueSchema, comment: commentSchema() })),
  issues: z.lazy(() => z.extend(commonSchema(), { issue: IssueSchema, label: z.nullish(z.looseObject({ name: z.string() })) })),
  pull_request: z.lazy(() => z.extend(commonSchema(), { pull_request: PullRequestSchema })),
  pull_request_review: z.lazy(() =>
    z.extend(commonSchema(), {
      pull_request: PullRequestSchema,
      review: z.looseObject({
        id: z.int(),
        body: text,
        state: z.string(),
        html_url: z.string(),
        commit_id: optionalString,
        user: z.nullish(UserSchema),
      }),
    }),
  ),
  pull_request_review_comment: z.lazy(() =>
    z.extend(commonSchema(), {
      pull_request: PullRequestSchema,
      comment: z.extend(commentSchema(), {
        path: z.string(),
        line: optionalInt,
        original_line: optionalInt,
        start_line: optionalInt,
        diff_hunk: text,
        pull_request_review_id: optionalInt,
        in_reply_to_id: optionalInt,
        commit_id: optionalString,
      }),
    }),
  ),
  check_suite: z.lazy(() =>
    z.extend(commonSchema(), {
      check_suite: z.looseObject({
        id: z.int(),
        status: optionalString,
        conclusion: optionalString,
        head_sha: z.string(),
        head_branch: optionalString,
        app: z.nullish(z.looseObject({ id: z.nullish(z.int()), slug: nullishString, name: nullishString })),
        pull_requests: z.nullish(boundedList(LinkedPullRequestSchema)),
      }),
    }),
  ),
  workflow_run: z.lazy(() =>
    z.extend(commonSchema(), {
      workflow_run: z.looseObject({
        id: z.int(),
        name: nullishString,
        display_title: nullishString,
        status: optionalString,
        conclusion: optionalString,
        head_sha: z.string(),
        head_branch: optionalString,
        html_url: z.string(),
        event: z.string(),
        run_attempt: z.nullish(z.int()),
        run_number: optionalInt,
        check_suite_id: optionalInt,
        workflow_id: optionalInt,
        head_repository: z.nullish(z.looseObject({ id: z.int(), full_name: z.string() })),
        pull_requests: z.nullish(boundedList(LinkedPullRequestSchema)),
      }),
    }),
  ),
};

export type KnownEventName = keyof typeof schemas;

export type UserPayload = z.output<typeof UserSchema>;
export type RepositoryPayload = z.output<typeof RepositorySchema>;
export type CommonPayload = z.output<ReturnType<typeof commonSchema>>;
export type IssuePayload = z.output<typeof IssueSchema>;
export type PullRequestPayload = z.output<typeof PullRequestSchema>;
export type LinkedPullRequestPayload = z.output<typeof LinkedPullRequestSchema>;

export function isKnownEventName(name: string): name is KnownEventName {
  return Object.hasOwn(schemas, name);
}

/**
 * What is missing or of the wrong kind among the fields the bridge reads, the values never quoted (a
 * log line holds these): at most `max`, then how many more. A field that should be an object and is
 * a list of a huge number of them yields one problem each, and zod collects them by spreading an
 * array into a call, which overflows the stack: that is one problem too.
 */
export function knownPayloadProblems(name: KnownEventName, payload: unknown, max: number): string[] {
  let result: ReturnType<(typeof schemas)[KnownEventName]["safeParse"]>;
  try {
    result = schemas[name].safeParse(payload);
  } catch (error) {
    if (error instanceof RangeError) return ["the payload has too many wrong values to list"];
    throw error;
  }
  if (result.success) return [];
  const { issues } = result.error;
  const described = describeIssues(issues.slice(0, max), payload, { values: "kinds" });
  return issues.length > max ? [...described, `and ${issues.length - max} more`] : described;
}

/** The fields of a known event's payload; throws `EventPayloadError` naming what is missing or wrong. */
export function parseKnown<N extends KnownEventName>(name: N, payload: unknown): z.output<(typeof schemas)[N]> {
  const result = schemas[name].safeParse(payload);
  if (!result.success) throw new EventPayloadError(name, describeIssues(result.error.issues, payload, { values: "quoted" }));
  return result.data as z.output<(typeof schemas)[N]>;
}

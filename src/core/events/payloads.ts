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
    z.nullish(z.array(z.looseObject({ name: z.string() }))),
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
        pull_requests: z.nullish(z.array(LinkedPullRequestSchema)),
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
        pull_requests: z.nullish(z.array(LinkedPullRequestSchema)),
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

/** The fields of a known event's payload; throws `EventPayloadError` naming what is missing or wrong. */
export function parseKnown<N extends KnownEventName>(name: N, payload: unknown): z.output<(typeof schemas)[N]> {
  const result = schemas[name].safeParse(payload);
  if (!result.success) throw new EventPayloadError(name, describeIssues(result.error.issues, payload, { values: "quoted" }));
  return result.data as z.output<(typeof schemas)[N]>;
}

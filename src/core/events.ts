/**
 * Parses a raw webhook `(name, payload)` once into a discriminated union of the events the bridge
 * acts on, with the facts every later step needs already normalised (repository, sender, thread,
 * pull request and fork information). Only the fields read here are validated; the raw payload is
 * kept, typed by `@octokit/webhooks-types`, for anything else.
 */
import type {
  CheckSuiteEvent,
  IssueCommentEvent,
  IssuesEvent,
  PullRequestReviewCommentEvent,
  PullRequestReviewEvent,
  WorkflowRunEvent,
} from "@octokit/webhooks-types";
import * as z from "zod/mini";
import { describeIssues } from "../config/issues.js";

// ---------------------------------------------------------------------------------------------
// Normalised facts

export interface RepoRef {
  owner: string;
  name: string;
  /** `owner/name`. */
  fullName: string;
  id: number;
  private: boolean;
  /** `https://github.com/owner/name` (or the GHES equivalent). */
  htmlUrl: string;
  defaultBranch: string | null;
}

export interface Actor {
  login: string;
  /** `User`, `Bot` or `Organization`. */
  type: string;
}

export type ThreadKind = "issue" | "pull_request";

/** The issue or pull request a conversation happens on. */
export interface ThreadRef {
  kind: ThreadKind;
  number: number;
  url: string;
  title: string;
  /** Raw Markdown, `""` when empty. Not sanitised: the prompt builder does that. */
  body: string;
  author: Actor | null;
  state: string | null;
  /** The labels on the issue or pull request when the event happened (names as written). */
  labels: string[];
}

export interface CommentRef {
  id: number;
  body: string;
  url: string;
  author: Actor;
  createdAt: string | null;
}

export interface PullRequestRef {
  number: number;
  url: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  /** `owner/name` of the head repository; null when the fork was deleted. */
  headRepoFullName: string | null;
  /** The head branch lives in another repository (a fork, possibly deleted). */
  isFork: boolean;
  draft: boolean;
}

export interface ReviewRef {
  id: number;
  body: string;
  /** Lowercase, as webhooks send it: `approved`, `changes_requested`, `commented`, `dismissed`. */
  state: string;
  url: string;
  commitId: string | null;
  author: Actor | null;
}

export interface ReviewCommentRef extends CommentRef {
  path: string;
  /** Line in the file the comment refers to (null on outdated comments). */
  line: number | null;
  startLine: number | null;
  diffHunk: string;
  reviewId: number | null;
  inReplyToId: number | null;
  commitId: string | null;
}

/** A pull request as check suites and workflow runs list it (numbers and refs, no title). */
export interface LinkedPullRequest {
  number: number;
  url: string;
  headRef: string;
  headSha: string;
  baseRef: string;
  isFork: boolean;
}

export interface CheckSuiteRef {
  id: number;
  status: string | null;
  conclusion: string | null;
  headSha: string;
  headBranch: string | null;
  /** The checks page of the head commit. */
  url: string;
  app: { id: number | null; slug: string | null; name: string | null } | null;
  /** Pull requests of this repository whose head is this suite's commit. */
  pullRequests: LinkedPullRequest[];
}

export interface WorkflowRunRef {
  id: number;
  name: string;
  displayTitle: string | null;
  status: string | null;
  conclusion: string | null;
  headSha: string;
  headBranch: string | null;
  url: string;
  /** The event that started the workflow (`pull_request`, `push`…). */
  event: string;
  runAttempt: number;
  runNumber: number | null;
  checkSuiteId: number | null;
  workflowId: number | null;
  headRepoFullName: string | null;
  /** The run's head commit comes from another repository. */
  isFork: boolean;
  pullRequests: LinkedPullRequest[];
}

// ---------------------------------------------------------------------------------------------
// The union

interface EventCommon {
  /** The GitHub event name (`X-GitHub-Event`). */
  name: string;
  action: string | null;
  repo: RepoRef;
  installationId: number | null;
  sender: Actor;
}

export interface IssueCommentBridgeEvent extends EventCommon {
  kind: "issue_comment";
  thread: ThreadRef;
  comment: CommentRef;
  raw: IssueCommentEvent;
}

export interface IssuesBridgeEvent extends EventCommon {
  kind: "issues";
  thread: ThreadRef;
  /** The label added or removed (`labeled` / `unlabeled`), else null. */
  label: { name: string } | null;
  raw: IssuesEvent;
}

export interface PullRequestReviewBridgeEvent extends EventCommon {
  kind: "pull_request_review";
  thread: ThreadRef;
  pullRequest: PullRequestRef;
  review: ReviewRef;
  raw: PullRequestReviewEvent;
}

export interface PullRequestReviewCommentBridgeEvent extends EventCommon {
  kind: "pull_request_review_comment";
  thread: ThreadRef;
  pullRequest: PullRequestRef;
  comment: ReviewCommentRef;
  raw: PullRequestReviewCommentEvent;
}

export interface CheckSuiteBridgeEvent extends EventCommon {
  kind: "check_suite";
  checkSuite: CheckSuiteRef;
  raw: CheckSuiteEvent;
}

export interface WorkflowRunBridgeEvent extends EventCommon {
  kind: "workflow_run";
  workflowRun: WorkflowRunRef;
  raw: WorkflowRunEvent;
}

/** Everything else (`workflow_dispatch`, `schedule`, `push`, `repository_dispatch`…): only what is there. */
export interface OtherBridgeEvent {
  kind: "other";
  name: string;
  action: string | null;
  repo: RepoRef | null;
  installationId: number | null;
  sender: Actor | null;
  raw: unknown;
}

export type BridgeEvent =
  | IssueCommentBridgeEvent
  | IssuesBridgeEvent
  | PullRequestReviewBridgeEvent
  | PullRequestReviewCommentBridgeEvent
  | CheckSuiteBridgeEvent
  | WorkflowRunBridgeEvent
  | OtherBridgeEvent;

export type BridgeEventKind = BridgeEvent["kind"];

/** Events that happen on one issue or pull request. */
export type ThreadEvent =
  | IssueCommentBridgeEvent
  | IssuesBridgeEvent
  | PullRequestReviewBridgeEvent
  | PullRequestReviewCommentBridgeEvent;

export const isIssueCommentEvent = (e: BridgeEvent): e is IssueCommentBridgeEvent => e.kind === "issue_comment";
export const isIssuesEvent = (e: BridgeEvent): e is IssuesBridgeEvent => e.kind === "issues";
export const isPullRequestReviewEvent = (e: BridgeEvent): e is PullRequestReviewBridgeEvent => e.kind === "pull_request_review";
export const isPullRequestReviewCommentEvent = (e: BridgeEvent): e is PullRequestReviewCommentBridgeEvent =>
  e.kind === "pull_request_review_comment";
export const isCheckSuiteEvent = (e: BridgeEvent): e is CheckSuiteBridgeEvent => e.kind === "check_suite";
export const isWorkflowRunEvent = (e: BridgeEvent): e is WorkflowRunBridgeEvent => e.kind === "workflow_run";
export const isOtherEvent = (e: BridgeEvent): e is OtherBridgeEvent => e.kind === "other";
export const isThreadEvent = (e: BridgeEvent): e is ThreadEvent => "thread" in e;
/** An issue comment written on a pull request's conversation tab. */
export const isPullRequestComment = (e: BridgeEvent): e is IssueCommentBridgeEvent =>
  e.kind === "issue_comment" && e.thread.kind === "pull_request";

/** A known event whose payload lacks a field the bridge needs. */
export class EventPayloadError extends Error {
  override name = "EventPayloadError";
  readonly eventName: string;
  readonly issues: string[];
  constructor(eventName: string, issues: string[]) {
    super(`The "${eventName}" webhook payload cannot be read: ${issues.join("; ")}. Is it a real GitHub payload?`);
    this.eventName = eventName;
    this.issues = issues;
  }
}

// ---------------------------------------------------------------------------------------------
// Payload schemas: only what is read, tolerant of everything else. Each is built on first use
// (`z.lazy`; the objects that others extend are functions): a process builds the schemas of the
// events it receives, and no more (the Action's start paid about 20 M instructions for all of them).

const text = z.pipe(z.nullish(z.string()), z.transform((value) => value ?? ""));
const optionalString = z.pipe(z.nullish(z.string()), z.transform((value) => value ?? null));
const optionalInt = z.pipe(z.nullish(z.int()), z.transform((value) => value ?? null));
const nullishString = z.nullish(z.string());
const nullishBoolean = z.nullish(z.boolean());

const UserSchema = z.lazy(() => z.looseObject({ login: z.string(), type: nullishString }));

const RepositorySchema = z.lazy(() =>
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

type KnownEventName = keyof typeof schemas;

function parseKnown<N extends KnownEventName>(name: N, payload: unknown): z.output<(typeof schemas)[N]> {
  const result = schemas[name].safeParse(payload);
  if (!result.success) throw new EventPayloadError(name, describeIssues(result.error.issues, payload));
  return result.data as z.output<(typeof schemas)[N]>;
}

// ---------------------------------------------------------------------------------------------
// Normalisation

const actor = (user: z.output<typeof UserSchema>): Actor => ({ login: user.login, type: user.type ?? "User" });

function repoRef(repository: z.output<typeof RepositorySchema>): RepoRef {
  const [ownerFromName = "", nameFromFull = repository.name] = repository.full_name.split("/");
  const owner = repository.owner?.login ?? ownerFromName;
  return {
    owner,
    name: repository.name || nameFromFull,
    fullName: repository.full_name,
    id: repository.id,
    private: repository.private ?? false,
    htmlUrl: (repository.html_url ?? `https://github.com/${repository.full_name}`).replace(/\/+$/, ""),
    defaultBranch: repository.default_branch ?? null,
  };
}

function common(name: string, payload: z.output<ReturnType<typeof commonSchema>>): EventCommon {
  return {
    name,
    action: payload.action ?? null,
    repo: repoRef(payload.repository),
    installationId: payload.installation?.id ?? null,
    sender: actor(payload.sender),
  };
}

function issueThread(issue: z.output<typeof IssueSchema>): ThreadRef {
  return {
    kind: issue.pull_request ? "pull_request" : "issue",
    number: issue.number,
    url: issue.html_url,
    title: issue.title,
    body: issue.body,
    author: issue.user ? actor(issue.user) : null,
    state: issue.state,
    labels: issue.labels,
  };
}

function pullRequestThread(pr: z.output<typeof PullRequestSchema>): ThreadRef {
  return {
    kind: "pull_request",
    number: pr.number,
    url: pr.html_url,
    title: pr.title,
    body: pr.body,
    author: pr.user ? actor(pr.user) : null,
    state: pr.state,
    labels: pr.labels,
  };
}

function pullRequestRef(pr: z.output<typeof PullRequestSchema>): PullRequestRef {
  const headRepo = pr.head.repo ?? null;
  return {
    number: pr.number,
    url: pr.html_url,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    headRepoFullName: headRepo?.full_name ?? null,
    // A deleted head repository can only have been a fork.
    isFork: headRepo === null || headRepo.id !== pr.base.repo.id,
    draft: pr.draft ?? false,
  };
}

function linkedPullRequests(
  list: ReadonlyArray<z.output<typeof LinkedPullRequestSchema>> | null | undefined,
  repo: RepoRef,
): LinkedPullRequest[] {
  // A suite's commit can also be the head of a pull request in another repository (this one is
  // then the fork): that pull request is not ours to act on.
  return (list ?? [])
    .filter((pr) => pr.base.repo.id === repo.id)
    .map((pr) => ({
      number: pr.number,
      url: `${repo.htmlUrl}/pull/${pr.number}`,
      headRef: pr.head.ref,
      headSha: pr.head.sha,
      baseRef: pr.base.ref,
      isFork: pr.head.repo.id !== pr.base.repo.id,
    }));
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function parseOther(name: string, payload: unknown): OtherBridgeEvent {
  const record = asRecord(payload);
  const repository = RepositorySchema.safeParse(record?.repository);
  const sender = UserSchema.safeParse(record?.sender);
  const installation = asRecord(record?.installation);
  return {
    kind: "other",
    name,
    action: typeof record?.action === "string" ? record.action : null,
    repo: repository.success ? repoRef(repository.data) : null,
    installationId: typeof installation?.id === "number" ? installation.id : null,
    sender: sender.success ? actor(sender.data) : null,
    raw: payload,
  };
}

/**
 * Parses a webhook. Unknown event names become `other`; a known event whose payload lacks a
 * field the bridge reads throws `EventPayloadError` naming the field.
 */
export function parseWebhookEvent(name: string, payload: unknown): BridgeEvent {
  switch (name) {
    case "issue_comment": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: issueThread(p.issue),
        comment: { id: p.comment.id, body: p.comment.body, url: p.comment.html_url, author: actor(p.comment.user), createdAt: p.comment.created_at },
        raw: payload as IssueCommentEvent,
      };
    }
    case "issues": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: issueThread(p.issue),
        label: p.label ? { name: p.label.name } : null,
        raw: payload as IssuesEvent,
      };
    }
    case "pull_request_review": {
      const p = parseKnown(name, payload);
      return {
        kind: name,
        ...common(name, p),
        thread: pullRequestThread(p.pull_request),
        pullRequest: pullRequestRef(p.pull_request),
        review: {
          id: p.review.id,
          body: p.review.body,
          state: p.review.state.toLowerCase(),
          url: p.review.html_url,
          commitId: p.review.commit_id,
          author: p.review.user ? actor(p.review.user) : null,
        },
        raw: payload as PullRequestReviewEvent,
      };
    }
    case "pull_request_review_comment": {
      const p = parseKnown(name, payload);
      const c = p.comment;
      return {
        kind: name,
        ...common(name, p),
        thread: pullRequestThread(p.pull_request),
        pullRequest: pullRequestRef(p.pull_request),
        comment: {
          id: c.id,
          body: c.body,
          url: c.html_url,
          author: actor(c.user),
          createdAt: c.created_at,
          path: c.path,
          line: c.line ?? c.original_line,
          startLine: c.start_line,
          diffHunk: c.diff_hunk,
          reviewId: c.pull_request_review_id,
          inReplyToId: c.in_reply_to_id,
          commitId: c.commit_id,
        },
        raw: payload as PullRequestReviewCommentEvent,
      };
    }
    case "check_suite": {
      const p = parseKnown(name, payload);
      const base = common(name, p);
      const s = p.check_suite;
      return {
        kind: name,
        ...base,
        checkSuite: {
          id: s.id,
          status: s.status,
          conclusion: s.conclusion,
          headSha: s.head_sha,
          headBranch: s.head_branch,
          url: `${base.repo.htmlUrl}/commit/${s.head_sha}/checks`,
          app: s.app ? { id: s.app.id ?? null, slug: s.app.slug ?? null, name: s.app.name ?? null } : null,
          pullRequests: linkedPullRequests(s.pull_requests, base.repo),
        },
        raw: payload as CheckSuiteEvent,
      };
    }
    case "workflow_run": {
      const p = parseKnown(name, payload);
      const base = common(name, p);
      const r = p.workflow_run;
      const headRepo = r.head_repository ?? null;
      return {
        kind: name,
        ...base,
        workflowRun: {
          id: r.id,
          name: r.name ?? "",
          displayTitle: r.display_title ?? null,
          status: r.status,
          conclusion: r.conclusion,
          headSha: r.head_sha,
          headBranch: r.head_branch,
          url: r.html_url,
          event: r.event,
          runAttempt: r.run_attempt ?? 1,
          runNumber: r.run_number,
          checkSuiteId: r.check_suite_id,
          workflowId: r.workflow_id,
          headRepoFullName: headRepo?.full_name ?? null,
          isFork: headRepo !== null && headRepo.id !== base.repo.id,
          pullRequests: linkedPullRequests(r.pull_requests, base.repo),
        },
        raw: payload as WorkflowRunEvent,
      };
    }
    default:
      return parseOther(name, payload);
  }
}

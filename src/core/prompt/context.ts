/**
 * What a prompt is built from: plain data the shell fetched (thread, comments, review comments,
 * failed checks), per flow, and the limits every part is bounded by. Building the text is
 * sections.ts and build.ts; this file is the shapes and the mapping from parsed events.
 */
import type { RepoRole } from "../../config/schema.js";
import type { BridgeEvent, PullRequestRef, RepositoryFacts, ReviewCommentRef, ThreadKind, ThreadRef } from "../events/types.js";

// ---------------------------------------------------------------------------------------------
// Limits

export interface PromptLimits {
  /** The whole prompt. */
  totalChars: number;
  /** The user's instruction (an explicit dispatch prompt included). */
  instructionChars: number;
  /** An issue or pull request description. */
  threadBodyChars: number;
  /** Recent comments shown, newest last. */
  comments: number;
  commentChars: number;
  reviewComments: number;
  diffHunkChars: number;
  checks: number;
  checkSummaryChars: number;
  annotationsPerCheck: number;
  annotationChars: number;
  /** Log excerpt per failed job; the end is kept (errors come last). */
  logExcerptChars: number;
}

export const DEFAULT_PROMPT_LIMITS: PromptLimits = {
  totalChars: 60_000,
  instructionChars: 20_000,
  threadBodyChars: 8_000,
  comments: 20,
  commentChars: 3_000,
  reviewComments: 30,
  diffHunkChars: 1_500,
  checks: 10,
  checkSummaryChars: 2_000,
  annotationsPerCheck: 10,
  annotationChars: 500,
  logExcerptChars: 6_000,
};

export interface PromptOptions {
  /** The repository's `instructions`, appended to every prompt. */
  instructions?: string;
  limits?: Partial<PromptLimits>;
  /** The bridge's own logins: their comments are never context (besides bots, which are dropped anyway). */
  botLogins?: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Context the shell fills

/**
 * What a text's author may do in the repository: `write` (write, maintain or admin), `read` (read
 * or triage) or `none`. Text from anyone without write access is quoted as material, never followed.
 */
export type AuthorAccess = "write" | "read" | "none";

/** A repository role as access: write, maintain and admin write; read and triage only read. */
export function authorAccessOfRole(role: RepoRole): AuthorAccess {
  if (role === "write" || role === "maintain" || role === "admin") return "write";
  return role === "none" ? "none" : "read";
}

export interface PromptComment {
  id?: number;
  author: string;
  /** `User`, `Bot`… Bots' comments are left out. */
  authorType?: string | null;
  body: string;
  createdAt?: string | null;
  /** Last edit; a comment edited after the trigger is left out. */
  updatedAt?: string | null;
  /** Unknown reads as `none`. */
  access?: AuthorAccess;
  url?: string | null;
}

export interface PullRequestDetails {
  url: string;
  baseRef: string;
  headRef: string;
  /** `owner/name` of the head repository, when it is a fork. */
  headRepoFullName?: string | null;
  isFork?: boolean;
  /** The head commit when read (a review run anchors on it). */
  headSha?: string;
}

export interface ThreadContext {
  /** `owner/name`. */
  repository: string;
  kind: ThreadKind;
  number: number;
  url: string;
  title: string;
  body: string;
  author?: string | null;
  /** The description author's access; unknown reads as `none`. */
  authorAccess?: AuthorAccess;
  /** The thread's comments in the order GitHub lists them (oldest first); only the newest are used. */
  comments?: readonly PromptComment[];
  /** Comments the shell already left out (older ones beyond what it fetched), for "the last N of M". */
  omittedComments?: number;
  /** Set for pull requests. */
  pullRequest?: PullRequestDetails | null;
  /** When the trigger happened: comments written or edited later are left out (null: none are). */
  asOf?: string | null;
}

export interface ReviewContext {
  author: string;
  /** The review author's access; unknown reads as `none`. */
  access?: AuthorAccess;
  /** `changes_requested`, `commented`, `approved`. */
  state: string;
  body: string;
  url: string;
}

export interface ReviewCommentContext {
  id?: number;
  author: string;
  /** Unknown reads as `none`. */
  access?: AuthorAccess;
  path: string;
  line?: number | null;
  startLine?: number | null;
  diffHunk?: string | null;
  body: string;
  url?: string | null;
}

export interface CheckAnnotation {
  path: string;
  startLine?: number | null;
  endLine?: number | null;
  /** `failure`, `warning`, `notice`. */
  level?: string | null;
  title?: string | null;
  message: string;
}

/** A failed check run (check suite flow) or job (workflow run flow). */
export interface FailedCheckContext {
  name: string;
  conclusion: string | null;
  url?: string | null;
  /** Check run output. */
  title?: string | null;
  summary?: string | null;
  annotations?: readonly CheckAnnotation[];
  /** Names of the failed steps of a workflow job. */
  failedSteps?: readonly string[];
  /** Raw job log (or its tail); the end is kept. */
  logExcerpt?: string | null;
}

export interface CheckFailureContext {
  repository: string;
  pullRequest: { number: number; url: string; title?: string | null; headRef: string; baseRef?: string | null };
  headSha: string;
  /** The workflow run or the checks page. */
  runName?: string | null;
  runUrl?: string | null;
  failures: readonly FailedCheckContext[];
  /** This attempt and the limit (`check_suite.max_attempts`). */
  attempt?: { number: number; max: number };
}

export type PromptInput =
  | {
      flow: "comment";
      instruction: string;
      /** The lines the trigger comment quotes (`>`, `<blockquote>`): someone else's words, never the request. */
      quoted?: string | null;
      requester: string;
      commentUrl: string;
      commentId?: number;
      thread: ThreadContext;
    }
  | { flow: "label"; label: string; requester: string; thread: ThreadContext }
  | {
      flow: "review";
      instruction: string;
      /** The lines the trigger quotes, as for a comment. */
      quoted?: string | null;
      requester: string;
      thread: ThreadContext;
      review: ReviewContext | null;
      reviewComments: readonly ReviewCommentContext[];
      /** The review comment holding the trigger, when that is what started the run. */
      triggerCommentUrl?: string | null;
    }
  | ({ flow: "check_suite" | "workflow_run" } & CheckFailureContext)
  | { flow: "dispatch"; prompt: string; thread?: ThreadContext | null }
  /** An automation's run: its configured instruction, then the issue or pull request it started on. */
  | { flow: "automation"; automation: string; event: string; prompt: string; thread: ThreadContext };

// ---------------------------------------------------------------------------------------------
// From parsed events to prompt context

/** A thread's context from the event's facts plus what the shell fetched (comments, PR refs). */
export function threadContextFrom(
  repo: Pick<RepositoryFacts, "fullName">,
  thread: ThreadRef,
  fetched: {
    comments?: readonly PromptComment[];
    omittedComments?: number;
    pullRequest?: PullRequestRef | PullRequestDetails | null;
    asOf?: string | null;
  } = {},
): ThreadContext {
  const pr = fetched.pullRequest;
  return {
    repository: repo.fullName,
    kind: thread.kind,
    number: thread.number,
    url: thread.url,
    title: thread.title,
    body: thread.body,
    author: thread.author?.login ?? null,
    comments: fetched.comments ?? [],
    omittedComments: fetched.omittedComments ?? 0,
    pullRequest: pr
      ? { url: pr.url, baseRef: pr.baseRef, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName ?? null, isFork: pr.isFork ?? false }
      : null,
    asOf: fetched.asOf ?? null,
  };
}

/**
 * When the event that triggers a run happened, as its payload says: the triggering comment's last
 * edit, the review's submission, the issue's last update for a label. Null for other events.
 */
export function eventTimeOf(event: BridgeEvent): string | null {
  const time = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  switch (event.kind) {
    case "issue_comment":
    case "pull_request_review_comment":
      return time(event.raw.comment.updated_at) ?? time(event.raw.comment.created_at);
    case "pull_request_review":
      return time(event.raw.review.submitted_at);
    case "issues":
      return time(event.raw.issue.updated_at);
    default:
      return null;
  }
}

/** A review comment from the event, in the shape the prompt takes. */
export function reviewCommentContextFrom(comment: ReviewCommentRef): ReviewCommentContext {
  return {
    id: comment.id,
    author: comment.author.login,
    path: comment.path,
    line: comment.line,
    startLine: comment.startLine,
    diffHunk: comment.diffHunk,
    body: comment.body,
    url: comment.url,
  };
}

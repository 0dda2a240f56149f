/**
 * What a webhook means to the bridge once parsed: the events it acts on as one discriminated union,
 * with the facts every later step needs already normalised (repository, sender, thread, pull
 * request and fork information). Parsing is parse.ts; the payload schemas are payloads.ts.
 */
import type {
  CheckSuiteEvent,
  IssueCommentEvent,
  IssuesEvent,
  PullRequestEvent,
  PullRequestReviewCommentEvent,
  PullRequestReviewEvent,
  WorkflowRunEvent,
} from "@octokit/webhooks-types";

// ---------------------------------------------------------------------------------------------
// Normalised facts

/** The repository an event happened in, as the bridge reads it (an octokit call takes github/client.ts's `RepoRef` instead). */
export interface RepositoryFacts {
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

/** What every event the bridge acts on carries. */
export interface EventCommon {
  /** The GitHub event name (`X-GitHub-Event`). */
  name: string;
  action: string | null;
  repo: RepositoryFacts;
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

/** A pull request opened, marked ready for review, or otherwise changed (only automations act on these). */
export interface PullRequestBridgeEvent extends EventCommon {
  kind: "pull_request";
  thread: ThreadRef;
  pullRequest: PullRequestRef;
  raw: PullRequestEvent;
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
  repo: RepositoryFacts | null;
  installationId: number | null;
  sender: Actor | null;
  raw: unknown;
}

export type BridgeEvent =
  | IssueCommentBridgeEvent
  | IssuesBridgeEvent
  | PullRequestBridgeEvent
  | PullRequestReviewBridgeEvent
  | PullRequestReviewCommentBridgeEvent
  | CheckSuiteBridgeEvent
  | WorkflowRunBridgeEvent
  | OtherBridgeEvent;

/** Events that happen on one issue or pull request. */
export type ThreadEvent =
  IssueCommentBridgeEvent | IssuesBridgeEvent | PullRequestBridgeEvent | PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent;

export const isThreadEvent = (e: BridgeEvent): e is ThreadEvent => "thread" in e;

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

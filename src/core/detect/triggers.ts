/**
 * What a detection answers: a `RunTrigger` per flow (comment, label, review, CI failure, explicit
 * prompt, automation) or a `StopRequest`, and where a trigger's replies go. An automation's detection
 * is core/automations.ts's.
 */
import type { Automation } from "../../config/automations.js";
import type { SOURCE } from "../../service/wire.js";
import type {
  Actor,
  BridgeEvent,
  CheckSuiteBridgeEvent,
  CheckSuiteRef,
  CommentRef,
  IssueCommentBridgeEvent,
  IssuesBridgeEvent,
  LinkedPullRequest,
  PullRequestRef,
  PullRequestBridgeEvent,
  PullRequestReviewBridgeEvent,
  PullRequestReviewCommentBridgeEvent,
  RepositoryFacts,
  ReviewCommentRef,
  ReviewRef,
  ThreadKind,
  ThreadRef,
  WorkflowRunBridgeEvent,
  WorkflowRunRef,
} from "../events/types.js";

interface TriggerCommon {
  repo: RepositoryFacts;
  /** Who asked (comment or review author, label sender; the sender for CI events). */
  actor: Actor;
  /** `<flow>:<id>`: two deliveries with the same key are the same request (e.g. a review and its inline comments). */
  dedupeKey: string;
  /** Start a fresh run even when the thread has one. */
  forceNew: boolean;
}

interface CommentTrigger extends TriggerCommon {
  flow: "comment";
  sourceType: typeof SOURCE.gitHost;
  event: IssueCommentBridgeEvent;
  thread: ThreadRef;
  comment: CommentRef;
  instruction: string;
  /** The lines the comment quotes: someone else's words, shown as material, never the request. */
  quoted: string;
}

interface LabelTrigger extends TriggerCommon {
  flow: "label";
  sourceType: typeof SOURCE.gitHost;
  event: IssuesBridgeEvent;
  thread: ThreadRef;
  label: string;
}

export interface ReviewTrigger extends TriggerCommon {
  flow: "review";
  sourceType: typeof SOURCE.gitHostPrReview;
  event: PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent;
  thread: ThreadRef;
  pullRequest: PullRequestRef;
  /** Set for a submitted review. */
  review: ReviewRef | null;
  /** Set for an inline review comment that contains the trigger. */
  reviewComment: ReviewCommentRef | null;
  /** The review (comment) that holds the trigger: `changes_requested`, or the trigger phrase / mention. */
  reason: "changes_requested" | "trigger";
  instruction: string;
  /** The lines the review (comment) quotes, as for a comment. */
  quoted: string;
}

interface CheckSuiteTrigger extends TriggerCommon {
  flow: "check_suite";
  sourceType: typeof SOURCE.gitHostCheckSuite;
  event: CheckSuiteBridgeEvent;
  checkSuite: CheckSuiteRef;
  /** The pull request to fix (the first eligible one) and every eligible one. */
  pullRequest: LinkedPullRequest;
  pullRequests: LinkedPullRequest[];
  headSha: string;
  headBranch: string;
}

interface WorkflowRunTrigger extends TriggerCommon {
  flow: "workflow_run";
  sourceType: typeof SOURCE.gitHostCheckSuite;
  event: WorkflowRunBridgeEvent;
  workflowRun: WorkflowRunRef;
  pullRequest: LinkedPullRequest;
  pullRequests: LinkedPullRequest[];
  headSha: string;
  headBranch: string;
}

interface DispatchTrigger extends Omit<TriggerCommon, "repo" | "actor"> {
  flow: "dispatch";
  sourceType: typeof SOURCE.api;
  event: BridgeEvent;
  repo: RepositoryFacts | null;
  actor: Actor | null;
  /** The caller's explicit prompt. */
  prompt: string;
  /** The thread the event happened on, if any. */
  thread: ThreadRef | null;
}

/**
 * `/agent stop` (or a leading `@app stop`) from a person, in a new comment, review or review comment:
 * not a task, but a request to let go of the thread's run (core/stop.ts says what that means).
 */
export interface StopRequest {
  flow: "stop";
  repo: RepositoryFacts;
  thread: ThreadRef;
  /** Who asked: they must be allowed to trigger runs (a refusal otherwise, as for a trigger). */
  actor: Actor;
  /** The comment to react to (a review itself takes no reactions). */
  reaction: { kind: "issue_comment" | "review_comment"; id: number } | null;
  /** The stop's own URL, for logs. */
  url: string;
  /** `stop:<comment or review id>`: a redelivery is the same request. */
  dedupeKey: string;
}

/**
 * An automation of the configuration (`automations`), started by a new issue or pull request (or
 * a draft marked ready): nobody asked, so a "no" is never said in the thread.
 */
export interface AutomationTrigger extends TriggerCommon {
  flow: "automation";
  sourceType: typeof SOURCE.gitHost;
  event: IssuesBridgeEvent | PullRequestBridgeEvent;
  thread: ThreadRef;
  automation: Automation;
  /** Whose permission counts: the opener, and for a draft marked ready also whoever marked it (each must be allowed). */
  accountable: Actor[];
}

export type RunTrigger =
  CommentTrigger | LabelTrigger | ReviewTrigger | CheckSuiteTrigger | WorkflowRunTrigger | DispatchTrigger | AutomationTrigger;
export type CheckFailureTrigger = CheckSuiteTrigger | WorkflowRunTrigger;

export const isCheckFailureTrigger = (trigger: RunTrigger): trigger is CheckFailureTrigger =>
  trigger.flow === "check_suite" || trigger.flow === "workflow_run";

/** Where replies go: the issue or pull request conversation (for CI flows, the pull request). */
export interface ReplyThread {
  kind: ThreadKind;
  number: number;
  url: string;
}

/** The issue or pull request a trigger concerns (for CI flows, the pull request), or null. */
export function triggerThread(trigger: RunTrigger): ReplyThread | null {
  if (isCheckFailureTrigger(trigger)) {
    return { kind: "pull_request", number: trigger.pullRequest.number, url: trigger.pullRequest.url };
  }
  const thread = trigger.thread;
  return thread ? { kind: thread.kind, number: thread.number, url: thread.url } : null;
}

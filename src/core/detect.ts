/**
 * Is this event a request for the agent, and of which flow? `detectTrigger(event, config, self)`
 * reads only the event, the repository configuration and who the bridge is, and answers a
 * `RunTrigger` (comment, label, review, CI failure, explicit prompt), a `StopRequest` (`/agent
 * stop`), or why it is neither. Both pass the same gates (a new comment, never from a bot). What to
 * do about them (the kill switch and the permission included) is plan.ts's; which CI failures count
 * is ci.ts's; the comment grammar is trigger.ts's.
 */
import type { RepoConfig } from "../config/schema.js";
import { SOURCE } from "../service/wire.js";
import type {
  Actor,
  BridgeEvent,
  CheckSuiteBridgeEvent,
  IssueCommentBridgeEvent,
  IssuesBridgeEvent,
  LinkedPullRequest,
  PullRequestReviewBridgeEvent,
  PullRequestReviewCommentBridgeEvent,
  WorkflowRunBridgeEvent,
} from "./events/types.js";
import { classifyActor, isBotActor, type BridgeSelf } from "./actors.js";
import { automationEventOf, detectAutomations, type AutomationDetection, type AutomationIgnoreCode } from "./automations.js";
import { eligibleForFix, type CheckFailureIgnoreCode, type CheckFailureInput } from "./ci.js";
import { grammarOf, parseTriggerComment, type ParsedTrigger } from "./trigger.js";

export {
  isCheckFailureTrigger,
  triggerThread,
  type AutomationTrigger,
  type CheckFailureTrigger,
  type CheckSuiteTrigger,
  type CommentTrigger,
  type DispatchTrigger,
  type LabelTrigger,
  type ReplyThread,
  type ReviewTrigger,
  type RunFlow,
  type RunTrigger,
  type StopRequest,
  type WorkflowRunTrigger,
} from "./run-triggers.js";
import type { ReviewTrigger, RunTrigger, StopRequest } from "./run-triggers.js";

// ---------------------------------------------------------------------------------------------
// detectTrigger

export interface DetectOptions {
  /** An explicit prompt from the caller (the Action's `prompt` input): any event becomes a `dispatch`. */
  explicitPrompt?: string;
}

export type IgnoreCode =
  | "unsupported_event"
  | "unsupported_action"
  | "bot_sender"
  | "no_trigger"
  | "label_disabled"
  | "other_label"
  | "reviews_disabled"
  /** A review of a pull request from a fork, without the trigger: only the phrase acts on a fork's pull request. */
  | "fork_without_trigger"
  | "own_check_suite"
  /** A CI failure that is not worth a fix (ci.ts). */
  | CheckFailureIgnoreCode
  /** A new issue or pull request that starts no automation (automations.ts). */
  | AutomationIgnoreCode;

/** A request for a run, a request to stop the thread's run, the automations an event starts, or why the event is none of these. */
export type TriggerDetection =
  | { kind: "trigger"; trigger: RunTrigger }
  | { kind: "stop"; stop: StopRequest }
  | Extract<AutomationDetection, { kind: "automations" }>
  | { kind: "ignore"; reason: string; code: IgnoreCode };

const ignore = (code: IgnoreCode, reason: string): TriggerDetection => ({ kind: "ignore", code, reason });

const isSelf = (actor: Actor, self: BridgeSelf) => classifyActor(actor, self) === "self";

const onlyAction = (event: { name: string; action: string | null }, wanted: string, what: string) =>
  ignore("unsupported_action", `${event.name}.${event.action ?? "(no action)"}: only ${what} start runs (\`${event.name}.${wanted}\`).`);

const byBot = (actor: Actor, what: string) =>
  ignore("bot_sender", `${what} by the bot account @${actor.login}: bots do not start runs (this also prevents loops).`);

function noTriggerReason(config: RepoConfig, self: BridgeSelf, what: string): string {
  const mention = config.mention && self.appSlug ? ` or a mention of @${self.appSlug}` : "";
  return `${what} has no line starting with \`${config.trigger_phrase}\`${mention}.`;
}

const noTrigger = (config: RepoConfig, self: BridgeSelf, what: string) => ignore("no_trigger", noTriggerReason(config, self, what));

/** A new comment's run request (issue and review comments read alike); else its stop, or why it is neither. */
function readNewComment(
  event: IssueCommentBridgeEvent | PullRequestReviewCommentBridgeEvent,
  config: RepoConfig,
  self: BridgeSelf,
  what: "comment" | "review comment",
): { ok: true; parsed: ParsedTrigger } | { ok: false; answer: TriggerDetection } {
  const no = (answer: TriggerDetection) => ({ ok: false as const, answer });
  const capitalised = `${what[0]!.toUpperCase()}${what.slice(1)}`;
  if (event.action !== "created") return no(onlyAction(event, "created", `new ${what}s`));
  if (isBotActor(event.comment.author, self)) return no(byBot(event.comment.author, capitalised));
  if (isBotActor(event.sender, self)) return no(byBot(event.sender, capitalised));
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config, self));
  if (!parsed) return no(noTrigger(config, self, `The ${what}`));
  if (parsed.kind === "stop") {
    const keyPrefix = what === "comment" ? "comment" : "review-comment";
    return no(
      stopOf(event, event.comment.author, {
        reaction: { kind: what === "comment" ? "issue_comment" : "review_comment", id: event.comment.id },
        url: event.comment.url,
        dedupeKey: `stop:${keyPrefix}:${event.comment.id}`,
      }),
    );
  }
  return { ok: true, parsed };
}

/** The stop intent of a new comment, review or review comment. */
function stopOf(
  event: IssueCommentBridgeEvent | PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent,
  actor: Actor,
  about: Pick<StopRequest, "reaction" | "url" | "dedupeKey">,
): TriggerDetection {
  return { kind: "stop", stop: { flow: "stop", repo: event.repo, thread: event.thread, actor, ...about } };
}

function detectComment(event: IssueCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  const read = readNewComment(event, config, self, "comment");
  if (!read.ok) return read.answer;
  return {
    kind: "trigger",
    trigger: {
      flow: "comment",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.comment.author,
      dedupeKey: `comment:${event.comment.id}`,
      forceNew: read.parsed.forceNew,
      thread: event.thread,
      comment: event.comment,
      instruction: read.parsed.instruction,
    },
  };
}

function detectLabel(event: IssuesBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "labeled" || !event.label) return onlyAction(event, "labeled", "added labels");
  if (!config.label.enabled) return ignore("label_disabled", "Label triggers are off (`label.enabled: false`).");
  if (event.label.name.toLowerCase() !== config.label.name.toLowerCase()) {
    return ignore("other_label", `The label "${event.label.name}" is not the configured one ("${config.label.name}").`);
  }
  // Other bots may label on a person's behalf (the permission check still applies); our own labels never start a run.
  if (isSelf(event.sender, self)) return byBot(event.sender, "Label added");
  return {
    kind: "trigger",
    trigger: {
      flow: "label",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.sender,
      dedupeKey: `label:${event.thread.number}:${event.label.name.toLowerCase()}`,
      forceNew: false,
      thread: event.thread,
      label: event.label.name,
    },
  };
}

/** A review trigger, from a submitted review or one of its inline comments. */
function reviewTrigger(
  event: PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent,
  fields: Pick<ReviewTrigger, "actor" | "dedupeKey" | "forceNew" | "review" | "reviewComment" | "reason" | "instruction">,
): TriggerDetection {
  const { actor, dedupeKey, forceNew, ...about } = fields;
  return {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor,
      dedupeKey,
      forceNew,
      thread: event.thread,
      pullRequest: event.pullRequest,
      ...about,
    },
  };
}

function detectReview(event: PullRequestReviewBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "submitted") return onlyAction(event, "submitted", "submitted reviews");
  const author = event.review.author ?? event.sender;
  if (isBotActor(author, self)) return byBot(author, "Review");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review");
  const parsed = parseTriggerComment(event.review.body, grammarOf(config, self));
  if (parsed?.kind === "stop")
    return stopOf(event, author, { reaction: null, url: event.review.url, dedupeKey: `stop:review:${event.review.id}` });
  const changesRequested = event.review.state === "changes_requested";
  if (!parsed && !changesRequested) {
    const why = noTriggerReason(config, self, `The review (state ${event.review.state})`);
    return ignore("no_trigger", `${why} Only reviews requesting changes start runs without it.`);
  }
  if (!config.reviews.enabled) return ignore("reviews_disabled", "Review triggers are off (`reviews.enabled: false`).");
  // A fork's head is its author's to steer: a review there acts only when someone asks with the phrase.
  if (!parsed && event.pullRequest.isFork) {
    return ignore(
      "fork_without_trigger",
      `The review requests changes on a pull request from a fork (${event.pullRequest.headRepoFullName ?? "a deleted repository"}): on a fork's pull request only \`${config.trigger_phrase}\` starts or continues a run.`,
    );
  }
  return reviewTrigger(event, {
    actor: author,
    dedupeKey: `review:${event.review.id}`,
    forceNew: parsed?.forceNew ?? false,
    review: event.review,
    reviewComment: null,
    reason: parsed ? "trigger" : "changes_requested",
    instruction: parsed?.instruction ?? "",
  });
}

function detectReviewComment(event: PullRequestReviewCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  const read = readNewComment(event, config, self, "review comment");
  if (!read.ok) return read.answer;
  if (!config.reviews.enabled) {
    return ignore("reviews_disabled", "The review comment has the trigger, but review triggers are off (`reviews.enabled: false`).");
  }
  return reviewTrigger(event, {
    actor: event.comment.author,
    // Inline comments submitted with a review share its key: one run per review.
    dedupeKey: event.comment.reviewId !== null ? `review:${event.comment.reviewId}` : `review-comment:${event.comment.id}`,
    forceNew: read.parsed.forceNew,
    review: null,
    reviewComment: event.comment,
    reason: "trigger",
    instruction: read.parsed.instruction,
  });
}

/** A CI failure's eligible pull requests, or why it starts no fix (ci.ts). */
function guardCheckFailure(
  input: CheckFailureInput,
  config: RepoConfig,
): { ok: true; eligible: LinkedPullRequest[] } | { ok: false; ignored: TriggerDetection } {
  const eligibility = eligibleForFix(input, config.check_suite);
  return eligibility.ok ? eligibility : { ok: false, ignored: ignore(eligibility.code, eligibility.reason) };
}

function detectCheckSuite(event: CheckSuiteBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed check suites");
  const app = event.checkSuite.app;
  if (self.appSlug && app?.slug?.toLowerCase() === self.appSlug.toLowerCase()) {
    return ignore("own_check_suite", "The check suite belongs to this app.");
  }
  const guarded = guardCheckFailure(
    { conclusion: event.checkSuite.conclusion, pullRequests: event.checkSuite.pullRequests, runIsFork: false, what: "check suite" },
    config,
  );
  if (!guarded.ok) return guarded.ignored;
  return {
    kind: "trigger",
    trigger: {
      flow: "check_suite",
      event,
      checkSuite: event.checkSuite,
      ...checkFailureFields(event, event.checkSuite.headSha, guarded.eligible),
    },
  };
}

/** What both CI flows carry: one attempt per head SHA, on the first eligible pull request. */
function checkFailureFields(event: CheckSuiteBridgeEvent | WorkflowRunBridgeEvent, headSha: string, eligible: LinkedPullRequest[]) {
  const [pullRequest] = eligible as [LinkedPullRequest, ...LinkedPullRequest[]];
  return {
    sourceType: SOURCE.gitHostCheckSuite,
    repo: event.repo,
    actor: event.sender,
    dedupeKey: `ci:${headSha}`,
    forceNew: false,
    pullRequest,
    pullRequests: eligible,
    headSha,
    headBranch: pullRequest.headRef,
  };
}

function detectWorkflowRun(event: WorkflowRunBridgeEvent, config: RepoConfig): TriggerDetection {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed workflow runs");
  const run = event.workflowRun;
  const guarded = guardCheckFailure(
    { conclusion: run.conclusion, pullRequests: run.pullRequests, runIsFork: run.isFork, what: `workflow run "${run.name}"` },
    config,
  );
  if (!guarded.ok) return guarded.ignored;
  return {
    kind: "trigger",
    trigger: { flow: "workflow_run", event, workflowRun: run, ...checkFailureFields(event, run.headSha, guarded.eligible) },
  };
}

function dispatchTrigger(event: BridgeEvent, prompt: string, self: BridgeSelf): TriggerDetection {
  // An explicit prompt runs for whoever caused the event: the bridge itself and other bots never (loops, automation echoing text).
  if (event.sender && isBotActor(event.sender, self)) return byBot(event.sender, `The ${event.name} event`);
  const thread = "thread" in event ? event.thread : null;
  return {
    kind: "trigger",
    trigger: {
      flow: "dispatch",
      sourceType: SOURCE.api,
      event,
      repo: event.repo,
      actor: event.sender,
      dedupeKey: `dispatch:${event.name}:${thread?.number ?? "-"}`,
      // An automation's prompt is its own task, never a follow-up to someone's run.
      forceNew: true,
      prompt,
      thread,
    },
  };
}

/** Decides whether an event asks for the agent. Pure: reads only the event, the config and who we are. */
export function detectTrigger(event: BridgeEvent, config: RepoConfig, self: BridgeSelf, options: DetectOptions = {}): TriggerDetection {
  const explicit = options.explicitPrompt?.trim();
  if (explicit) return dispatchTrigger(event, explicit, self);
  switch (event.kind) {
    case "issue_comment":
      return detectComment(event, config, self);
    case "issues":
      return event.action === "opened" ? detectAutomations(event, config, self) : detectLabel(event, config, self);
    case "pull_request":
      return automationEventOf(event)
        ? detectAutomations(event, config, self)
        : onlyAction(event, "opened", "new pull requests and drafts marked ready for review (`pull_request.ready_for_review`)");
    case "pull_request_review":
      return detectReview(event, config, self);
    case "pull_request_review_comment":
      return detectReviewComment(event, config, self);
    case "check_suite":
      return detectCheckSuite(event, config, self);
    case "workflow_run":
      return detectWorkflowRun(event, config);
    case "other":
      return ignore("unsupported_event", `The bridge does not act on "${event.name}" events unless given an explicit prompt.`);
  }
}

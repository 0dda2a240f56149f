/**
 * The two pure decisions between an event and a service call:
 *
 *   detectTrigger(event, config, self)  → is this a request for the agent, and of which flow?
 *   planRun(trigger, facts)             → create, resume, queue, refuse, ignore or hand back?
 *
 * The shell gathers the facts in between (the sender's permission, the thread's known run, the
 * CI attempts so far). Every "no" comes with a reason a user or a log reader can act on.
 */
import { firstMatchingGlob } from "../config/glob.js";
import type { FollowUpPolicy, RepoConfig } from "../config/schema.js";
import { SOURCE } from "../service/wire.js";
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
  PullRequestReviewBridgeEvent,
  PullRequestReviewCommentBridgeEvent,
  RepoRef,
  ReviewCommentRef,
  ReviewRef,
  ThreadKind,
  ThreadRef,
  WorkflowRunBridgeEvent,
  WorkflowRunRef,
} from "./events/types.js";
import { actsAsPerson, classifyActor, type BridgeSelf } from "./actors.js";
import { findKillSwitch, killSwitchReason } from "./kill-switch.js";
import { parseTriggerComment, type TriggerGrammar } from "./trigger.js";

/** Check and workflow conclusions that mean "CI failed" (others: success, neutral, cancelled, skipped…). */
export type { BridgeSelf } from "./actors.js";

export const FAILING_CONCLUSIONS = ["failure", "timed_out"] as const;

// ---------------------------------------------------------------------------------------------
// Triggers

interface TriggerCommon {
  repo: RepoRef;
  /** Who asked (comment or review author, label sender; the sender for CI events). */
  actor: Actor;
  /** `<flow>:<id>`: two deliveries with the same key are the same request (e.g. a review and its inline comments). */
  dedupeKey: string;
  /** Start a fresh run even when the thread has one. */
  forceNew: boolean;
}

export interface CommentTrigger extends TriggerCommon {
  flow: "comment";
  sourceType: typeof SOURCE.gitHost;
  event: IssueCommentBridgeEvent;
  thread: ThreadRef;
  comment: CommentRef;
  instruction: string;
}

export interface LabelTrigger extends TriggerCommon {
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
}

export interface CheckSuiteTrigger extends TriggerCommon {
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

export interface WorkflowRunTrigger extends TriggerCommon {
  flow: "workflow_run";
  sourceType: typeof SOURCE.gitHostCheckSuite;
  event: WorkflowRunBridgeEvent;
  workflowRun: WorkflowRunRef;
  pullRequest: LinkedPullRequest;
  pullRequests: LinkedPullRequest[];
  headSha: string;
  headBranch: string;
}

export interface DispatchTrigger extends Omit<TriggerCommon, "repo" | "actor"> {
  flow: "dispatch";
  sourceType: typeof SOURCE.api;
  event: BridgeEvent;
  repo: RepoRef | null;
  actor: Actor | null;
  /** The caller's explicit prompt. */
  prompt: string;
  /** The thread the event happened on, if any. */
  thread: ThreadRef | null;
}

export type RunTrigger = CommentTrigger | LabelTrigger | ReviewTrigger | CheckSuiteTrigger | WorkflowRunTrigger | DispatchTrigger;
export type RunFlow = RunTrigger["flow"];
export type CheckFailureTrigger = CheckSuiteTrigger | WorkflowRunTrigger;

export const isCheckFailureTrigger = (trigger: RunTrigger): trigger is CheckFailureTrigger =>
  trigger.flow === "check_suite" || trigger.flow === "workflow_run";

/** The issue or pull request a trigger concerns (for CI flows, the pull request), or null. */
export function triggerThread(trigger: RunTrigger): { kind: ThreadKind; number: number; url: string } | null {
  if (isCheckFailureTrigger(trigger)) {
    return { kind: "pull_request", number: trigger.pullRequest.number, url: trigger.pullRequest.url };
  }
  const thread = trigger.thread;
  return thread ? { kind: thread.kind, number: thread.number, url: thread.url } : null;
}

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
  | "check_suite_disabled"
  | "own_check_suite"
  | "not_failed"
  | "no_pull_request"
  | "fork"
  | "branch_not_matched"
  /** `/agent stop`: not a task; shells handle it through `detectStopRequest` (core/stop). */
  | "stop_requested"
  /** The thread carries the kill-switch label. */
  | "kill_switch";

export type TriggerDetection =
  | { kind: "trigger"; trigger: RunTrigger }
  | { kind: "ignore"; reason: string; code: IgnoreCode };

const ignore = (code: IgnoreCode, reason: string): TriggerDetection => ({ kind: "ignore", code, reason });

/** Whose words never start a run: the bridge's own, and bots the allow-list does not name. */
export function isBotActor(actor: Actor | null | undefined, self: BridgeSelf): boolean {
  return !!actor && !actsAsPerson(classifyActor(actor, self));
}

const isSelf = (actor: Actor, self: BridgeSelf) => classifyActor(actor, self) === "self";

const grammarOf = (config: RepoConfig, self: BridgeSelf): TriggerGrammar => ({
  phrase: config.trigger_phrase,
  appSlug: self.appSlug,
  mention: config.mention,
});

const onlyAction = (event: { name: string; action: string | null }, wanted: string, what: string) =>
  ignore(
    "unsupported_action",
    `${event.name}.${event.action ?? "(no action)"}: only ${what} start runs (\`${event.name}.${wanted}\`).`,
  );

const byBot = (actor: Actor, what: string) =>
  ignore("bot_sender", `${what} by the bot account @${actor.login}: bots do not start runs (this also prevents loops).`);

function noTriggerReason(config: RepoConfig, self: BridgeSelf, what: string): string {
  const mention = config.mention && self.appSlug ? ` or a mention of @${self.appSlug}` : "";
  return `${what} has no line starting with \`${config.trigger_phrase}\`${mention}.`;
}

const noTrigger = (config: RepoConfig, self: BridgeSelf, what: string) => ignore("no_trigger", noTriggerReason(config, self, what));

const stopRequested = (what: string) =>
  ignore("stop_requested", `${what} asks to stop the thread's run: that is a stop request (detectStopRequest), not a task.`);

/** The trigger, unless the thread carries the kill-switch label. */
function unlessKillSwitch(thread: ThreadRef, config: RepoConfig, detection: TriggerDetection): TriggerDetection {
  const label = findKillSwitch(thread.labels, config);
  return label === null ? detection : ignore("kill_switch", killSwitchReason(label, thread.kind));
}

function detectComment(event: IssueCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "created") return onlyAction(event, "created", "new comments");
  if (isBotActor(event.comment.author, self)) return byBot(event.comment.author, "Comment");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Comment");
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config, self));
  if (!parsed) return noTrigger(config, self, "The comment");
  if (parsed.kind === "stop") return stopRequested("The comment");
  return unlessKillSwitch(event.thread, config, {
    kind: "trigger",
    trigger: {
      flow: "comment",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.comment.author,
      dedupeKey: `comment:${event.comment.id}`,
      forceNew: parsed.forceNew,
      thread: event.thread,
      comment: event.comment,
      instruction: parsed.instruction,
    },
  });
}

function detectLabel(event: IssuesBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "labeled" || !event.label) return onlyAction(event, "labeled", "added labels");
  if (!config.label.enabled) return ignore("label_disabled", "Label triggers are off (`label.enabled: false`).");
  if (event.label.name.toLowerCase() !== config.label.name.toLowerCase()) {
    return ignore("other_label", `The label "${event.label.name}" is not the configured one ("${config.label.name}").`);
  }
  // Other bots may label on a person's behalf (the permission check still applies); our own labels never start a run.
  if (isSelf(event.sender, self)) return byBot(event.sender, "Label added");
  return unlessKillSwitch(event.thread, config, {
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
  });
}

function detectReview(event: PullRequestReviewBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "submitted") return onlyAction(event, "submitted", "submitted reviews");
  const author = event.review.author ?? event.sender;
  if (isBotActor(author, self)) return byBot(author, "Review");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review");
  const parsed = parseTriggerComment(event.review.body, grammarOf(config, self));
  if (parsed?.kind === "stop") return stopRequested("The review");
  const changesRequested = event.review.state === "changes_requested";
  if (!parsed && !changesRequested) {
    const why = noTriggerReason(config, self, `The review (state ${event.review.state})`);
    return ignore("no_trigger", `${why} Only reviews requesting changes start runs without it.`);
  }
  if (!config.reviews.enabled) return ignore("reviews_disabled", "Review triggers are off (`reviews.enabled: false`).");
  return unlessKillSwitch(event.thread, config, {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor: author,
      dedupeKey: `review:${event.review.id}`,
      forceNew: parsed?.forceNew ?? false,
      thread: event.thread,
      pullRequest: event.pullRequest,
      review: event.review,
      reviewComment: null,
      reason: parsed ? "trigger" : "changes_requested",
      instruction: parsed?.instruction ?? "",
    },
  });
}

function detectReviewComment(event: PullRequestReviewCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "created") return onlyAction(event, "created", "new review comments");
  if (isBotActor(event.comment.author, self)) return byBot(event.comment.author, "Review comment");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review comment");
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config, self));
  if (!parsed) return noTrigger(config, self, "The review comment");
  if (parsed.kind === "stop") return stopRequested("The review comment");
  if (!config.reviews.enabled) {
    return ignore("reviews_disabled", "The review comment has the trigger, but review triggers are off (`reviews.enabled: false`).");
  }
  return unlessKillSwitch(event.thread, config, {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor: event.comment.author,
      // Inline comments submitted with a review share its key: one run per review.
      dedupeKey: event.comment.reviewId !== null ? `review:${event.comment.reviewId}` : `review-comment:${event.comment.id}`,
      forceNew: parsed.forceNew,
      thread: event.thread,
      pullRequest: event.pullRequest,
      review: null,
      reviewComment: event.comment,
      reason: "trigger",
      instruction: parsed.instruction,
    },
  });
}

interface CheckGuardInput {
  conclusion: string | null;
  pullRequests: LinkedPullRequest[];
  runIsFork: boolean;
  what: string;
}

/** The guards shared by check suites and workflow runs; returns the eligible pull requests. */
function guardCheckFailure(
  input: CheckGuardInput,
  config: RepoConfig,
): { ok: true; eligible: LinkedPullRequest[] } | { ok: false; ignored: TriggerDetection } {
  const settings = config.check_suite;
  if (!settings.enabled) {
    return { ok: false, ignored: ignore("check_suite_disabled", "CI auto-fix is off (`check_suite.enabled: false`).") };
  }
  if (!(FAILING_CONCLUSIONS as readonly string[]).includes(input.conclusion ?? "")) {
    return {
      ok: false,
      ignored: ignore("not_failed", `The ${input.what} concluded "${input.conclusion ?? "none"}": only ${FAILING_CONCLUSIONS.join(" or ")} start a fix.`),
    };
  }
  if (input.runIsFork && !settings.allow_forks) {
    return { ok: false, ignored: ignore("fork", `The ${input.what} ran on a fork's commit; fixing forks is off (\`check_suite.allow_forks: false\`).`) };
  }
  if (input.pullRequests.length === 0) {
    return { ok: false, ignored: ignore("no_pull_request", `The ${input.what} belongs to no open pull request of this repository.`) };
  }
  const notForks = settings.allow_forks ? input.pullRequests : input.pullRequests.filter((pr) => !pr.isFork);
  if (notForks.length === 0) {
    return { ok: false, ignored: ignore("fork", `The ${input.what}'s pull request comes from a fork; fixing forks is off (\`check_suite.allow_forks: false\`).`) };
  }
  const eligible =
    settings.branches.length === 0 ? notForks : notForks.filter((pr) => firstMatchingGlob(pr.headRef, settings.branches) !== undefined);
  if (eligible.length === 0) {
    const branches = [...new Set(notForks.map((pr) => pr.headRef))].join(", ");
    return {
      ok: false,
      ignored: ignore("branch_not_matched", `The branch ${branches} matches none of \`check_suite.branches\` (${settings.branches.join(", ")}).`),
    };
  }
  return { ok: true, eligible };
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
    trigger: { flow: "check_suite", event, checkSuite: event.checkSuite, ...checkFailureFields(event, event.checkSuite.headSha, guarded.eligible) },
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
  return { kind: "trigger", trigger: { flow: "workflow_run", event, workflowRun: run, ...checkFailureFields(event, run.headSha, guarded.eligible) } };
}

function dispatchTrigger(event: BridgeEvent, prompt: string, config: RepoConfig): TriggerDetection {
  const thread = "thread" in event ? event.thread : null;
  const killSwitch = thread ? findKillSwitch(thread.labels, config) : null;
  if (thread && killSwitch !== null) return ignore("kill_switch", killSwitchReason(killSwitch, thread.kind));
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
  if (explicit) return dispatchTrigger(event, explicit, config);
  switch (event.kind) {
    case "issue_comment":
      return detectComment(event, config, self);
    case "issues":
      return detectLabel(event, config, self);
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

// ---------------------------------------------------------------------------------------------
// planRun

export interface KnownRun {
  runId: number;
  orgId: number;
  inProgress: boolean;
}

export interface CheckSuiteFacts {
  /** Fix runs already started (created or resumed) for this pull request. */
  attemptsSoFar: number;
  /** A fix was already started for this head commit (a redelivery, or check_suite and workflow_run both firing). */
  headShaAlreadyAttempted: boolean;
  maxAttempts: number;
  /** The pull request was already handed back to humans: stay quiet. */
  alreadyHandedBack?: boolean;
  /** Failing checks left after `check_suite.ignore_checks` (see `selectFailedChecks`); 0 means nothing to fix. */
  relevantFailures?: number;
}

/**
 * How the caller asked for the run: as the event and the thread say (`auto`, the App always), a new
 * run whatever the thread has (`create`), or the run it names continued (`resume`). The Action's
 * `mode` input; the plan is still made here, with the caller's wish as one fact among the others.
 */
export type RunMode = { kind: "auto" } | { kind: "create" } | { kind: "resume"; runId: number; orgId: number };

export interface RunFacts {
  /** Default `auto`. */
  mode?: RunMode;
  /** Whether the actor may trigger runs (`decidePermission`); CI flows pass `{ allowed: true }`. */
  permission: { allowed: boolean; why: string };
  /** The run already attached to this thread, if any. */
  knownRun: KnownRun | null;
  followUp: FollowUpPolicy;
  /** Required for the check_suite and workflow_run flows. */
  checkSuite?: CheckSuiteFacts;
}

export type RunPlan =
  | { action: "create"; sourceType: RunTrigger["sourceType"]; reason: string }
  | { action: "resume"; runId: number; orgId: number; reason: string }
  | { action: "queue"; runId: number; orgId: number; reason: string }
  | { action: "refuse"; reason: string }
  | { action: "ignore"; reason: string }
  | { action: "hand_back"; reason: string };

export type RunPlanAction = RunPlan["action"];

function planCheckFailure(trigger: CheckFailureTrigger, facts: RunFacts): RunPlan {
  const ci = facts.checkSuite;
  if (!ci) throw new TypeError(`planRun: facts.checkSuite is required for the ${trigger.flow} flow`);
  if (ci.headShaAlreadyAttempted) {
    return { action: "ignore", reason: `A fix was already started for commit ${trigger.headSha.slice(0, 7)}.` };
  }
  if (ci.relevantFailures === 0) {
    return { action: "ignore", reason: "Every failing check is listed in `check_suite.ignore_checks`." };
  }
  if (ci.attemptsSoFar >= ci.maxAttempts) {
    if (ci.alreadyHandedBack) {
      return { action: "ignore", reason: `The pull request was already handed back after ${ci.attemptsSoFar} fix attempts.` };
    }
    const plural = ci.attemptsSoFar === 1 ? "attempt" : "attempts";
    return { action: "hand_back", reason: `${ci.attemptsSoFar} fix ${plural} reached the limit of ${ci.maxAttempts} (\`check_suite.max_attempts\`).` };
  }
  if (facts.mode?.kind === "create") {
    return { action: "create", sourceType: trigger.sourceType, reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a new fix run (\`mode: create\`).` };
  }
  const known = facts.knownRun;
  if (known) {
    // A fresh run would fight the one already pushing to this branch: wait for it instead.
    if (known.inProgress) {
      return { action: "queue", runId: known.runId, orgId: known.orgId, reason: `Run ${known.runId} is still working on this pull request; the failure is queued for it.` };
    }
    return { action: "resume", runId: known.runId, orgId: known.orgId, reason: `Resuming run ${known.runId} with the CI failure.` };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a fix.` };
}

/** Turns a trigger and the gathered facts into the one thing to do. */
export function planRun(trigger: RunTrigger, facts: RunFacts): RunPlan {
  // CI failures come from GitHub itself: nobody's permission is involved.
  if (isCheckFailureTrigger(trigger)) return planCheckFailure(trigger, facts);

  // The reply people read is rendered from the reason by the shell (renderRefusal).
  if (!facts.permission.allowed) return { action: "refuse", reason: facts.permission.why };
  const mode = facts.mode ?? { kind: "auto" };
  if (mode.kind === "resume") {
    return { action: "resume", runId: mode.runId, orgId: mode.orgId, reason: `Resuming run ${mode.runId}, as asked (\`mode: resume\`).` };
  }
  if (mode.kind === "create") return { action: "create", sourceType: trigger.sourceType, reason: "A new run was asked for (`mode: create`)." };
  if (trigger.forceNew) {
    return { action: "create", sourceType: trigger.sourceType, reason: trigger.flow === "dispatch" ? "An explicit prompt always starts a new run." : "A fresh run was asked for (`new`)." };
  }
  const known = facts.knownRun;
  if (known && !known.inProgress) {
    return { action: "resume", runId: known.runId, orgId: known.orgId, reason: `Resuming run ${known.runId}, which handled this thread before.` };
  }
  if (known && known.inProgress) {
    if (facts.followUp === "queue") {
      return { action: "queue", runId: known.runId, orgId: known.orgId, reason: `Run ${known.runId} is still in progress; the follow-up is queued (\`follow_up: queue\`).` };
    }
    return { action: "create", sourceType: trigger.sourceType, reason: `Run ${known.runId} is still in progress; starting another one (\`follow_up: new\`).` };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: "No run is attached to this thread yet." };
}

// ---------------------------------------------------------------------------------------------
// CI failures worth fixing

export interface CheckOutcome {
  name: string;
  conclusion: string | null;
}

/**
 * Splits check runs (or workflow jobs) into the failing ones to fix and the failing ones ignored
 * by `check_suite.ignore_checks` (glob patterns, case-insensitive, `*` crossing `/`).
 */
export function selectFailedChecks<T extends CheckOutcome>(checks: readonly T[], ignoreChecks: readonly string[]): { failed: T[]; ignored: T[] } {
  const failed: T[] = [];
  const ignored: T[] = [];
  for (const check of checks) {
    if (!(FAILING_CONCLUSIONS as readonly string[]).includes(check.conclusion ?? "")) continue;
    if (firstMatchingGlob(check.name, ignoreChecks, { pathAware: false, ignoreCase: true }) !== undefined) ignored.push(check);
    else failed.push(check);
  }
  return { failed, ignored };
}

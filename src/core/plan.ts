/**
 * What to do about a trigger: create a run, resume the thread's run, queue behind it while it
 * works, refuse, ignore or hand back. `planRun(trigger, facts)` is the one place that decides, every
 * "no" included (the kill switch, CI auto-fix paused by a stop, the CI attempt cap, the permission).
 * It asks for the facts as it needs them: while one is not read yet it answers `read` with the fact
 * to read, so the shell (flows/prepare.ts) reads nothing an earlier "no" makes useless. Every "no"
 * carries a reason a user or a log reader can act on.
 */
import type { ChangesRequestedScope, FollowUpPolicy } from "../config/schema.js";
import { judgeFixAttempt, type CheckSuiteFacts, type FixIgnoreCode } from "./ci.js";
import {
  isCheckFailureTrigger,
  triggerThread,
  type AutomationTrigger,
  type CheckFailureTrigger,
  type ReviewTrigger,
  type RunTrigger,
  type StopRequest,
} from "./detect/triggers.js";
import { killSwitchReason } from "./kill-switch.js";
import type { TriggerCommentState } from "./trigger.js";

export interface KnownRun {
  runId: number;
  orgId: number;
  inProgress: boolean;
}

/**
 * How the caller asked for the run: as the event and the thread say (`auto`, the App always), a new
 * run whatever the thread has (`create`), or the run it names continued (`resume`). The Action's
 * `mode` input; the plan is still made here, with the caller's wish as one fact among the others.
 */
export type RunMode = { kind: "auto" } | { kind: "create" } | { kind: "resume"; runId: number; orgId: number };

/**
 * What planRun decides from. The facts that cost a read are optional: absent means "not read yet",
 * and planRun answers `read` when it reaches a decision that needs one of them.
 */
export interface RunFacts {
  /** Default `auto`. */
  mode?: RunMode;
  /**
   * The kill-switch label the thread carries (as written), or null/absent when it carries none.
   * From the payload's labels; for CI flows, whose payloads have none, from the pull request as read.
   */
  killSwitch?: string | null;
  /** Whether the actor may trigger runs (`checkTriggerPermission`); not read for CI flows. */
  permission?: { allowed: boolean; why: string };
  /** The run already attached to this thread, if any (read with the thread's comments). */
  knownRun?: KnownRun | null;
  followUp: FollowUpPolicy;
  /** What a review requesting changes without the trigger acts on (`reviews.changes_requested`); default `bridge_branches`. */
  changesRequested?: ChangesRequestedScope;
  /**
   * The run that produced the pull request's head branch (found by head repository and branch), or
   * null when none did. Only a review requesting changes without the trigger needs it.
   */
  branchRun?: { runId: number; orgId: number } | null;
  /** For the check_suite and workflow_run flows, read with the thread's comments. */
  checkSuite?: CheckSuiteFacts;
  /** For CI flows: the bot answered a `/agent stop` on the pull request and no person has asked since (core/stop.ts). */
  ciPausedByStop?: boolean;
  /** The trigger phrase, for the reason a paused CI auto-fix gives; default `/agent`. */
  triggerPhrase?: string;
  /** For a trigger held in a comment: that comment read again before acting (core/trigger.ts). */
  triggerComment?: TriggerCommentState;
}

/** A fact planRun needs before it can decide: `thread` is the thread's comments (for CI, the attempts and a stop's pause), `known_run` the run found through them. */
export type RunFactName = "permission" | "thread" | "known_run" | "trigger_comment";

/** Not decided yet: read this fact, then plan again. */
export interface FactNeeded {
  action: "read";
  fact: RunFactName;
  reason: string;
}

export type RunPlan =
  | { action: "create"; sourceType: RunTrigger["sourceType"]; reason: string }
  | { action: "resume"; runId: number; orgId: number; reason: string }
  /**
   * A follow-up for a run that is working: held until it finishes, or (`interrupt`, policy
   * `follow_up: interrupt`) sent to the working agent at once, held as above if the service refuses.
   */
  | { action: "queue"; runId: number; orgId: number; reason: string; interrupt: boolean }
  | { action: "refuse"; reason: string }
  /** `/agent stop`: let go of the thread's run (core/stop.ts). */
  | { action: "stop"; reason: string }
  | { action: "ignore"; reason: string; code?: PlanIgnoreCode }
  | { action: "hand_back"; reason: string };

/**
 * Why a review that requests changes without the trigger does nothing: it is not addressed to the
 * bridge unless it is on a branch the bridge produced (or `reviews.changes_requested` widens that).
 * - `review_not_on_bridge_branch`: no run of the bridge produced the pull request's branch;
 * - `review_by_outsider`: the reviewer may not trigger runs (no refusal: nobody asked the bot);
 * - `automation_not_allowed`: whoever opened the issue or pull request (or marked it ready) may not trigger runs (no refusal either).
 */
export type PlanIgnoreCode =
  | "review_not_on_bridge_branch"
  | "review_by_outsider"
  | "kill_switch"
  | "ci_paused"
  /** The trigger comment was deleted, or edited so that it no longer asks for a run, before the job acted on it. */
  | "trigger_deleted"
  | "trigger_withdrawn"
  | "automation_not_allowed"
  /** A CI failure with nothing left to fix (ci.ts `judgeFixAttempt`). */
  | FixIgnoreCode;

const read = (fact: RunFactName, reason: string): FactNeeded => ({ action: "read", fact, reason });

/** The kill switch holds back every run in its thread, CI auto-fix included; null when the thread does not carry it. */
function judgeKillSwitch(trigger: RunTrigger, facts: RunFacts): RunPlan | null {
  const thread = triggerThread(trigger);
  if (!facts.killSwitch || !thread) return null;
  return { action: "ignore", code: "kill_switch", reason: killSwitchReason(facts.killSwitch, thread.kind) };
}

const isImplicitReview = (trigger: RunTrigger): trigger is ReviewTrigger =>
  trigger.flow === "review" && trigger.reason === "changes_requested";

/** A review requesting changes without the trigger: whether it may act at all, before anything else is decided. */
function judgeImplicitReview(
  trigger: ReviewTrigger,
  facts: RunFacts & Required<Pick<RunFacts, "permission">>,
): RunPlan | FactNeeded | null {
  if (!facts.permission.allowed) {
    return {
      action: "ignore",
      code: "review_by_outsider",
      reason: `The review requesting changes has no trigger and its author may not trigger runs (${facts.permission.why}): it is not a request to the bridge.`,
    };
  }
  if ((facts.changesRequested ?? "bridge_branches") === "base_repository") return null;
  if (facts.knownRun === undefined) return read("known_run", "Whether a run of the bridge produced the reviewed branch.");
  if (facts.branchRun) return null;
  return {
    action: "ignore",
    code: "review_not_on_bridge_branch",
    reason: `The review requests changes without the trigger on the branch ${trigger.pullRequest.headRef}, which no run of the bridge produced: only the trigger starts a run there (\`reviews.changes_requested: base_repository\` widens this to every pull request of the repository).`,
  };
}

/** A CI failure: a stop's pause, the attempt cap and head-SHA guard first (ci.ts), then the run to fix it with. */
function planCheckFailure(trigger: CheckFailureTrigger, facts: RunFacts): RunPlan | FactNeeded {
  const ci = facts.checkSuite;
  if (!ci) {
    // The known run is read after the CI facts: with it and without them, the shell forgot them.
    if (facts.knownRun !== undefined) throw new TypeError(`planRun: facts.checkSuite is required for the ${trigger.flow} flow`);
    return read("thread", "The fix attempts so far and any stop, from the pull request's comments.");
  }
  if (facts.ciPausedByStop) {
    const phrase = facts.triggerPhrase ?? "/agent";
    return {
      action: "ignore",
      code: "ci_paused",
      reason: `CI auto-fix is paused on this pull request: its run was stopped with \`${phrase} stop\`, and nobody has asked with \`${phrase}\` since.`,
    };
  }
  const verdict = judgeFixAttempt(trigger.headSha, ci);
  if (verdict) return verdict;
  if (facts.knownRun === undefined) return read("known_run", "The run already working on this pull request, if any.");
  if (facts.mode?.kind === "create") {
    return {
      action: "create",
      sourceType: trigger.sourceType,
      reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a new fix run (\`mode: create\`).`,
    };
  }
  const known = facts.knownRun;
  if (known) {
    // A fresh run would fight the one already pushing to this branch: wait for it instead.
    if (known.inProgress) {
      return {
        action: "queue",
        runId: known.runId,
        orgId: known.orgId,
        reason: `Run ${known.runId} is still working on this pull request; the failure is queued for it.`,
        interrupt: false,
      };
    }
    return { action: "resume", runId: known.runId, orgId: known.orgId, reason: `Resuming run ${known.runId} with the CI failure.` };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: `CI failed on ${trigger.headSha.slice(0, 7)}: starting a fix.` };
}

/**
 * An automation: allowed as a comment of its author would be, then always a run of its own (it starts
 * once per thread: the shells' claim, not a fact here). A "no" is said to nobody: nobody asked.
 */
function planAutomation(trigger: AutomationTrigger, facts: RunFacts): RunPlan | FactNeeded {
  const name = trigger.automation.name;
  if (!facts.permission) return read("permission", `Whether the author may trigger runs, and so start the automation "${name}".`);
  if (!facts.permission.allowed) {
    return {
      action: "ignore",
      code: "automation_not_allowed",
      reason: `The automation "${name}" does not start: ${facts.permission.why} Nobody asked, so nothing is said in the thread.`,
    };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: `The automation "${name}" starts on ${trigger.automation.on}.` };
}

/**
 * `/agent stop`: heard from whoever may trigger runs. The kill switch holds back runs, and a stop
 * starts none: it is heard in a switched-off thread too, so that a run started before the label
 * can still be let go.
 */
function planStop(stop: StopRequest, facts: RunFacts): RunPlan | FactNeeded {
  if (!facts.permission) return read("permission", "Whether the author may trigger runs, and so stop them.");
  if (!facts.permission.allowed) return { action: "refuse", reason: facts.permission.why };
  return { action: "stop", reason: `@${stop.actor.login} asked to stop the thread's run.` };
}

/** Whether the trigger is a comment its author can still delete or edit before the job acts (an issue or inline review comment). */
function heldInComment(trigger: RunTrigger): boolean {
  return trigger.flow === "comment" || (trigger.flow === "review" && trigger.reviewComment !== null);
}

function withdrawnTrigger(state: Exclude<TriggerCommentState, "standing">): RunPlan {
  return state === "deleted"
    ? {
        action: "ignore",
        code: "trigger_deleted",
        reason: "The trigger comment was deleted before the job acted on it; nothing was started.",
      }
    : {
        action: "ignore",
        code: "trigger_withdrawn",
        reason: "The trigger comment was edited and no longer asks for a run; nothing was started.",
      };
}

/**
 * Turns a trigger (or a stop) and the facts read so far into the one thing to do, or into the
 * next fact to read: the cheapest "no" first (the kill switch, from the payload), then the
 * permission, then what the thread holds.
 */
export function planRun(trigger: RunTrigger | StopRequest, facts: RunFacts): RunPlan | FactNeeded {
  if (trigger.flow === "stop") return planStop(trigger, facts);
  const killed = judgeKillSwitch(trigger, facts);
  if (killed) return killed;
  // CI failures come from GitHub itself: nobody's permission is involved.
  if (isCheckFailureTrigger(trigger)) return planCheckFailure(trigger, facts);
  if (trigger.flow === "automation") return planAutomation(trigger, facts);

  const permission = facts.permission;
  if (!permission) return read("permission", "Whether the author may trigger runs.");
  if (isImplicitReview(trigger)) {
    const verdict = judgeImplicitReview(trigger, { ...facts, permission });
    if (verdict) return verdict;
  }
  // The reply people read is rendered from the reason by the shell (renderRefusal).
  if (!permission.allowed) return { action: "refuse", reason: permission.why };
  const mode = facts.mode ?? { kind: "auto" };
  // `mode: resume` sends the workflow's own prompt: the comment that started the job is not what runs.
  if (mode.kind !== "resume" && heldInComment(trigger)) {
    if (facts.triggerComment === undefined) return read("trigger_comment", "Whether the trigger comment still asks for a run.");
    if (facts.triggerComment !== "standing") return withdrawnTrigger(facts.triggerComment);
  }
  if (facts.knownRun === undefined) return read("known_run", "The run this thread already has, if any.");
  if (mode.kind === "resume") {
    return { action: "resume", runId: mode.runId, orgId: mode.orgId, reason: `Resuming run ${mode.runId}, as asked (\`mode: resume\`).` };
  }
  if (mode.kind === "create")
    return { action: "create", sourceType: trigger.sourceType, reason: "A new run was asked for (`mode: create`)." };
  if (trigger.forceNew) {
    return {
      action: "create",
      sourceType: trigger.sourceType,
      reason: trigger.flow === "dispatch" ? "An explicit prompt always starts a new run." : "A fresh run was asked for (`new`).",
    };
  }
  const known = facts.knownRun;
  if (known && !known.inProgress) {
    return {
      action: "resume",
      runId: known.runId,
      orgId: known.orgId,
      reason: `Resuming run ${known.runId}, which handled this thread before.`,
    };
  }
  if (known && known.inProgress) {
    if (facts.followUp === "queue") {
      return {
        action: "queue",
        runId: known.runId,
        orgId: known.orgId,
        reason: `Run ${known.runId} is still in progress; the follow-up is queued (\`follow_up: queue\`).`,
        interrupt: false,
      };
    }
    if (facts.followUp === "interrupt") {
      return {
        action: "queue",
        runId: known.runId,
        orgId: known.orgId,
        reason: `Run ${known.runId} is still in progress; the follow-up goes to the working agent now (\`follow_up: interrupt\`).`,
        interrupt: true,
      };
    }
    return {
      action: "create",
      sourceType: trigger.sourceType,
      reason: `Run ${known.runId} is still in progress; starting another one (\`follow_up: new\`).`,
    };
  }
  return { action: "create", sourceType: trigger.sourceType, reason: "No run is attached to this thread yet." };
}

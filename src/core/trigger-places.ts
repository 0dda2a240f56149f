/**
 * Where a trigger points: what to react to, its own URL, and the thread its prompt quotes. Pure
 * reads of the trigger, shared by flows/prepare.ts and whoever else needs them.
 */
import type { ThreadRef } from "./events/types.js";
import { isCheckFailureTrigger, type RunTrigger } from "./detect/triggers.js";
import type { ReactionTarget } from "./render/reactions.js";

/** What the bridge reacts to for a trigger: the comment, the labelled issue, a review's inline comment, or nothing. */
export function reactionTargetOf(trigger: RunTrigger): ReactionTarget | null {
  switch (trigger.flow) {
    case "comment":
      return { kind: "issue_comment", id: trigger.comment.id };
    case "label":
      return { kind: "issue", id: trigger.thread.number };
    case "review":
      // GitHub has no reactions on reviews themselves, only on their inline comments.
      return trigger.reviewComment ? { kind: "review_comment", id: trigger.reviewComment.id } : null;
    // Nobody asked an automation: its tracking comment is all it writes.
    default:
      return null;
  }
}

/** The trigger's own URL (the comment, review, check suite or workflow run), for logs, metadata and replies. */
export function triggerUrlOf(trigger: RunTrigger): string | null {
  switch (trigger.flow) {
    case "comment":
      return trigger.comment.url;
    case "label":
    case "automation":
      return trigger.thread.url;
    case "review":
      return trigger.reviewComment?.url ?? trigger.review?.url ?? trigger.thread.url;
    case "check_suite":
      return trigger.checkSuite.url;
    case "workflow_run":
      return trigger.workflowRun.url;
    case "dispatch":
      return null;
  }
}

/** The thread (issue or PR conversation) a trigger's prompt quotes, or null (CI prompts quote the checks instead). */
export function promptThreadOf(trigger: RunTrigger): ThreadRef | null {
  if (isCheckFailureTrigger(trigger)) return null;
  return trigger.thread;
}

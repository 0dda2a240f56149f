/**
 * Is this event a request for the agent, and of which flow? `detectTrigger(event, config, self)`
 * reads only the event, the repository configuration and who the bridge is, and answers a
 * `RunTrigger` (comment, label, review, CI failure, explicit prompt), a `StopRequest` (`/agent
 * stop`), the automations a new issue or pull request starts (core/automations.ts), or why it is none of these. Both pass the same gates (a new comment, never from a bot). What to
 * do about them (the kill switch and the permission included) is core/plan.ts's; which CI failures
 * count is core/ci.ts's; the comment grammar is core/trigger.ts's.
 *
 * Here: the entry and the explicit prompt. triggers.ts holds the answers' shapes, answers.ts the
 * sentences for "neither", conversation.ts the comment, label and review detectors, ci.ts the CI ones.
 */
import type { RepoConfig } from "../../config/schema.js";
import { SOURCE } from "../../service/wire.js";
import type { BridgeEvent } from "../events/types.js";
import { isBotActor, type BridgeSelf } from "../actors.js";
import { automationEventOf, detectAutomations } from "../automations.js";
import { byBot, ignore, onlyAction, type TriggerDetection } from "./answers.js";
import { detectCheckSuite, detectWorkflowRun } from "./ci.js";
import { detectComment, detectLabel, detectReview, detectReviewComment } from "./conversation.js";

export type { IgnoreCode, TriggerDetection } from "./answers.js";

export interface DetectOptions {
  /** An explicit prompt from the caller (the Action's `prompt` input): any event becomes a `dispatch`. */
  explicitPrompt?: string;
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

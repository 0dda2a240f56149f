/**
 * A detection's answer (a trigger, a stop, the automations an event starts, or why the event is none of these) and the sentences that say
 * why an event starts nothing.
 */
import type { RepoConfig } from "../../config/schema.js";
import type { Actor } from "../events/types.js";
import { classifyActor, type BridgeSelf } from "../actors.js";
import type { AutomationDetection, AutomationIgnoreCode } from "../automations.js";
import type { CheckFailureIgnoreCode } from "../ci.js";
import type { RunTrigger, StopRequest } from "./triggers.js";

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

export const ignore = (code: IgnoreCode, reason: string): TriggerDetection => ({ kind: "ignore", code, reason });

export const isSelf = (actor: Actor, self: BridgeSelf) => classifyActor(actor, self) === "self";

export const onlyAction = (event: { name: string; action: string | null }, wanted: string, what: string) =>
  ignore("unsupported_action", `${event.name}.${event.action ?? "(no action)"}: only ${what} start runs (\`${event.name}.${wanted}\`).`);

export const byBot = (actor: Actor, what: string) =>
  ignore("bot_sender", `${what} by the bot account @${actor.login}: bots do not start runs (this also prevents loops).`);

export function noTriggerReason(config: RepoConfig, self: BridgeSelf, what: string): string {
  const mention = config.mention && self.appSlug ? ` or a mention of @${self.appSlug}` : "";
  return `${what} has no line starting with \`${config.trigger_phrase}\`${mention}.`;
}

export const noTrigger = (config: RepoConfig, self: BridgeSelf, what: string) => ignore("no_trigger", noTriggerReason(config, self, what));

/**
 * Which automations of the configuration an event starts: `detectAutomations` reads only the event,
 * the configuration and who the bridge is, and answers the matching automations as triggers, or why
 * none (every "no" with a code and a sentence). Only the `paths` filter needs a read (the pull
 * request's changed files): `matchesChangedFiles` decides it once the shell has them. Whether the
 * author may trigger, the kill switch and the spend limits are planRun's and the shells', as for a comment.
 */
import type { Automation, AutomationEvent } from "../config/automations.js";
import { AUTOMATION_EVENTS } from "../config/automations.js";
import { firstMatchingGlob } from "../config/glob.js";
import type { RepoConfig } from "../config/schema.js";
import { SOURCE } from "../service/wire.js";
import { isBotActor, type BridgeSelf } from "./actors.js";
import type { Actor, IssuesBridgeEvent, PullRequestBridgeEvent } from "./events/types.js";
import type { RunMarker } from "./markers/schema.js";
import type { AutomationTrigger } from "./detect/triggers.js";

export type AutomationIgnoreCode =
  /** No automation of the configuration listens to this event. */
  | "no_automation"
  /** Opened or marked ready by a bot the allow-list does not name. */
  | "automation_by_bot"
  /** A pull request whose head lives in a fork: never started by itself. */
  | "automation_on_fork"
  /** Every automation of the event filtered it out (labels, drafts). */
  | "automation_filtered";

export type AutomationDetection =
  { kind: "automations"; triggers: AutomationTrigger[] } | { kind: "ignore"; code: AutomationIgnoreCode; reason: string };

/** The event's `<name>.<action>` when it is one automations start on, else null. */
export function automationEventOf(event: { name: string; action: string | null }): AutomationEvent | null {
  const key = `${event.name}.${event.action ?? ""}`;
  return (AUTOMATION_EVENTS as readonly string[]).includes(key) ? (key as AutomationEvent) : null;
}

/**
 * Whether an automation listens to this event: its own `on`, and for a draft marked ready also every
 * `pull_request.opened` automation that held the draft back (`drafts: false`), which said it would
 * start then. Its claim (one per automation and thread) keeps it from starting twice on one pull request.
 */
function listensTo(automation: Automation, on: AutomationEvent): boolean {
  if (automation.on === on) return true;
  return on === "pull_request.ready_for_review" && automation.on === "pull_request.opened" && !automation.drafts;
}

/** Why one automation does not start for this event (its labels or the draft rule), or null when it does. */
function filteredOut(automation: Automation, event: IssuesBridgeEvent | PullRequestBridgeEvent): string | null {
  if (automation.labels.length > 0) {
    const carried = new Set(event.thread.labels.map((label) => label.toLowerCase()));
    if (!automation.labels.some((label) => carried.has(label.toLowerCase())))
      return `${automation.name}: the ${event.thread.kind === "issue" ? "issue" : "pull request"} carries none of the labels ${automation.labels.join(", ")}.`;
  }
  if (event.kind === "pull_request" && event.action === "opened" && event.pullRequest.draft && !automation.drafts)
    return `${automation.name}: the pull request is a draft (\`drafts: false\`): it starts when the pull request is marked ready for review.`;
  return null;
}

/** Who answers for the event: the opener, and for a draft marked ready also whoever marked it. */
function accountableOf(event: IssuesBridgeEvent | PullRequestBridgeEvent): Actor[] {
  const opener = event.thread.author ?? event.sender;
  return opener.login.toLowerCase() === event.sender.login.toLowerCase() ? [opener] : [opener, event.sender];
}

/**
 * The automations a new issue, a new pull request or a draft marked ready starts (their `paths`
 * filters not yet applied: see `matchesChangedFiles`), or why none.
 */
export function detectAutomations(
  event: IssuesBridgeEvent | PullRequestBridgeEvent,
  config: RepoConfig,
  self: BridgeSelf,
): AutomationDetection {
  const on = automationEventOf(event);
  const listening = on ? config.automations.filter((automation) => listensTo(automation, on)) : [];
  if (!on || listening.length === 0) {
    return {
      kind: "ignore",
      code: "no_automation",
      reason: `No automation of the configuration starts on ${event.name}.${event.action ?? ""}.`,
    };
  }
  const accountable = accountableOf(event);
  const bot = accountable.find((actor) => isBotActor(actor, self));
  if (bot) {
    return {
      kind: "ignore",
      code: "automation_by_bot",
      reason: `The ${event.thread.kind === "issue" ? "issue" : "pull request"} was opened or marked ready by the bot account @${bot.login}: bots do not start automations (this also prevents loops).`,
    };
  }
  if (event.kind === "pull_request" && event.pullRequest.isFork) {
    return {
      kind: "ignore",
      code: "automation_on_fork",
      reason: `The pull request comes from a fork (${event.pullRequest.headRepoFullName ?? "a deleted repository"}): automations never start on a fork's pull request (\`${config.trigger_phrase}\` from someone allowed still does).`,
    };
  }
  const reasons: string[] = [];
  const triggers: AutomationTrigger[] = [];
  for (const automation of listening) {
    const why = filteredOut(automation, event);
    if (why) reasons.push(why);
    else triggers.push(automationTrigger(event, automation, accountable));
  }
  if (triggers.length === 0) return { kind: "ignore", code: "automation_filtered", reason: reasons.join(" ") };
  return { kind: "automations", triggers };
}

function automationTrigger(
  event: IssuesBridgeEvent | PullRequestBridgeEvent,
  automation: Automation,
  accountable: Actor[],
): AutomationTrigger {
  return {
    flow: "automation",
    sourceType: SOURCE.gitHost,
    event,
    repo: event.repo,
    actor: accountable[0]!,
    accountable,
    // Once per automation and thread, whatever delivery or event brings it again.
    dedupeKey: `automation:${automation.name}:${event.thread.number}`,
    // The automation's task is its own, never a follow-up to someone's run.
    forceNew: true,
    thread: event.thread,
    automation,
  };
}

/** Whether an automation's `paths` filter lets a pull request with these changed files through (no filter: always). */
export function matchesChangedFiles(automation: Automation, changedFiles: readonly string[]): boolean {
  if (automation.paths.length === 0) return true;
  return changedFiles.some((file) => firstMatchingGlob(file, automation.paths) !== undefined);
}

/** The automations that started in a thread, from the bot's own run markers there (a shell without a store reads "once" here). */
export function startedAutomations(markers: ReadonlyArray<{ marker: RunMarker }>): Set<string> {
  return new Set(markers.flatMap(({ marker }) => (marker.automation ? [marker.automation] : [])));
}

/** Why an automation's `paths` filter held a pull request back, for logs. */
export function pathsReason(automation: Automation): string {
  return `${automation.name}: no changed file of the pull request matches ${automation.paths.join(", ")}.`;
}

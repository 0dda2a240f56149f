/**
 * Invalid `automations` entries are skipped (the rest of the file applies), and the repository's
 * maintainers learn it on GitHub, like the other configuration errors: one comment in the thread of
 * an event that concerns automations or would have been a trigger, for someone who may trigger runs,
 * once per version of the configuration (keyed by its files' blob shas, claimed for good in the
 * store), never in a thread the kill switch holds back and never to a bot or on a fork's pull request.
 */
import { CONFIG_PATH } from "../../config/path.js";
import type { Automation } from "../../config/automations.js";
import type { RepoConfig } from "../../config/schema.js";
import type { BridgeSelf } from "../../core/actors.js";
import { automationEventOf, detectAutomations } from "../../core/automations.js";
import type { TriggerDetection } from "../../core/detect/index.js";
import { triggerThread, type RunTrigger } from "../../core/detect/triggers.js";
import type { BridgeEvent } from "../../core/events/types.js";
import { renderSkippedAutomations } from "../../core/render/replies.js";
import { planFromEvent, triggerPermission } from "../../flows/index.js";
import type { GitHubClient } from "../../github/client.js";
import type { AppDependencies, HandlerLogger } from "./types.js";

/**
 * The trigger whose author would hear about the skipped entries: the event's own trigger, or for a
 * new issue or pull request (or a draft marked ready), the automation trigger any automation of that
 * event would have had, so that its opener hears it even when the skipped entry was the only one.
 */
function askerOf(event: BridgeEvent, detection: TriggerDetection, config: RepoConfig, self: BridgeSelf): RunTrigger | null {
  if (detection.kind === "trigger") return detection.trigger;
  if (detection.kind === "automations") return detection.triggers[0] ?? null;
  if (event.kind !== "issues" && event.kind !== "pull_request") return null;
  const on = automationEventOf(event);
  if (!on) return null;
  // Which automation does not matter: only who answers for the event, and the rules on bots and forks.
  const standIn: Automation = { name: "skipped", on, prompt: "-", labels: [], paths: [], drafts: true, mode: "run" };
  const would = detectAutomations(event, { ...config, automations: [standIn] }, self);
  return would.kind === "automations" ? (would.triggers[0] ?? null) : null;
}

/** Tells the repository once per version of its configuration that automations were skipped, and why. */
export async function reportSkippedAutomations(input: {
  event: BridgeEvent;
  detection: TriggerDetection;
  loaded: { config: RepoConfig; warnings: string[]; version: string };
  self: BridgeSelf;
  octokit: GitHubClient;
  deps: AppDependencies;
  installationId: number | null;
  log: HandlerLogger;
}): Promise<void> {
  const { event, loaded, deps, log } = input;
  if (loaded.warnings.length === 0) return;
  const trigger = askerOf(event, input.detection, loaded.config, input.self);
  const thread = trigger ? triggerThread(trigger) : null;
  if (!trigger?.repo || !thread) return;
  // A thread the kill switch holds back hears nothing, this included.
  if (planFromEvent(trigger, loaded.config)?.action === "ignore") return;
  const repo = { owner: trigger.repo.owner, repo: trigger.repo.name };
  // Once per version of the configuration, for good: a new version with the same mistakes is told again.
  // Claimed before GitHub is asked who may hear it, so a version already told costs no read; given back when nobody may.
  const key = `${trigger.repo.id}:skipped-automations:${loaded.version}`;
  if (!(await deps.store.claimAutomation(key))) return;
  const audience = await triggerPermission(input.octokit, repo, trigger, loaded.config, input.self).catch(async (error: unknown) => {
    await deps.store.releaseAutomation(key);
    throw error;
  });
  if (!audience.allowed) {
    await deps.store.releaseAutomation(key);
    return;
  }
  try {
    const body = renderSkippedAutomations({ errors: loaded.warnings, file: CONFIG_PATH });
    await deps.engine.reply({ installationId: input.installationId, ...repo, issueNumber: thread.number }, body, "acknowledge");
  } catch (error) {
    // Not told: the next event that qualifies tells it. The event's own work goes on.
    await deps.store.releaseAutomation(key);
    log.warn({ problems: loaded.warnings, error: String(error) }, "could not tell the thread that automations are skipped");
    return;
  }
  log.info({ problems: loaded.warnings, thread: thread.number }, "told the thread that automations are skipped");
}

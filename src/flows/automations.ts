/**
 * The automations an event starts, with their `paths` filters applied: the pull request's changed
 * files are read once, and only when a matching automation has such a filter. The decisions are
 * core's (core/automations.ts); each trigger then goes through `prepareRun` like any other.
 */
import { matchesChangedFiles, pathsReason } from "../core/automations.js";
import type { AutomationTrigger } from "../core/detect/triggers.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listPullRequestFiles } from "../github/pulls.js";

export interface AutomationSelection {
  /** The automations to prepare, in the configuration's order. */
  triggers: AutomationTrigger[];
  /** Why the others do not start, for logs. */
  skipped: string[];
}

export async function selectAutomations(octokit: GitHubClient, triggers: readonly AutomationTrigger[]): Promise<AutomationSelection> {
  const first = triggers[0];
  const needsFiles = triggers.some((trigger) => trigger.thread.kind === "pull_request" && trigger.automation.paths.length > 0);
  if (!first || !needsFiles) return { triggers: [...triggers], skipped: [] };
  const repo: RepoRef = { owner: first.repo.owner, repo: first.repo.name };
  const files = await listPullRequestFiles(octokit, repo, first.thread.number);
  const selection: AutomationSelection = { triggers: [], skipped: [] };
  for (const trigger of triggers) {
    if (matchesChangedFiles(trigger.automation, files)) selection.triggers.push(trigger);
    else selection.skipped.push(pathsReason(trigger.automation));
  }
  return selection;
}

/**
 * The kill switch: a label (`kill_switch_label`, default `agent:off`) on an issue or pull request
 * that stops every run from starting there, CI auto-fix included, for as long as it is on. Pure:
 * the labels come from the webhook payload (comments, labels, reviews) or, for CI events whose
 * payloads do not carry them, from the pull request as the shell read it.
 */
import type { RepoConfig } from "../config/schema.js";

/** The kill-switch label as it is written on the thread, or null when the thread does not carry it. */
export function findKillSwitch(labels: readonly string[], config: Pick<RepoConfig, "kill_switch_label">): string | null {
  const wanted = config.kill_switch_label.trim().toLowerCase();
  return labels.find((label) => label.trim().toLowerCase() === wanted) ?? null;
}

/** The log line for a trigger the kill switch held back. */
export function killSwitchReason(label: string, where: "issue" | "pull_request"): string {
  const thread = where === "issue" ? "issue" : "pull request";
  return `The ${thread} carries the kill-switch label "${label}" (\`kill_switch_label\`): no run starts here until it is removed.`;
}

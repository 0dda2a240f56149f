/**
 * "Did you mean" for unknown keys of `.github/agent-run.yml`. Edit distance catches typos
 * (`enabeld`); people also write the word they think of (`auto_fix` for `check_suite.enabled`,
 * `retries` for `max_attempts`), which no distance finds. A suggestion is only ever a key that is
 * allowed where the unknown one was written.
 */
import { closestKey } from "./issues.js";

/** Words people use for a key, by the key they mean. */
const KEY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  trigger_phrase: ["trigger", "phrase", "command", "prefix", "trigger_word", "keyword"],
  mention: ["mentions", "on_mention", "mention_trigger"],
  repo_id: ["repository_id", "repo", "repository"],
  model: ["models", "llm"],
  agent_type: ["agent", "type", "agent_kind"],
  permissions: ["permission", "access", "allow", "allowed", "who"],
  minimum: ["min", "min_role", "role", "minimum_role", "level"],
  users: ["user", "allowed_users", "logins", "people"],
  teams: ["team", "allowed_teams"],
  label: ["labels", "trigger_label", "on_label"],
  reviews: ["review", "pull_request_review", "pr_reviews"],
  check_suite: ["check_suites", "checks", "ci", "auto_fix", "autofix", "ci_fix", "ci_fixes", "workflow_run", "fix_ci"],
  enabled: ["auto_fix", "autofix", "enable", "on", "active", "activated", "fix", "auto", "run"],
  max_attempts: ["attempts", "max_attempt", "max_retries", "retries", "max_tries", "tries", "max_fixes", "limit"],
  branches: ["branch", "only_branches", "include_branches", "branch_patterns"],
  ignore_checks: ["ignore", "ignored_checks", "skip_checks", "exclude_checks", "ignore_check", "ignored"],
  allow_forks: ["forks", "fork", "allow_fork", "include_forks", "fork_prs"],
  limits: ["limit", "quota", "quotas", "spend_limits", "guards", "budget"],
  runs_per_thread_per_day: ["per_thread", "thread", "runs_per_thread", "per_thread_per_day", "thread_runs_per_day"],
  runs_per_repo_per_hour: ["per_repo", "runs_per_repo", "per_hour", "runs_per_hour", "repo_runs_per_hour"],
  ci_fixes_per_repo_per_day: ["ci_fixes", "ci_fixes_per_day", "fixes_per_day", "ci_per_day"],
  kill_switch_label: ["kill_switch", "killswitch", "off_label", "stop_label", "disable_label", "pause_label", "off_switch"],
  follow_up: ["followup", "follow_ups", "followups", "follow_up_policy"],
  instructions: ["instruction", "prompt", "system_prompt", "rules", "custom_instructions", "guidelines"],
};

const normalise = (key: string) =>
  key
    .trim()
    .toLowerCase()
    .replace(/[-\s.]+/g, "_");

/** The allowed key an unknown one most likely meant, or undefined. */
export function suggestKey(key: string, allowed: readonly string[]): string | undefined {
  const wanted = normalise(key);
  const exact = allowed.find((candidate) => candidate === wanted);
  if (exact) return exact;
  const aliased = allowed.find((candidate) => KEY_ALIASES[candidate]?.includes(wanted));
  return aliased ?? closestKey(wanted, allowed);
}

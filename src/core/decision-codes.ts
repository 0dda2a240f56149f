/**
 * Every code a "no" carries, with what it means and what to do about it: the answer to "why didn't
 * my `/agent` start anything?" for someone who cannot read the App's log. The App logs these codes,
 * counts them in its metrics and lists them on its status page; docs/troubleshooting.md is generated
 * from this table (`npm run docs`). The `satisfies` below makes a new code without an entry, or an
 * entry for a code that no longer exists, a type error.
 */
import type { FixIgnoreCode } from "./ci.js";
import type { IgnoreCode } from "./detect/answers.js";
import type { PlanIgnoreCode } from "./plan.js";
import type { StaleTrigger } from "./trigger-age.js";

/** Refusals the App answers in the thread (or counts, when it already answered): decided in core, named by the App's handlers. */
export type RefusalCode = "permission" | "over_limit" | "ci_attempts_used" | "config_error" | "repository_mismatch";

/** What the App's own intake and bookkeeping decide about a delivery, around core's decisions. */
type DeliveryCode = "bad_payload" | "duplicate_delivery" | "owner_not_allowed" | "already_handled" | "follow_up_dropped" | "nothing_to_do";

/** Every code a delivery that starts nothing can end with. */
export type DecisionCode = IgnoreCode | PlanIgnoreCode | FixIgnoreCode | StaleTrigger["code"] | RefusalCode | DeliveryCode;

export interface DecisionCodeEntry {
  /** `ignored`: nothing is said in the thread; `refused`: a reply in the thread says why (once per window for repeats). */
  outcome: "ignored" | "refused";
  /** What happened, in a sentence. */
  means: string;
  /** What the person who expected a run can do about it. */
  whatToDo: string;
}

/** In the order a delivery meets them: the intake, the event, the configuration, the plan, the limits. */
export const DECISION_CODES = {
  owner_not_allowed: {
    outcome: "ignored",
    means: "The installation's account is not in the App's `ALLOWED_OWNERS`.",
    whatToDo: "Ask whoever runs the App to add the account to `ALLOWED_OWNERS`, or install an App of your own.",
  },
  duplicate_delivery: {
    outcome: "ignored",
    means: "GitHub sent a delivery id the App had already received (a redelivery): it acts once per delivery.",
    whatToDo: "Nothing: the first delivery was handled. To ask again, write a new comment.",
  },
  stale_trigger: {
    outcome: "ignored",
    means: "The trigger happened longer ago than the App remembers delivery ids (8 days): a replayed delivery starts nothing.",
    whatToDo: "Write a new comment with the trigger phrase; do not redeliver old deliveries.",
  },
  bad_payload: {
    outcome: "ignored",
    means: "The delivery's payload lacked fields the event always has; the App's log says which.",
    whatToDo: "Redeliver it from the App's settings; if it happens again, report it with the log line.",
  },
  unsupported_event: {
    outcome: "ignored",
    means: "The App does not act on this kind of event.",
    whatToDo: "Use a comment, a label, a review or an automation (docs/app.md lists what starts a run).",
  },
  unsupported_action: {
    outcome: "ignored",
    means: "The event is one the App reads, but not this action of it (an issue closed, a comment deleted).",
    whatToDo: "Nothing to fix: only the actions listed in docs/app.md start runs.",
  },
  bot_sender: {
    outcome: "ignored",
    means: "A bot account wrote the comment or review: bots never start runs, which also prevents loops.",
    whatToDo: "Write the trigger as a person. A workflow that must start runs can use the Action with an explicit `prompt`.",
  },
  own_check_suite: {
    outcome: "ignored",
    means: "The check suite belongs to the App itself.",
    whatToDo: "Nothing: the App never fixes its own checks.",
  },
  no_trigger: {
    outcome: "ignored",
    means: "No line of the comment or review starts with the trigger phrase (or mentions the App, when `mention` is on).",
    whatToDo:
      "Start a line with the trigger phrase (`/agent` unless `trigger_phrase` changes it), at the beginning of the line, outside quotes and code blocks.",
  },
  label_disabled: {
    outcome: "ignored",
    means: "Label triggers are off in the repository's configuration (`label.enabled: false`).",
    whatToDo: "Set `label.enabled: true` in `.github/agent-run.yml`, or write the trigger phrase in a comment.",
  },
  other_label: {
    outcome: "ignored",
    means: "The label added is not the configured trigger label (`label.name`).",
    whatToDo: "Add the configured label (`agent` by default), or change `label.name`.",
  },
  reviews_disabled: {
    outcome: "ignored",
    means: "Review triggers are off in the repository's configuration (`reviews.enabled: false`).",
    whatToDo: "Set `reviews.enabled: true`, or write the trigger phrase in an issue comment of the pull request.",
  },
  fork_without_trigger: {
    outcome: "ignored",
    means:
      "A review requesting changes on a pull request from a fork, without the trigger phrase: only the phrase acts on a fork's pull request.",
    whatToDo: "Write the trigger phrase in the review or a comment.",
  },
  check_suite_disabled: {
    outcome: "ignored",
    means: "CI auto-fix is off (`check_suite.enabled: false`).",
    whatToDo: "Set `check_suite.enabled: true` in `.github/agent-run.yml`, or ask for a fix with the trigger phrase.",
  },
  not_failed: {
    outcome: "ignored",
    means: "The check suite or workflow run did not fail (only `failure` and `timed_out` start a fix).",
    whatToDo: "Nothing: there is nothing to fix.",
  },
  no_pull_request: {
    outcome: "ignored",
    means: "The failing commit belongs to no open pull request of the repository.",
    whatToDo: "Open a pull request for the branch; CI auto-fix works on pull requests only.",
  },
  fork: {
    outcome: "ignored",
    means: "The failure is on a fork's commit or pull request, and fixing forks is off (`check_suite.allow_forks: false`).",
    whatToDo: "Set `check_suite.allow_forks: true` if you trust the forks' code to run, or ask with the trigger phrase.",
  },
  branch_not_matched: {
    outcome: "ignored",
    means: "The pull request's branch matches none of `check_suite.branches`.",
    whatToDo: "Add a pattern for the branch to `check_suite.branches`, or leave the list empty for every branch.",
  },
  no_automation: {
    outcome: "ignored",
    means: "No automation of the configuration starts on this event.",
    whatToDo: "Add one under `automations` in `.github/agent-run.yml` (docs/automations.md); `agent-run config check` checks it.",
  },
  automation_by_bot: {
    outcome: "ignored",
    means: "A bot account opened the issue or pull request (or marked it ready): bots do not start automations.",
    whatToDo: "Nothing to fix: this prevents loops. A person can ask with the trigger phrase.",
  },
  automation_on_fork: {
    outcome: "ignored",
    means: "The pull request comes from a fork: automations never start on a fork's pull request.",
    whatToDo: "Someone allowed to trigger runs can ask with the trigger phrase.",
  },
  automation_filtered: {
    outcome: "ignored",
    means: "Every automation of the event left it out: its `labels`, `paths` or `drafts` filter did not match.",
    whatToDo: "Check the automation's filters; a draft waits for `pull_request.ready_for_review` only if an automation listens to it.",
  },
  kill_switch: {
    outcome: "ignored",
    means: "The issue or pull request carries the kill-switch label (`kill_switch_label`): no run starts in it.",
    whatToDo: "Remove the label, then ask again.",
  },
  review_by_outsider: {
    outcome: "ignored",
    means: "A review requesting changes without the trigger, by someone who may not trigger runs.",
    whatToDo: "Someone with write access can ask with the trigger phrase.",
  },
  review_not_on_bridge_branch: {
    outcome: "ignored",
    means: "A review requesting changes without the trigger, on a branch no run of the bridge produced.",
    whatToDo: "Write the trigger phrase in the review, or set `reviews.changes_requested: base_repository`.",
  },
  trigger_deleted: {
    outcome: "ignored",
    means: "The trigger comment was deleted before the bridge acted on it.",
    whatToDo: "Nothing, if that was meant; otherwise write the comment again.",
  },
  trigger_withdrawn: {
    outcome: "ignored",
    means: "The trigger comment was edited and no longer asks for a run before the bridge acted on it.",
    whatToDo: "Nothing, if that was meant; otherwise write a new comment with the trigger phrase.",
  },
  automation_not_allowed: {
    outcome: "ignored",
    means: "Whoever opened the issue or pull request (or marked it ready) may not trigger runs, so the automation does not start.",
    whatToDo: "Someone with write access (`permissions.minimum`) can ask with the trigger phrase.",
  },
  ci_paused: {
    outcome: "ignored",
    means: "CI auto-fix is paused on this pull request: its run was stopped with `/agent stop`.",
    whatToDo: "Write the trigger phrase in the pull request: a person asking again resumes auto-fix.",
  },
  fix_already_started: {
    outcome: "ignored",
    means: "A fix was already started for this commit.",
    whatToDo: "Nothing: wait for that run. A new commit that fails starts the next attempt.",
  },
  checks_ignored: {
    outcome: "ignored",
    means: "Every failing check is listed in `check_suite.ignore_checks`.",
    whatToDo: "Remove the check's pattern from `check_suite.ignore_checks` if it should be fixed.",
  },
  already_handed_back: {
    outcome: "ignored",
    means: "The pull request was already handed back to people after the last allowed fix attempt.",
    whatToDo: "Ask with the trigger phrase for another attempt, or raise `check_suite.max_attempts`.",
  },
  already_handled: {
    outcome: "ignored",
    means:
      "Another delivery of the same request was already acted on (a review and its inline comments, a re-run, an automation that already started in this thread).",
    whatToDo: "Nothing: the first delivery was handled. To ask again, write a new comment.",
  },
  follow_up_dropped: {
    outcome: "ignored",
    means: "A follow-up waited for a run that never started (it failed to start), so there was nothing to continue.",
    whatToDo: "Ask again with the trigger phrase: a new run starts.",
  },
  nothing_to_do: {
    outcome: "ignored",
    means: "A refusal or hand-back with no conversation to say it in (the App's log has the reason).",
    whatToDo: "Ask whoever runs the App to look up the delivery in its log.",
  },
  config_error: {
    outcome: "refused",
    means: "The repository's `.github/agent-run.yml` (or the file it extends) is invalid: the bridge acts on no trigger until it is fixed.",
    whatToDo: "Fix the problems the reply lists; `agent-run config check` shows them with their lines before you commit.",
  },
  permission: {
    outcome: "refused",
    means:
      "The person who asked may not trigger runs (below `permissions.minimum`, or not in `permissions.users` or `permissions.teams` when they are set).",
    whatToDo: "Ask a maintainer to trigger it, or to grant you write access. The refusal is said once per person per thread per day.",
  },
  repository_mismatch: {
    outcome: "refused",
    means: "The configured `repo_id` stands for another repository on the Agent Run Service.",
    whatToDo: "Fix or remove `repo_id` in `.github/agent-run.yml`.",
  },
  ci_attempts_used: {
    outcome: "refused",
    means: "CI auto-fix used its attempts on this pull request (`check_suite.max_attempts`): it is handed back to people.",
    whatToDo: "Ask with the trigger phrase for another attempt, or raise `check_suite.max_attempts`.",
  },
  over_limit: {
    outcome: "refused",
    means: "A spend limit is reached (`limits`: runs per thread per day, per repository per hour, CI fixes per day); nothing was sent.",
    whatToDo: "Wait for the window the reply names, or raise the limit in `.github/agent-run.yml`.",
  },
} as const satisfies Record<DecisionCode, DecisionCodeEntry>;

/** Every code, in the table's order. */
export const DECISION_CODE_LIST = Object.keys(DECISION_CODES) as DecisionCode[];

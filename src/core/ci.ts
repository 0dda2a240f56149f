/**
 * CI failures worth a fix: which conclusions count as failing, which pull requests a failure may be
 * fixed on (forks, `check_suite.branches`), which failing checks count (`check_suite.ignore_checks`),
 * and when to stop trying: once per head commit, and at most `check_suite.max_attempts` fixes per
 * pull request, after which it is handed back to its people. Whether a fix creates, resumes or
 * queues a run is plan.ts's, as for any trigger.
 */
import { firstMatchingGlob } from "../config/glob.js";
import type { RepoConfig } from "../config/schema.js";
import { SOURCE } from "../service/wire.js";
import type { LinkedPullRequest } from "./events/types.js";
import { normalizeBranch, type MarkerPlace } from "./markers/schema.js";
import { listTrustedRunMarkers, type BotIdentity, type MarkerComment } from "./markers/trust.js";

/** Check and workflow conclusions that mean "CI failed" (others: success, neutral, cancelled, skipped…). */
const FAILING_CONCLUSIONS = ["failure", "timed_out"] as const;

const isFailing = (conclusion: string | null) => (FAILING_CONCLUSIONS as readonly string[]).includes(conclusion ?? "");

// ---------------------------------------------------------------------------------------------
// Which pull requests a failure may be fixed on

/** Why a CI failure starts no fix (detectTrigger's ignore codes for CI events). */
export type CheckFailureIgnoreCode = "check_suite_disabled" | "not_failed" | "no_pull_request" | "fork" | "branch_not_matched";

export interface CheckFailureInput {
  conclusion: string | null;
  /** The repository's pull requests whose head is the failing commit. */
  pullRequests: LinkedPullRequest[];
  /** The failing commit itself comes from a fork. */
  runIsFork: boolean;
  /** How messages name what failed: `check suite`, `workflow run "CI"`. */
  what: string;
}

export type FixEligibility = { ok: true; eligible: LinkedPullRequest[] } | { ok: false; code: CheckFailureIgnoreCode; reason: string };

/** The guards shared by check suites and workflow runs; the eligible pull requests, first to fix first. */
export function eligibleForFix(input: CheckFailureInput, settings: RepoConfig["check_suite"]): FixEligibility {
  const no = (code: CheckFailureIgnoreCode, reason: string): FixEligibility => ({ ok: false, code, reason });
  if (!settings.enabled) return no("check_suite_disabled", "CI auto-fix is off (`check_suite.enabled: false`).");
  if (!isFailing(input.conclusion)) {
    return no(
      "not_failed",
      `The ${input.what} concluded "${input.conclusion ?? "none"}": only ${FAILING_CONCLUSIONS.join(" or ")} start a fix.`,
    );
  }
  if (input.runIsFork && !settings.allow_forks) {
    return no("fork", `The ${input.what} ran on a fork's commit; fixing forks is off (\`check_suite.allow_forks: false\`).`);
  }
  if (input.pullRequests.length === 0)
    return no("no_pull_request", `The ${input.what} belongs to no open pull request of this repository.`);
  const notForks = settings.allow_forks ? input.pullRequests : input.pullRequests.filter((pr) => !pr.isFork);
  if (notForks.length === 0) {
    return no("fork", `The ${input.what}'s pull request comes from a fork; fixing forks is off (\`check_suite.allow_forks: false\`).`);
  }
  const eligible =
    settings.branches.length === 0 ? notForks : notForks.filter((pr) => firstMatchingGlob(pr.headRef, settings.branches) !== undefined);
  if (eligible.length === 0) {
    const branches = [...new Set(notForks.map((pr) => pr.headRef))].join(", ");
    return no("branch_not_matched", `The branch ${branches} matches none of \`check_suite.branches\` (${settings.branches.join(", ")}).`);
  }
  return { ok: true, eligible };
}

// ---------------------------------------------------------------------------------------------
// Which failing checks count

export interface CheckOutcome {
  name: string;
  conclusion: string | null;
}

/**
 * Splits check runs (or workflow jobs) into the failing ones to fix and the failing ones ignored
 * by `check_suite.ignore_checks` (glob patterns, case-insensitive, `*` crossing `/`).
 */
export function selectFailedChecks<T extends CheckOutcome>(
  checks: readonly T[],
  ignoreChecks: readonly string[],
): { failed: T[]; ignored: T[] } {
  const failed: T[] = [];
  const ignored: T[] = [];
  for (const check of checks) {
    if (!isFailing(check.conclusion)) continue;
    if (firstMatchingGlob(check.name, ignoreChecks, { pathAware: false, ignoreCase: true }) !== undefined) ignored.push(check);
    else failed.push(check);
  }
  return { failed, ignored };
}

// ---------------------------------------------------------------------------------------------
// When to stop trying

/**
 * CI fix cycles the bot started on `branch` (one tracking comment each, created or resumed), and
 * the head commits they answered: the facts behind an attempt cap.
 */
export function countFixAttempts(
  comments: readonly MarkerComment[],
  branch: string,
  self: BotIdentity,
  place: MarkerPlace,
): { attempts: number; headShas: string[] } {
  const wanted = normalizeBranch(branch);
  // Legacy markers count too: counting one too many only stops fixes sooner.
  const cycles = listTrustedRunMarkers(comments, self, place).filter(
    ({ marker }) => marker.sourceType === SOURCE.gitHostCheckSuite && marker.branches.includes(wanted),
  );
  const headShas = [...new Set(cycles.map(({ marker }) => marker.headSha).filter((sha): sha is string => sha !== undefined))];
  return { attempts: cycles.length, headShas };
}

export interface CheckSuiteFacts {
  /** Fix runs already started (created or resumed) for this pull request. */
  attemptsSoFar: number;
  /** A fix was already started for this head commit (a redelivery, or check_suite and workflow_run both firing). */
  headShaAlreadyAttempted: boolean;
  maxAttempts: number;
  /** The pull request was already handed back to humans: stay quiet. */
  alreadyHandedBack?: boolean;
  /** Failing checks left after `check_suite.ignore_checks` (see `selectFailedChecks`); 0 means nothing to fix. */
  relevantFailures?: number;
}

/** Why a failure on a pull request that may be fixed still starts no fix (judgeFixAttempt). */
export type FixIgnoreCode = "fix_already_started" | "checks_ignored" | "already_handed_back";

/** Why no fix starts for this failure (nothing to do, or the pull request goes back to its people). */
export type FixAttemptVerdict = { action: "ignore"; code: FixIgnoreCode; reason: string } | { action: "hand_back"; reason: string };

/** The head-SHA guard, the ignored checks and the attempt cap; null when a fix may start. */
export function judgeFixAttempt(headSha: string, ci: CheckSuiteFacts): FixAttemptVerdict | null {
  if (ci.headShaAlreadyAttempted) {
    return { action: "ignore", code: "fix_already_started", reason: `A fix was already started for commit ${headSha.slice(0, 7)}.` };
  }
  if (ci.relevantFailures === 0) {
    return { action: "ignore", code: "checks_ignored", reason: "Every failing check is listed in `check_suite.ignore_checks`." };
  }
  if (ci.attemptsSoFar < ci.maxAttempts) return null;
  if (ci.alreadyHandedBack) {
    return {
      action: "ignore",
      code: "already_handed_back",
      reason: `The pull request was already handed back after ${ci.attemptsSoFar} fix attempts.`,
    };
  }
  const plural = ci.attemptsSoFar === 1 ? "attempt" : "attempts";
  return {
    action: "hand_back",
    reason: `${ci.attemptsSoFar} fix ${plural} reached the limit of ${ci.maxAttempts} (\`check_suite.max_attempts\`).`,
  };
}

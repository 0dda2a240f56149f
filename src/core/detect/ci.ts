/**
 * Triggers from CI: a completed check suite or workflow run that failed on an eligible pull request
 * (which failures count is core/ci.ts's). One fix attempt per head commit.
 */
import type { RepoConfig } from "../../config/schema.js";
import { SOURCE } from "../../service/wire.js";
import type { CheckSuiteBridgeEvent, LinkedPullRequest, WorkflowRunBridgeEvent } from "../events/types.js";
import type { BridgeSelf } from "../actors.js";
import { eligibleForFix, type CheckFailureInput } from "../ci.js";
import { ignore, onlyAction, type TriggerDetection } from "./answers.js";

/** A CI failure's eligible pull requests, or why it starts no fix (ci.ts). */
function guardCheckFailure(
  input: CheckFailureInput,
  config: RepoConfig,
): { ok: true; eligible: LinkedPullRequest[] } | { ok: false; ignored: TriggerDetection } {
  const eligibility = eligibleForFix(input, config.check_suite);
  return eligibility.ok ? eligibility : { ok: false, ignored: ignore(eligibility.code, eligibility.reason) };
}

export function detectCheckSuite(event: CheckSuiteBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed check suites");
  const app = event.checkSuite.app;
  if (self.appSlug && app?.slug?.toLowerCase() === self.appSlug.toLowerCase()) {
    return ignore("own_check_suite", "The check suite belongs to this app.");
  }
  const guarded = guardCheckFailure(
    { conclusion: event.checkSuite.conclusion, pullRequests: event.checkSuite.pullRequests, runIsFork: false, what: "check suite" },
    config,
  );
  if (!guarded.ok) return guarded.ignored;
  return {
    kind: "trigger",
    trigger: {
      flow: "check_suite",
      event,
      checkSuite: event.checkSuite,
      ...checkFailureFields(event, event.checkSuite.headSha, guarded.eligible),
    },
  };
}

/** What both CI flows carry: one attempt per head SHA, on the first eligible pull request. */
function checkFailureFields(event: CheckSuiteBridgeEvent | WorkflowRunBridgeEvent, headSha: string, eligible: LinkedPullRequest[]) {
  const [pullRequest] = eligible as [LinkedPullRequest, ...LinkedPullRequest[]];
  return {
    sourceType: SOURCE.gitHostCheckSuite,
    repo: event.repo,
    actor: event.sender,
    dedupeKey: `ci:${headSha}`,
    forceNew: false,
    pullRequest,
    pullRequests: eligible,
    headSha,
    headBranch: pullRequest.headRef,
  };
}

export function detectWorkflowRun(event: WorkflowRunBridgeEvent, config: RepoConfig): TriggerDetection {
  if (event.action !== "completed") return onlyAction(event, "completed", "completed workflow runs");
  const run = event.workflowRun;
  const guarded = guardCheckFailure(
    { conclusion: run.conclusion, pullRequests: run.pullRequests, runIsFork: run.isFork, what: `workflow run "${run.name}"` },
    config,
  );
  if (!guarded.ok) return guarded.ignored;
  return {
    kind: "trigger",
    trigger: { flow: "workflow_run", event, workflowRun: run, ...checkFailureFields(event, run.headSha, guarded.eligible) },
  };
}

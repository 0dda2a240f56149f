/**
 * The context a prompt is built from, fetched per flow: the thread and its recent comments, the
 * review and its inline comments, the failed check runs with their annotations, the failed
 * workflow jobs with the end of their logs. Fetching lives here; wording lives in core/prompt.
 */
import type { RepoConfig } from "../config/schema.js";
import type { RepositoryFacts, ThreadRef } from "../core/events/types.js";
import { selectFailedChecks, type CheckOutcome } from "../core/ci.js";
import type { CheckFailureTrigger, RunTrigger } from "../core/detect/triggers.js";
import {
  eventTimeOf,
  reviewCommentContextFrom,
  threadContextFrom,
  type FailedCheckContext,
  type PromptInput,
  type PromptLimits,
  type PullRequestDetails,
  type ReviewCommentContext,
  type PromptComment,
} from "../core/prompt/context.js";
import {
  listFailedCheckRuns,
  listFailedJobs,
  readCheckRunAnnotations,
  readFailedJobLogs,
  type FailedCheckRun,
  type FailedJob,
} from "../github/checks.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import type { IssueComment } from "../github/comments.js";
import { listReviewComments } from "../github/pulls.js";

/** The thread's comments in the shape prompts take (bots are dropped by the prompt builder). */
function asPromptComments(comments: readonly IssueComment[]): PromptComment[] {
  return comments.map((comment) => ({
    id: comment.id,
    author: comment.author.login,
    authorType: comment.author.type,
    body: comment.body,
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    url: comment.htmlUrl,
  }));
}

export interface FetchedThread {
  thread: ThreadRef;
  comments: readonly IssueComment[];
  /** Older comments not fetched. */
  omitted: number;
  pullRequest: PullRequestDetails | null;
}

/** The thread as of the trigger: comments written or edited after the triggering event are left out of the prompt. */
const threadContext = (trigger: RunTrigger, repo: RepositoryFacts, fetched: FetchedThread) =>
  threadContextFrom(repo, fetched.thread, {
    comments: asPromptComments(fetched.comments),
    omittedComments: fetched.omitted,
    pullRequest: fetched.pullRequest,
    asOf: eventTimeOf(trigger.event),
  });

export interface CheckFailures {
  failures: FailedCheckContext[];
  /** Failing checks left after `ignore_checks`; undefined when no failing check could be read at all. */
  relevantFailures: number | undefined;
}

/**
 * A CI failure's failing checks as listed, before their annotations or logs are read: enough for
 * planRun (how many are left after `ignore_checks`), and cheap, so that a failure the plan ignores
 * (paused, already attempted for its commit, nothing relevant) downloads no log.
 */
export interface ListedCheckFailures {
  repo: RepoRef;
  /** Failing checks left after `ignore_checks`; undefined when no failing check could be read at all. */
  relevantFailures: number | undefined;
  failed: { kind: "check_runs"; runs: FailedCheckRun[] } | { kind: "jobs"; jobs: FailedJob[] };
}

/** The failing checks left after `ignore_checks`, and how many; no figure when none failed at all. */
function relevantOf<T extends CheckOutcome>(
  checks: readonly T[],
  ignoreChecks: readonly string[],
): { failed: T[]; relevant: number | undefined } {
  const { failed, ignored } = selectFailedChecks(checks, ignoreChecks);
  return { failed, relevant: failed.length + ignored.length > 0 ? failed.length : undefined };
}

/** The failed check runs (check suite) or jobs (workflow run), minus `check_suite.ignore_checks`, without their annotations or logs. */
export async function listCheckFailures(
  octokit: GitHubClient,
  repo: RepoRef,
  trigger: CheckFailureTrigger,
  config: RepoConfig,
): Promise<ListedCheckFailures> {
  const ignore = config.check_suite.ignore_checks;
  if (trigger.flow === "check_suite") {
    const { failed, relevant } = relevantOf(await listFailedCheckRuns(octokit, repo, trigger.checkSuite.id, { maxAnnotations: 0 }), ignore);
    return { repo, relevantFailures: relevant, failed: { kind: "check_runs", runs: failed } };
  }
  const { failed, relevant } = relevantOf(await listFailedJobs(octokit, repo, trigger.workflowRun.id, { maxLogBytes: 0 }), ignore);
  return { repo, relevantFailures: relevant, failed: { kind: "jobs", jobs: failed } };
}

/** For a run that starts or continues: the listed failures with their annotations or the end of their logs, in the prompt's shape. */
export async function readCheckFailureDetails(
  octokit: GitHubClient,
  listed: ListedCheckFailures,
  limits: PromptLimits,
): Promise<CheckFailures> {
  const { repo, relevantFailures, failed } = listed;
  if (failed.kind === "check_runs") {
    const runs = await readCheckRunAnnotations(octokit, repo, failed.runs, limits.annotationsPerCheck);
    return { relevantFailures, failures: runs.map(checkRunContext) };
  }
  const jobs = await readFailedJobLogs(octokit, repo, failed.jobs, limits.logExcerptChars * 2);
  return { relevantFailures, failures: jobs.map(jobContext) };
}

const checkRunContext = (run: FailedCheckRun): FailedCheckContext => ({
  name: run.name,
  conclusion: run.conclusion,
  url: run.htmlUrl,
  title: run.title,
  summary: run.summary,
  annotations: run.annotations.map((a) => ({
    path: a.path,
    startLine: a.startLine,
    endLine: a.endLine,
    level: a.level,
    title: a.title,
    message: a.message,
  })),
});

const jobContext = (job: FailedJob): FailedCheckContext => ({
  name: job.name,
  conclusion: job.conclusion,
  url: job.htmlUrl,
  failedSteps: job.failedSteps.map((step) => step.name),
  logExcerpt: job.logTail || (job.logUnavailable ? `(log unavailable: ${job.logUnavailable})` : null),
});

/** The inline comments a review trigger is about. */
export async function fetchReviewComments(
  octokit: GitHubClient,
  repo: RepoRef,
  trigger: Extract<RunTrigger, { flow: "review" }>,
): Promise<ReviewCommentContext[]> {
  if (trigger.reviewComment) return [reviewCommentContextFrom(trigger.reviewComment)];
  if (!trigger.review) return [];
  const comments = await listReviewComments(octokit, repo, trigger.pullRequest.number, trigger.review.id);
  return comments.map((comment) => ({
    id: comment.id,
    author: comment.author.login,
    path: comment.path,
    line: comment.line,
    diffHunk: comment.diffHunk,
    body: comment.body,
    url: comment.htmlUrl,
  }));
}

/** Assembles what `buildRunPrompt` / `buildResumePrompt` take, from the trigger and what was fetched. */
export function promptInputFor(
  trigger: RunTrigger,
  fetched: {
    thread: FetchedThread | null;
    reviewComments?: readonly ReviewCommentContext[];
    checks?: CheckFailures;
    attempt?: { number: number; max: number };
  },
): PromptInput {
  const thread = fetched.thread;
  switch (trigger.flow) {
    case "comment":
      return {
        flow: "comment",
        instruction: trigger.instruction,
        quoted: trigger.quoted,
        requester: trigger.actor.login,
        commentUrl: trigger.comment.url,
        commentId: trigger.comment.id,
        thread: threadContext(trigger, trigger.repo, thread!),
      };
    case "label":
      return { flow: "label", label: trigger.label, requester: trigger.actor.login, thread: threadContext(trigger, trigger.repo, thread!) };
    case "review": {
      const review = trigger.review;
      return {
        flow: "review",
        instruction: trigger.instruction,
        quoted: trigger.quoted,
        requester: trigger.actor.login,
        thread: threadContext(trigger, trigger.repo, thread!),
        review: review
          ? { author: review.author?.login ?? trigger.actor.login, state: review.state, body: review.body, url: review.url }
          : null,
        reviewComments: fetched.reviewComments ?? [],
        triggerCommentUrl: trigger.reviewComment?.url ?? null,
      };
    }
    case "check_suite":
    case "workflow_run": {
      const pr = trigger.pullRequest;
      return {
        flow: trigger.flow,
        repository: trigger.repo.fullName,
        pullRequest: { number: pr.number, url: pr.url, headRef: pr.headRef, baseRef: pr.baseRef },
        headSha: trigger.headSha,
        runName: trigger.flow === "workflow_run" ? trigger.workflowRun.name : null,
        runUrl: trigger.flow === "workflow_run" ? trigger.workflowRun.url : trigger.checkSuite.url,
        failures: fetched.checks?.failures ?? [],
        ...(fetched.attempt ? { attempt: fetched.attempt } : {}),
      };
    }
    case "automation":
      return {
        flow: "automation",
        automation: trigger.automation.name,
        event: trigger.automation.on,
        prompt: trigger.automation.prompt,
        thread: threadContext(trigger, trigger.repo, thread!),
      };
    case "dispatch":
      return {
        flow: "dispatch",
        prompt: trigger.prompt,
        thread: thread && trigger.repo ? threadContext(trigger, trigger.repo, thread) : null,
      };
  }
}

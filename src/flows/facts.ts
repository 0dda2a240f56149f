/**
 * The facts `planRun` needs, fetched in the cheapest order: who asked (one permission call), which
 * run the thread or the pull request's branch already has (the caller's records first, then the
 * bot's own markers), whether that run is still working, and for CI how many fixes were tried.
 */
import { classifyActor, isAllowedNonWriteUser, type BridgeSelf } from "../core/actors.js";
import type { RepoConfig } from "../config/schema.js";
import { countFixAttempts } from "../core/ci.js";
import {
  findTrustedComment,
  listRunsForBranch,
  listTrustedRunMarkers,
  runRecordNamesPlace,
  type BotIdentity,
  type FoundRunMarker,
  type MarkerComment,
} from "../core/markers/trust.js";
import { isCheckFailureTrigger, type RunTrigger } from "../core/detect/triggers.js";
import { markerPlaceIn, type MarkerPlace } from "../core/markers/schema.js";
import type { CheckSuiteFacts } from "../core/ci.js";
import { findKillSwitch } from "../core/kill-switch.js";
import { planRun, type KnownRun, type RunFacts, type RunMode, type RunPlan } from "../core/plan.js";
import type { Actor } from "../core/events/types.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import type { IssueComment } from "../github/comments.js";
import { checkTriggerPermission } from "../github/permissions.js";
import { NotFoundError } from "../service/errors.js";
import { classifyRunStatus } from "../service/status.js";
import type { AgentRun } from "../service/wire.js";
import type { BranchHead, KnownRunLookup, RunReader } from "./types.js";

/** The thread a marker is read in or written for: `owner/name` and its issue or pull-request number. */
export function markerPlaceOf(repo: RepoRef, threadNumber: number): MarkerPlace {
  return markerPlaceIn(repo, threadNumber);
}

/** Bot comments as the marker readers take them. */
export function asMarkerComments(comments: readonly IssueComment[]): MarkerComment[] {
  return comments.map((comment) => ({
    id: comment.id,
    body: comment.body,
    created_at: comment.createdAt,
    user: { login: comment.author.login, type: comment.author.type },
    performed_via_github_app: comment.viaApp ? { slug: comment.viaApp.slug } : null,
  }));
}

/** The facts the configuration gives planRun (and the caller's `mode`), before anything is read. */
export function factsFromConfig(config: RepoConfig, mode?: RunMode): RunFacts {
  return {
    followUp: config.follow_up,
    changesRequested: config.reviews.changes_requested,
    triggerPhrase: config.trigger_phrase,
    ...(mode ? { mode } : {}),
  };
}

/** The kill-switch label on the trigger's thread as the payload lists its labels; null for CI failures (their payloads list none) and threadless prompts. */
export function killSwitchInPayload(trigger: RunTrigger, config: RepoConfig): string | null {
  if (isCheckFailureTrigger(trigger) || !trigger.thread) return null;
  return findKillSwitch(trigger.thread.labels, config);
}

/**
 * planRun's answer from the event and the configuration alone (the kill switch in the payload's
 * labels), or null when it needs a read first: lets a shell stay quiet about a switched-off thread
 * before it asks GitHub anything.
 */
export function planFromEvent(trigger: RunTrigger, config: RepoConfig, mode?: RunMode): RunPlan | null {
  const plan = planRun(trigger, { ...factsFromConfig(config, mode), killSwitch: killSwitchInPayload(trigger, config) });
  return plan.action === "read" ? null : plan;
}

export async function triggerPermission(
  octokit: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
  config: RepoConfig,
  self: BridgeSelf,
): Promise<{ allowed: boolean; why: string }> {
  // CI failures come from GitHub itself; an explicit prompt without a sender (a schedule) from whoever wrote the workflow.
  if (isCheckFailureTrigger(trigger)) return { allowed: true, why: "CI failures need no permission." };
  if (!trigger.actor) return { allowed: true, why: "An explicit prompt from the workflow." };
  if (trigger.flow === "automation")
    return everyoneAllowed(trigger.accountable, (actor) => actorPermission(octokit, repo, actor, trigger, config, self));
  return actorPermission(octokit, repo, trigger.actor, trigger, config, self);
}

/** Allowed when every one of them is (an automation answers to its opener and to whoever marked the pull request ready). */
async function everyoneAllowed(
  actors: readonly Actor[],
  check: (actor: Actor) => Promise<{ allowed: boolean; why: string }>,
): Promise<{ allowed: boolean; why: string }> {
  const answers = await Promise.all(actors.map(check));
  return answers.find((answer) => !answer.allowed) ?? { allowed: true, why: answers.map((answer) => answer.why).join(" ") };
}

async function actorPermission(
  octokit: GitHubClient,
  repo: RepoRef,
  actor: Actor,
  trigger: RunTrigger,
  config: RepoConfig,
  self: BridgeSelf,
): Promise<{ allowed: boolean; why: string }> {
  const login = actor.login;
  // Bots have no repository role: for a bot the Action's `allowed-bots` lets in, the list is the permission.
  if (classifyActor(actor, self) === "allowed_bot") {
    return { allowed: true, why: `@${login} is a bot this workflow allows to trigger runs.` };
  }
  // An explicit prompt runs on the sender's behalf: the same check as a comment, unless the workflow lets them in.
  if (trigger.flow === "dispatch" && isAllowedNonWriteUser(login, self.allowedNonWriteUsers)) {
    return { allowed: true, why: `@${login} may start runs without write access (\`allowed-non-write-users\`).` };
  }
  return checkTriggerPermission(octokit, repo, actor, config.permissions);
}

/** A run this thread or branch points at, before asking whether it is still working. */
interface Candidate {
  runId: number;
  orgId: number;
  from: string;
  /** The run as the service answered when a legacy marker's run was checked (saves the status read). */
  run?: AgentRun;
}

/** Legacy markers checked against the service per reading: a thread rarely holds more than a run or two. */
const MAX_LEGACY_CHECKS = 3;

/**
 * The run the service has for a legacy marker, when its record names `place` (runRecordNamesPlace);
 * null when it names another thread, none, or the service no longer knows the run.
 */
async function legacyRunOf(client: RunReader, runId: number, place: MarkerPlace): Promise<AgentRun | null> {
  try {
    const run = await client.getRun(runId);
    return runRecordNamesPlace(run, place) ? run : null;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The newest of `found` (trusted markers of this thread, newest first) whose run is this thread's:
 * a bound marker at once, a legacy one once the service's record of its run names the thread.
 */
async function firstOwnRun(
  found: readonly FoundRunMarker[],
  place: MarkerPlace,
  client: RunReader,
  describe: (found: FoundRunMarker) => string,
): Promise<Candidate | null> {
  let checks = 0;
  for (const entry of found) {
    const { runId, orgId } = entry.marker;
    if (runId === null || orgId !== client.orgId) continue;
    if (!entry.legacy) return { runId, orgId, from: describe(entry) };
    if (checks++ >= MAX_LEGACY_CHECKS) return null;
    const run = await legacyRunOf(client, runId, place);
    if (run)
      return { runId, orgId, from: `${describe(entry)} (written before markers named their thread; the run's record names it)`, run };
  }
  return null;
}

/**
 * The head of the pull request a trigger concerns, if it is one: its branch and the repository the
 * branch lives in (null when unknown: a deleted fork, or a fork's check suite, whose payload names
 * no head repository). A branch name alone says nothing: a fork can name its branch like the bot's.
 */
export function pullRequestHeadOf(
  trigger: RunTrigger,
  pullRequest: { headRef: string; headRepoFullName?: string | null } | null,
): BranchHead | null {
  if (isCheckFailureTrigger(trigger)) {
    const headRepo = !trigger.pullRequest.isFork
      ? (trigger.repo?.fullName ?? null)
      : trigger.flow === "workflow_run"
        ? trigger.workflowRun.headRepoFullName
        : null;
    return { branch: trigger.headBranch, repoFullName: headRepo };
  }
  if (trigger.flow === "review") return { branch: trigger.pullRequest.headRef, repoFullName: trigger.pullRequest.headRepoFullName };
  return pullRequest ? { branch: pullRequest.headRef, repoFullName: pullRequest.headRepoFullName ?? null } : null;
}

export interface KnownRunQuery {
  repo: RepoRef;
  /** The thread whose comments these are: only markers naming it (or legacy ones its run's record names) count. */
  threadNumber: number;
  /** The thread's comments (bot comments included), oldest first. */
  comments: readonly MarkerComment[];
  /** Set for pull requests: a run that produced the branch (in that head repository) is the one to continue. */
  head: BranchHead | null;
  /** Reviews and CI failures are about the branch first; comments and labels about the thread first. */
  branchFirst: boolean;
  self: BotIdentity;
  lookup: KnownRunLookup;
  client: RunReader;
}

/** The run to continue (`pending` while it is still being created), and where it was found, for logs. */
export interface KnownRunFinding {
  known: KnownRun | null;
  pending: boolean;
  from: string | null;
  /** The run of the client's organization that produced the pull request's head branch, if one did. */
  branchRun: { runId: number; orgId: number } | null;
}

/**
 * The run that produced a pull request's head branch: the caller's records (keyed by the head
 * repository and the branch), else a trusted marker in this pull request's own thread naming the
 * branch. A head whose repository is unknown has no recorded run.
 */
async function findBranchRun(query: KnownRunQuery): Promise<Candidate | null> {
  const { head, lookup, repo, self } = query;
  if (!head) return null;
  const sameOrg = (candidate: Candidate | null) => (candidate && candidate.orgId === query.client.orgId ? candidate : null);
  if (head.repoFullName) {
    const recorded = await lookup.runForBranch(repo, { branch: head.branch, repoFullName: head.repoFullName });
    if (recorded) return sameOrg({ ...recorded, from: `the run that produced the branch ${head.repoFullName}:${head.branch}` });
  }
  const place = markerPlaceOf(repo, query.threadNumber);
  return firstOwnRun(
    listRunsForBranch(query.comments, head.branch, self, place),
    place,
    query.client,
    (found) => `the bot's comment ${found.commentId} naming the branch ${head.branch}`,
  );
}

/**
 * The run to continue, if any. Only runs of the client's own organization count (a token cannot
 * resume another organization's run), and only markers of this thread (a legacy one when the
 * service's record of its run names the thread). A run the service no longer knows (404) counts as none.
 */
export async function findKnownRun(query: KnownRunQuery): Promise<KnownRunFinding> {
  const { repo, lookup, client, self } = query;
  const branchCandidate = await findBranchRun(query);
  const branchRun = branchCandidate ? { runId: branchCandidate.runId, orgId: branchCandidate.orgId } : null;
  const none: KnownRunFinding = { known: null, pending: false, from: null, branchRun };
  const active = await lookup.activeRunInThread(repo, query.threadNumber);
  if (active && active.orgId === client.orgId) {
    // A run still being created has no id yet; planRun only needs to know that something is working.
    return {
      known: { runId: active.runId ?? 0, orgId: active.orgId, inProgress: true },
      pending: active.runId === null,
      from: "an unfinished run in this thread",
      branchRun,
    };
  }

  const place = markerPlaceOf(repo, query.threadNumber);
  const fromThread = () =>
    firstOwnRun(
      listTrustedRunMarkers(query.comments, self, place),
      place,
      client,
      (found) => `the bot's comment ${found.commentId} in this thread`,
    );
  const candidate = query.branchFirst ? (branchCandidate ?? (await fromThread())) : ((await fromThread()) ?? branchCandidate);
  if (!candidate) return none;

  let inProgress = await lookup.isRunInProgress(candidate.runId);
  if (inProgress === null && candidate.run) inProgress = classifyRunStatus(candidate.run.status) === "in_progress";
  if (inProgress === null) {
    try {
      inProgress = classifyRunStatus((await client.getRun(candidate.runId)).status) === "in_progress";
    } catch (error) {
      if (error instanceof NotFoundError) return { ...none, branchRun: candidate === branchCandidate ? null : branchRun };
      throw error;
    }
  }
  return { known: { runId: candidate.runId, orgId: candidate.orgId, inProgress }, pending: false, from: candidate.from, branchRun };
}

/** Attempts so far, whether this commit was already tried, and whether the PR was handed back. */
export async function checkFailureFacts(input: {
  repo: RepoRef;
  prNumber: number;
  branch: string;
  headSha: string;
  comments: readonly MarkerComment[];
  config: RepoConfig;
  self: BotIdentity;
  lookup: KnownRunLookup;
  relevantFailures: number | undefined;
}): Promise<CheckSuiteFacts> {
  const recorded = await input.lookup.checkAttempts(input.repo, input.prNumber, input.branch);
  const place = markerPlaceOf(input.repo, input.prNumber);
  const { attempts, headShas } = recorded ?? countFixAttempts(input.comments, input.branch, input.self, place);
  return {
    attemptsSoFar: attempts,
    headShaAlreadyAttempted: headShas.includes(input.headSha),
    maxAttempts: input.config.check_suite.max_attempts,
    alreadyHandedBack: findTrustedComment(input.comments, "hand_back", input.self, place) !== null,
    ...(input.relevantFailures !== undefined ? { relevantFailures: input.relevantFailures } : {}),
  };
}

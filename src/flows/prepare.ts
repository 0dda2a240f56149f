/**
 * `prepareRun`: from a detected trigger to the one thing a shell must do, with everything that
 * thing needs already fetched and built. Reads GitHub (and, for the Action, the service's run
 * status); never writes anything. The decisions are core's (`planRun`, prompts, metadata, comment
 * bodies); this module only gathers their inputs.
 */
import type { RepoConfig } from "../config/schema.js";
import { buildRunMetadata } from "../core/metadata.js";
import { withReviewFormat } from "../core/review/format.js";
import { runModeOf } from "../core/review/trigger.js";
import { isCheckFailureTrigger, triggerThread, type RunTrigger } from "../core/detect/triggers.js";
import { interruptLineOf } from "../core/interrupt.js";
import { planRun, type KnownRun, type RunFactName, type RunFacts, type RunPlan } from "../core/plan.js";
import { buildResumePrompt, buildRunPrompt, promptThreadAuthors, withAuthorAccess } from "../core/prompt/build.js";
import {
  DEFAULT_PROMPT_LIMITS,
  type PromptInput,
  type PromptLimits,
  type PromptOptions,
  type PullRequestDetails,
  type ReviewCommentContext,
} from "../core/prompt/context.js";
import { findKillSwitch } from "../core/kill-switch.js";
import { renderHandBack, renderRefusal, renderRepositoryMismatch } from "../core/render/replies.js";
import { isCiPausedByStop } from "../core/stop.js";
import { botIdentityOf, type MarkerComment } from "../core/markers/trust.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments, type IssueComment } from "../github/comments.js";
import { getPullRequest } from "../github/pulls.js";
import { promptThreadOf, reactionTargetOf, triggerUrlOf } from "../core/trigger-places.js";
import {
  fetchReviewComments,
  listCheckFailures,
  promptInputFor,
  readCheckFailureDetails,
  type FetchedThread,
  type ListedCheckFailures,
} from "./context.js";
import { readAuthorAccess } from "./author-access.js";
import { readTriggerComment } from "./trigger-comment.js";
import {
  asMarkerComments,
  checkFailureFacts,
  factsFromConfig,
  findKnownRun,
  killSwitchInPayload,
  markerPlaceOf,
  pullRequestHeadOf,
  triggerPermission,
  type KnownRunFinding,
} from "./facts.js";
import { triggerImages } from "./images.js";
import { sharedRepositoryIds, type RepositoryIdResolution, type RepositoryLister } from "./repository-id.js";
import type { MarkerHints, PreparedRun, PreparedStart, PrepareRunInput, ReplyThread } from "./types.js";

/** Comments read per thread: enough for the markers of a long conversation and the recent context. */
export const THREAD_COMMENT_SCAN_LIMIT = 300;

const repoRefOf = (trigger: RunTrigger): RepoRef | null => (trigger.repo ? { owner: trigger.repo.owner, repo: trigger.repo.name } : null);

async function fetchPullRequestDetails(octokit: GitHubClient, repo: RepoRef, trigger: RunTrigger): Promise<PullRequestDetails | null> {
  if (trigger.flow === "review") return trigger.pullRequest;
  const thread = promptThreadOf(trigger);
  if (!thread || thread.kind !== "pull_request") return null;
  const pr = await getPullRequest(octokit, repo, thread.number);
  return {
    url: pr.htmlUrl,
    baseRef: pr.base.ref,
    headRef: pr.head.ref,
    headRepoFullName: pr.head.repoFullName,
    isFork: pr.fromFork,
    headSha: pr.head.sha,
  };
}

/** What prepareRun reads in one go once the permission is settled: the thread, the pull request, the review, the checks. */
interface Gathered {
  listed: { comments: IssueComment[]; total: number };
  pullRequest: PullRequestDetails | null;
  reviewComments: ReviewCommentContext[];
  /** A CI failure's failing checks, listed; their annotations or logs are read only for a run that starts or continues. */
  failures: ListedCheckFailures | undefined;
  /** The thread's comments as the marker readers take them. */
  markerComments: MarkerComment[];
}

/** The reads a plan and a prompt need, sent together (they do not depend on each other). */
async function gather(input: PrepareRunInput, repo: RepoRef | null, thread: ReplyThread | null): Promise<Gathered> {
  const { trigger, octokit, config } = input;
  const scan =
    thread && repo
      ? listIssueComments(octokit, repo, thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT })
      : Promise.resolve({ comments: [] as IssueComment[], total: 0 });
  const details = repo ? fetchPullRequestDetails(octokit, repo, trigger) : Promise.resolve(null);
  const reviewComments: Promise<ReviewCommentContext[]> =
    trigger.flow === "review" && repo ? fetchReviewComments(octokit, repo, trigger) : Promise.resolve([]);
  const checks: Promise<ListedCheckFailures | undefined> =
    isCheckFailureTrigger(trigger) && repo ? listCheckFailures(octokit, repo, trigger, config) : Promise.resolve(undefined);
  const [listed, pullRequest, inline, failures] = await Promise.all([scan, details, reviewComments, checks]);
  return { listed, pullRequest, reviewComments: inline, failures, markerComments: asMarkerComments(listed.comments) };
}

/**
 * The kill-switch label the trigger's thread carries, or null: from the payload's labels, or for a
 * CI failure (whose payload has none) from its pull request, one read.
 */
async function killSwitchOf(input: PrepareRunInput, repo: RepoRef | null): Promise<string | null> {
  const { trigger } = input;
  if (!isCheckFailureTrigger(trigger)) return killSwitchInPayload(trigger, input.config);
  if (!repo) return null;
  const pr = await getPullRequest(input.octokit, repo, trigger.pullRequest.number);
  return findKillSwitch(pr.labels, input.config);
}

/** What prepareRun has read so far for planRun, beyond the facts themselves. */
interface Reading {
  gathered: Gathered | null;
  knownRun: KnownRunFinding;
}

const NO_KNOWN_RUN: KnownRunFinding = { known: null, pending: false, from: null, branchRun: null };

/** Reads the one fact planRun asked for into `facts` (and what it took into `reading`). */
async function readFact(
  fact: RunFactName,
  input: PrepareRunInput,
  at: { repo: RepoRef | null; thread: ReplyThread | null; facts: RunFacts; reading: Reading },
): Promise<void> {
  const { trigger, octokit, config, self, lookup, client } = input;
  const { repo, thread, facts, reading } = at;
  const identity = botIdentityOf(self);
  if (fact === "permission") {
    facts.permission = repo ? await triggerPermission(octokit, repo, trigger, config, self) : { allowed: true, why: "No repository." };
    return;
  }
  if (fact === "trigger_comment") {
    facts.triggerComment = repo ? await readTriggerComment(octokit, repo, trigger, { config, self }) : "standing";
    return;
  }
  // The thread, pull request, review and the list of failing checks, in one go, once.
  const gathered = (reading.gathered ??= await gather(input, repo, thread));
  if (fact === "thread") {
    if (!isCheckFailureTrigger(trigger) || !repo) return;
    const pullRequest = markerPlaceOf(repo, trigger.pullRequest.number);
    facts.ciPausedByStop = isCiPausedByStop(gathered.markerComments, config, { ...identity, appSlug: self.appSlug }, pullRequest);
    facts.checkSuite = await checkFailureFacts({
      repo,
      prNumber: trigger.pullRequest.number,
      branch: trigger.headBranch,
      headSha: trigger.headSha,
      comments: gathered.markerComments,
      config,
      self: identity,
      lookup,
      relevantFailures: gathered.failures?.relevantFailures,
    });
    return;
  }
  reading.knownRun =
    thread && repo
      ? await findKnownRun({
          repo,
          threadNumber: thread.number,
          comments: gathered.markerComments,
          head: pullRequestHeadOf(trigger, gathered.pullRequest),
          branchFirst: trigger.flow === "review" || isCheckFailureTrigger(trigger),
          self: identity,
          lookup,
          client,
        })
      : NO_KNOWN_RUN;
  facts.knownRun = reading.knownRun.known;
  facts.branchRun = reading.knownRun.branchRun;
}

/**
 * Plans, reading each fact when planRun asks for it (cheapest first: a CI failure's kill switch,
 * the permission, then the thread, pull request, review and the list of failing checks in one go,
 * the CI attempts, the known run), so that a "no" costs only the reads it needed; then, for a run
 * to start or continue, reads the failing checks' annotations or logs and builds its prompt,
 * metadata and images. The caller then acts: reply (refuse / hand_back), react and post a tracking
 * comment, and create, resume or hold the run.
 */
export async function prepareRun(input: PrepareRunInput): Promise<PreparedRun> {
  const { trigger, config } = input;
  const limits = { ...DEFAULT_PROMPT_LIMITS, ...input.promptLimits };
  const repo = repoRefOf(trigger);
  const thread: ReplyThread | null = triggerThread(trigger);
  const facts: RunFacts = { ...factsFromConfig(config, input.mode), killSwitch: await killSwitchOf(input, repo) };
  const reading: Reading = { gathered: null, knownRun: NO_KNOWN_RUN };
  const asked = new Set<RunFactName>();
  let next = planRun(trigger, facts);
  while (next.action === "read") {
    if (asked.has(next.fact)) throw new Error(`prepareRun: planRun asked for the fact "${next.fact}" twice (${next.reason})`);
    asked.add(next.fact);
    await readFact(next.fact, input, { repo, thread, facts, reading });
    next = planRun(trigger, facts);
  }
  let plan: RunPlan = next;
  const { knownRun } = reading;
  if (knownRun.pending && plan.action === "queue")
    plan = { ...plan, reason: "The thread's run is still being started; the follow-up is queued for it." };
  if (plan.action !== "create" && plan.action !== "resume" && plan.action !== "queue")
    return finishEarly(trigger, facts, plan, thread, config);
  // The prompt quotes the thread: read now if the plan did not need it (a run named by `mode: resume`).
  const gathered = reading.gathered ?? (await gather(input, repo, thread));
  // A create's repository first: a configured repo_id that is another repository's refuses the run before a prompt is built.
  const repository = plan.action === "create" ? await resolveRepositoryId(input) : null;
  if (repository && "elsewhere" in repository) return refuseRepository(trigger, facts, thread, repository.elsewhere);
  return prepareStart(input, { plan, facts, knownRun, gathered, thread, limits, repository });
}

/** The configured repo_id stands for another repository on the service: refused, said in the thread when there is one. */
function refuseRepository(
  trigger: RunTrigger,
  facts: RunFacts,
  thread: ReplyThread | null,
  elsewhere: { repoId: number; repository: string; listedAs: string | null },
): PreparedRun {
  // The service's name for that id stays out: it may be a private repository, and the Action's log may be public.
  const reason = `The configured repo_id ${elsewhere.repoId} is another repository on the service, not ${elsewhere.repository}.`;
  const plan: RunPlan = { action: "refuse", reason };
  if (!thread) return { trigger, facts, plan, reason, thread, action: "ignore" };
  return { trigger, facts, plan, reason, thread, action: "refuse", body: renderRepositoryMismatch(elsewhere) };
}

/** The thread as the prompt quotes it: the comments read, how many were left out, and its pull request. */
function fetchedThreadOf(trigger: RunTrigger, gathered: Gathered): FetchedThread | null {
  const promptThread = promptThreadOf(trigger);
  return promptThread
    ? {
        thread: promptThread,
        comments: gathered.listed.comments,
        omitted: Math.max(0, gathered.listed.total - gathered.listed.comments.length),
        pullRequest: gathered.pullRequest,
      }
    : null;
}

/** What the run's marker records so that later reviews and CI failures find the run: its head branch, and a CI fix's commit. */
function markerHintsOf(trigger: RunTrigger, pullRequest: PullRequestDetails | null): MarkerHints {
  const head = pullRequestHeadOf(trigger, pullRequest);
  return {
    sourceType: trigger.sourceType,
    branches: head ? [head.branch] : [],
    ...(isCheckFailureTrigger(trigger) ? { headSha: trigger.headSha } : {}),
  };
}

interface ReviewSetting {
  headSha: string;
  maxComments: number;
}

/** Review mode's head and inline limit, or null for an ordinary run; a review needs the pull request's head. */
function reviewOf(trigger: RunTrigger, pullRequest: PullRequestDetails | null, config: RepoConfig): ReviewSetting | null {
  if (runModeOf(trigger) !== "review") return null;
  const headSha = pullRequest?.headSha;
  if (!headSha) throw new Error("A review run needs its pull request's head commit, and the pull request was not read.");
  return { headSha, maxComments: config.review.max_comments };
}

/** For a run to start or continue: the prompt context, both prompts, and for a create its request. */
async function prepareStart(
  input: PrepareRunInput,
  planned: {
    plan: Extract<RunPlan, { action: "create" | "resume" | "queue" }>;
    facts: RunFacts;
    knownRun: KnownRunFinding;
    gathered: Gathered;
    thread: ReplyThread | null;
    limits: PromptLimits;
    /** Set for a create: where its repo_id came from. */
    repository: RepositoryIdResolution | null;
  },
): Promise<PreparedStart> {
  const { trigger, config, self } = input;
  const { plan, facts, knownRun, gathered, thread } = planned;
  const fetchedThread = fetchedThreadOf(trigger, gathered);
  const review = reviewOf(trigger, gathered.pullRequest, config);
  const attempt = facts.checkSuite ? { number: facts.checkSuite.attemptsSoFar + 1, max: facts.checkSuite.maxAttempts } : undefined;
  const checks = gathered.failures ? await readCheckFailureDetails(input.octokit, gathered.failures, planned.limits) : undefined;
  const promptOptions: PromptOptions = { instructions: config.instructions, limits: planned.limits, botLogins: self.botLogins };
  const promptInput = promptInputFor(trigger, {
    thread: fetchedThread,
    reviewComments: gathered.reviewComments,
    ...(checks ? { checks } : {}),
    ...(attempt ? { attempt } : {}),
  });
  const common = {
    trigger,
    facts,
    reason: knownRun.from && plan.action !== "create" ? `${plan.reason} (found through ${knownRun.from})` : plan.reason,
    thread,
    reaction: reactionTargetOf(trigger),
    requester: trigger.actor?.login ?? null,
    sourceType: trigger.sourceType,
    markerHints: markerHintsOf(trigger, gathered.pullRequest),
    checkAttempt:
      isCheckFailureTrigger(trigger) && attempt
        ? { prNumber: trigger.pullRequest.number, headSha: trigger.headSha, number: attempt.number, max: attempt.max }
        : null,
    triggerUrl: triggerUrlOf(trigger),
    promptInput,
    resumePrompt: review
      ? withReviewFormat(buildResumePrompt(promptInput, promptOptions), review)
      : buildResumePrompt(promptInput, promptOptions),
    review: review ? { head_sha: review.headSha, max_comments: review.maxComments } : null,
  };

  switch (plan.action) {
    case "resume":
      return { ...common, plan, action: "resume", runId: plan.runId, orgId: plan.orgId };
    case "queue":
      return {
        ...common,
        plan,
        action: "queue",
        runId: knownRun.pending ? null : plan.runId,
        orgId: plan.orgId,
        // A run still being created has no id to send to yet: that follow-up is held like any other.
        interrupt: plan.interrupt && !knownRun.pending ? { firstLine: interruptLineOf(trigger) } : null,
      };
    case "create":
      if (!planned.repository) throw new TypeError("prepareStart: a create needs its repository resolved first");
      // Only a new run's prompt quotes the thread: a resume's costs no access reads.
      return { ...common, plan, action: "create", ...(await createRequest(input, promptInput, promptOptions, planned.repository, review)) };
  }
}

/** The prompt input with the access of every author its thread section quotes (one read per distinct login, bounded). */
async function withQuotedAuthorsAccess(input: PrepareRunInput, promptInput: PromptInput, options: PromptOptions): Promise<PromptInput> {
  const repo = repoRefOf(input.trigger);
  const authors = promptThreadAuthors(promptInput, options);
  if (!repo || authors.length === 0) return promptInput;
  const access = await readAuthorAccess(input.octokit, repo, authors, input.logger ? { logger: input.logger } : {});
  return withAuthorAccess(promptInput, access);
}

/** A create's body (prompt, metadata, the trigger's images, repo_id, model, agent type), with where its repo_id came from. */
async function createRequest(
  input: PrepareRunInput,
  unlabelled: PromptInput,
  promptOptions: PromptOptions,
  repository: RepositoryIdResolution,
  review: ReviewSetting | null,
): Promise<Pick<Extract<PreparedStart, { action: "create" }>, "request" | "repository" | "skippedImages" | "promptInput">> {
  const { trigger, config } = input;
  // Independent reads, sent together: the trigger's images and the quoted authors' access (the repository id was resolved for the plan).
  const [{ images, skipped }, promptInput] = await Promise.all([
    triggerImages(trigger, input.images),
    withQuotedAuthorsAccess(input, unlabelled, promptOptions),
  ]);
  for (const skip of skipped) input.logger?.warn({ url: skip.url, reason: skip.reason }, "an image of the trigger was not sent");
  const metadata = buildRunMetadata(trigger, trigger.event, {
    appName: input.origin.appName,
    appVersion: input.origin.appVersion,
    ...(input.origin.deliveryId ? { deliveryId: input.origin.deliveryId } : {}),
    ...(review ? { headSha: review.headSha } : {}),
  });
  const prompt = buildRunPrompt(promptInput, promptOptions);
  const request = {
    prompt: review ? withReviewFormat(prompt, review) : prompt,
    metadata,
    ...(images.length > 0 ? { images } : {}),
    ...(repository.repoId !== null ? { repo_id: repository.repoId } : {}),
    ...serviceSettings(config),
  };
  return { request, repository, skippedImages: skipped, promptInput };
}

/**
 * The create's `repo_id`: the configured one, else the one the service lists for this GitHub
 * repository (remembered for an hour), else none (the organization's default applies).
 */
async function resolveRepositoryId(
  input: PrepareRunInput,
): Promise<RepositoryIdResolution | { elsewhere: { repoId: number; repository: string; listedAs: string | null } }> {
  const { config, trigger, client } = input;
  const directory = input.repositoryIds ?? sharedRepositoryIds;
  // The client itself is the cache key, so its list is read once an hour.
  const lister = client.listRepositories ? (client as typeof client & RepositoryLister) : null;
  if (config.repo_id !== undefined) {
    // The configuration is the repository's own, but a run must not land in a repository it names by mistake (or on purpose).
    if (lister && trigger.repo) {
      const repository = { fullName: trigger.repo.fullName, githubId: trigger.repo.id };
      const check = await directory.checkConfigured(lister, config.repo_id, repository, input.logger);
      if (check.verdict === "elsewhere")
        return { elsewhere: { repoId: config.repo_id, repository: trigger.repo.fullName, listedAs: check.listedAs } };
    }
    return { repoId: config.repo_id, from: "config" };
  }
  if (!trigger.repo) return { repoId: null, why: "no_repository" };
  if (!lister) return { repoId: null, why: "no_endpoint" };
  const found = await directory.lookup(lister, { fullName: trigger.repo.fullName, githubId: trigger.repo.id }, input.logger);
  if (found.repoId !== null)
    input.logger?.debug?.({ repository: trigger.repo.fullName, repoId: found.repoId }, "repo_id found in the service's repository list");
  return found;
}

/** The create body's model and agent type, when the config sets them. */
function serviceSettings(config: RepoConfig): { model?: string; agent_type?: RepoConfig["agent_type"] } {
  return {
    ...(config.model !== undefined ? { model: config.model } : {}),
    ...(config.agent_type !== undefined ? { agent_type: config.agent_type } : {}),
  };
}

/** ignore, refuse or hand_back: nothing to build but, for the last two, the reply. */
function finishEarly(trigger: RunTrigger, facts: RunFacts, plan: RunPlan, thread: ReplyThread | null, config: RepoConfig): PreparedRun {
  const common = { trigger, facts, plan, reason: plan.reason, thread };
  if (plan.action === "refuse" && thread) {
    return { ...common, action: "refuse", thread, body: renderRefusal({ login: trigger.actor?.login ?? "you", reason: plan.reason }) };
  }
  if (plan.action === "hand_back" && thread) {
    const prUrl = isCheckFailureTrigger(trigger) ? trigger.pullRequest.url : thread.url;
    const body = renderHandBack({ attempts: facts.checkSuite?.attemptsSoFar ?? 0, prUrl, triggerPhrase: config.trigger_phrase });
    return { ...common, action: "hand_back", thread, body };
  }
  // A refusal or hand-back without a conversation to say it in is logged, not posted.
  return { ...common, action: "ignore" };
}

/**
 * Plans again with fresher knowledge of the run (a shell re-checks right before acting, because a
 * run may have finished, or started, while the context was being fetched). Only moves between
 * "resume" and "queue", which share the prepared resume prompt; anything else stays as prepared.
 */
export function replanWithKnownRun(prepared: PreparedStart, known: KnownRun): PreparedStart {
  if (prepared.action === "create") return prepared;
  const facts: RunFacts = { ...prepared.facts, knownRun: known };
  const plan = planRun(prepared.trigger, facts);
  if (plan.action === "resume")
    return { ...prepared, facts, plan, reason: plan.reason, action: "resume", runId: plan.runId, orgId: plan.orgId };
  if (plan.action === "queue") {
    const interrupt = plan.interrupt ? { firstLine: interruptLineOf(prepared.trigger) } : null;
    return { ...prepared, facts, plan, reason: plan.reason, action: "queue", runId: plan.runId, orgId: plan.orgId, interrupt };
  }
  return prepared;
}

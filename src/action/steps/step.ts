/**
 * What every part of the Action shares once inputs, event and clients are ready (`Step`), what it
 * hands back to the runner (`StepResult`), and the few helpers all parts use: who the bot is,
 * which thread to write in, how a failure is reported.
 */
import { DEFAULT_REPO_CONFIG } from "../../config/schema.js";
import { isThreadEvent, type BridgeEvent } from "../../core/events/types.js";
import { parseWebhookEvent } from "../../core/events/parse.js";
import type { BridgeSelf } from "../../core/actors.js";
import { imageHostsFor } from "../../core/sanitize-output/image-hosts.js";
import type { ReplyThread, RepositoryLister, RunReader } from "../../flows/index.js";
import type { RecentRepositoryComments } from "../../flows/spend-limits.js";
import type { GitHubClient, RepoRef } from "../../github/client.js";
import { AgentRunClient } from "../../service/client.js";
import type { AgentRun } from "../../service/wire.js";
import { ACTION_USER_AGENT, type HeadStart } from "../head-start.js";
import { identityFor, resolveIdentity, unknownIdentityWarning, type ActionIdentity } from "../identity.js";
import { loadImages } from "../images.js";
import { InputError, type ActionInputs, type Env } from "../inputs.js";
import { nodeFetch } from "../../http/node-fetch.js";
import { createActionOctokit, proxyFor } from "../octokit.js";
import type { ActionOutcome, PostedComment, SummaryContext } from "../report.js";
import { pollScheduleFrom, repositoryRunReader, type PollSchedule } from "../runs.js";
import { readEventPayload, readRunnerEnv, type RunnerEnv } from "../runner-env.js";
import { ThreadReporter } from "../thread.js";
import { log, signMarkersWith } from "../door.js";
import { createMarkerSigner } from "../marker-signer.js";

export { ACTION_NAME } from "../head-start.js";

/** What happened, and the one failure message for `setFailed` (null: the step succeeds). */
export interface StepResult {
  outcome: ActionOutcome;
  failure: string | null;
  /** What the job summary links to; absent when the step stopped before knowing. */
  context?: SummaryContext;
}

export interface Step {
  inputs: ActionInputs;
  runner: RunnerEnv;
  event: BridgeEvent;
  repo: RepoRef | null;
  repoFullName: string | null;
  octokit: GitHubClient;
  client: AgentRunClient;
  /** The service's runs as this repository may see them; one object per step, so the repository-id listing it caches is read once. */
  runs: RunReader & RepositoryLister;
  images: string[];
  now: () => number;
  startedAt: number;
  deadline: number;
  poll: PollSchedule;
  /** Who the bot is; no login is known until `identify` has asked GitHub. */
  self: BridgeSelf;
  /** The question to GitHub behind `self`, asked at most once. */
  identity?: Promise<BridgeSelf>;
  /** The repository's recent comments for the spend limits, when listed ahead (the head start, `decideAhead`). */
  recentComments?: Promise<RecentRepositoryComments>;
  /** The configuration file's text, when the head start read it. */
  configFile?: Promise<string | undefined>;
  /** Filled in as the step learns where it is. */
  summary: SummaryContext;
}

/** Reads the runner's environment and the event, and opens the clients (taking over the head start's reads when they match). */
export async function openStep(inputs: ActionInputs, env: Env, now: () => number, headStart: HeadStart | null = null): Promise<Step> {
  const runner = readRunnerEnv(env);
  const event = parseWebhookEvent(runner.eventName, await readEventPayload(runner));
  const images = await loadImages(inputs.images, runner.workspace);
  const startedAt = now();
  const repoFullName = event.repo?.fullName ?? runner.repository;
  const [owner, name] = (repoFullName ?? "").split("/");
  if (inputs.githubToken === "") {
    throw new InputError([
      "`github-token` is empty: leave it unset (the job's token is the default) or pass a token that can write issue comments",
    ]);
  }
  // Every comment this step writes carries a marker only the holder of the API token could sign
  // (and markers the token before a rotation signed are still the bot's).
  const markerSigner = createMarkerSigner(inputs.apiToken, inputs.previousApiToken);
  signMarkersWith(markerSigner);
  const userAgent = ACTION_USER_AGENT;
  // Sent with what the inputs now say? Otherwise the step reads for itself.
  const head =
    headStart &&
    headStart.token === inputs.githubToken &&
    headStart.apiUrl === runner.apiUrl &&
    headStart.graphqlUrl === runner.graphqlUrl &&
    headStart.repoFullName === repoFullName
      ? headStart
      : null;
  const client = new AgentRunClient({
    baseUrl: inputs.apiUrl,
    token: inputs.apiToken,
    orgId: inputs.orgId,
    userAgent,
    logsPath: inputs.logsPath,
    logger: { warn: (message) => log.warning(message) },
    // Through a proxy, Node's own fetch as before; otherwise node:http, which starts faster.
    ...(proxyFor(inputs.apiUrl) ? {} : { fetch: nodeFetch }),
    ...(headStart?.service && headStart.service.apiToken === inputs.apiToken && headStart.service.orgId === inputs.orgId
      ? { sentAhead: headStart.service.sentAhead }
      : {}),
  });
  const step: Step = {
    inputs,
    runner,
    event,
    repo: owner && name ? { owner, repo: name } : null,
    repoFullName,
    octokit: await (head?.octokit ?? createActionOctokit(inputs.githubToken, runner.apiUrl, userAgent)),
    client,
    runs: repositoryRunReader(client, repoFullName),
    images,
    now,
    startedAt,
    deadline: startedAt + inputs.timeoutMinutes * 60_000,
    poll: pollScheduleFrom(env.AGENT_RUN_POLL_INTERVAL),
    self: {
      botLogins: identityFor(null).botLogins,
      allowedBots: inputs.allowedBots,
      allowedNonWriteUsers: inputs.allowedNonWriteUsers,
      markerSigner,
    },
    summary: {
      thread: isThreadEvent(event)
        ? { label: `${repoFullName ?? event.repo.fullName}#${event.thread.number}`, url: event.thread.url }
        : null,
      triggerPhrase: DEFAULT_REPO_CONFIG.trigger_phrase,
      imageHosts: imageHostsFor(runner.server),
    },
  };
  if (head) {
    step.configFile = head.configFile;
    if (head.identity) adoptIdentity(step, head.identity);
    if (head.recentComments) step.recentComments = head.recentComments;
  }
  return step;
}

/** Asks GitHub who the token writes as (once per step) and remembers it in `step.self`. */
export function identify(step: Step): Promise<BridgeSelf> {
  return step.identity ?? adoptIdentity(step, resolveIdentity(step.octokit, step.runner.graphqlUrl));
}

function adoptIdentity(step: Step, identity: Promise<ActionIdentity>): Promise<BridgeSelf> {
  step.identity = identity.then((known) => {
    if (known.unknownBecause) log.warning(unknownIdentityWarning(step.runner.graphqlUrl, known.unknownBecause));
    return (step.self = { ...step.self, botLogins: known.botLogins });
  });
  // A failure is reported where the identity is awaited, not here.
  step.identity.catch(() => undefined);
  return step.identity;
}

/** Starts `identify` early when it will surely be needed, so that it overlaps other requests. */
export function identifyAhead(step: Step): void {
  // A failure is reported where the identity is awaited, not here.
  identify(step).catch(() => undefined);
}

/** The thread to write in, following `comment` (auto: when the event has one). */
function commentThread(step: Step, thread: Pick<ReplyThread, "number"> | null): number | null {
  if (!step.repo) return null;
  switch (step.inputs.comment) {
    case "false":
      return null;
    case "true":
      if (!thread) log.warning("`comment: true`, but this event has no issue or pull request to comment on.");
      return thread?.number ?? null;
    case "auto":
      return thread?.number ?? null;
  }
}

export const logSink = { info: (message: string) => log.info(message), warning: (message: string) => log.warning(message) };

/** Where this step writes: the thread `comment` allows, or nowhere. */
export function threadReporter(step: Step, thread: Pick<ReplyThread, "number"> | null): ThreadReporter {
  return new ThreadReporter(step.octokit, step.repo ?? { owner: "", repo: "" }, commentThread(step, thread), logSink);
}

/** The workflow run and its attempt: what a webhook delivery id is for the App. */
export function deliveryId(runner: RunnerEnv): string | undefined {
  return runner.runId ? `${runner.runId}-${runner.runAttempt ?? "1"}` : undefined;
}

/** The marker's request id: which workflow run (and attempt) wrote this tracking comment. */
export function requestIdOf(runner: RunnerEnv): string | undefined {
  return runner.runId ? `actions:${runner.runId}:${runner.runAttempt ?? "1"}` : undefined;
}

/** A failure that `fail-on-error: false` turns into a warning. */
export function softFailure(step: Step, message: string): string | null {
  if (step.inputs.failOnError) return message;
  log.warning(message);
  return null;
}

export function fail(step: Step, message: string, run: AgentRun | null, comment: PostedComment | null = null, resumed = false): StepResult {
  return { outcome: { kind: "error", message, run, resumed, comment }, failure: softFailure(step, message) };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

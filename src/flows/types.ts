/**
 * The shapes shared by the App and the Action around `prepareRun`: what a shell passes in (an
 * octokit, a detected trigger, the config, who the bot is, the service client, a way to look up
 * runs it already knows) and the `PreparedRun` it gets back and acts on.
 */
import type { ReviewRequest } from "../core/review/trigger.js";
import type { RepoConfig } from "../config/schema.js";
import type { RunMetadata } from "../core/metadata.js";
import type { BridgeSelf } from "../core/actors.js";
import type { RunFacts, RunMode, RunPlan } from "../core/plan.js";
import type { ReplyThread, RunTrigger } from "../core/detect/triggers.js";
import type { GitHubServer } from "../core/github-hosts.js";
import type { PromptInput, PromptLimits } from "../core/prompt/context.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import type { ReactionTarget } from "../core/render/reactions.js";
import type { SkippedImage } from "../github/attachments.js";
import type { CallOptions, OptionalListing } from "../service/client.js";
import type { AgentRun, CreateRunRequest, ListRepositoriesQuery, RepositoriesPage, SourceType } from "../service/wire.js";
import type { FlowLogger } from "./logger.js";
import type { RepositoryIdDirectory, RepositoryIdResolution } from "./repository-id.js";

export type { ReplyThread };

type Awaitable<T> = T | Promise<T>;

/** A run the caller is working on right now; `runId` is null while it is still being created. */
interface ActiveRun {
  runId: number | null;
  orgId: number;
}

/**
 * What the caller already knows about runs, so the flows only read GitHub when they must.
 * Every method may answer null for "I keep no such record": the flows then read the thread's
 * trusted markers (and, for whether a run is still working, ask the service).
 *
 * - The App answers from its durable store (unfinished tasks, PR head branches, CI attempts).
 * - The Action keeps no state: `MARKERS_ONLY_LOOKUP` answers null everywhere.
 */
export interface KnownRunLookup {
  /** An unfinished run whose tracking comment is in this issue or pull request, or null. */
  activeRunInThread(repo: RepoRef, threadNumber: number): Awaitable<ActiveRun | null>;
  /** Whether the caller is still working on `runId`: true/false from its records, null when it cannot tell. */
  isRunInProgress(runId: number): Awaitable<boolean | null>;
  /** The run that produced (or works on) this head branch of a pull request in `repo`, or null. */
  runForBranch(repo: RepoRef, head: RecordedBranchHead): Awaitable<{ runId: number; orgId: number } | null>;
  /** CI fix attempts started for this pull request and the head commits they answered, or null. */
  checkAttempts(repo: RepoRef, prNumber: number, branch: string): Awaitable<{ attempts: number; headShas: string[] } | null>;
}

/** A pull request's head: the branch and the repository it lives in (`owner/name`; null when unknown, e.g. a deleted fork). */
export interface BranchHead {
  branch: string;
  repoFullName: string | null;
}

/** A head whose repository is known: the only kind a branch → run record is kept or looked up for. */
type RecordedBranchHead = BranchHead & { repoFullName: string };

/** For shells without records of their own (the Action): everything comes from markers and the service. */
export const MARKERS_ONLY_LOOKUP: KnownRunLookup = {
  activeRunInThread: () => null,
  isRunInProgress: () => null,
  runForBranch: () => null,
  checkAttempts: () => null,
};

/**
 * The part of the service client the flows use: reading a run's status and, when the shell offers
 * it, the organization's repositories (to find a `repo_id` the configuration does not set).
 */
export interface RunReader {
  readonly orgId: number;
  getRun(runId: number): Promise<AgentRun>;
  listRepositories?(query?: ListRepositoriesQuery, options?: CallOptions): Promise<OptionalListing<RepositoriesPage>>;
}

export interface ImageDownloadSettings {
  /** The installation token (App) or `GITHUB_TOKEN` (Action), sent only to the server's own origin; private repositories need it. */
  token?: string | (() => Promise<string | undefined>);
  /** The GitHub whose attachments are read and whose origin alone receives the token (default github.com). */
  server?: GitHubServer;
  /** Default globalThis.fetch (tests point github.com at a fake). */
  fetch?: typeof fetch;
  /** Default MAX_IMAGE_ATTACHMENTS (4). */
  maxCount?: number;
  /** Per image; default 3 MB. */
  maxBytes?: number;
  /** Per image download; default 15 s. */
  timeoutMs?: number;
}

export interface PrepareRunInput {
  /** Installation-scoped (App) or `GITHUB_TOKEN` (Action) octokit; only `request` is used. */
  octokit: GitHubClient;
  /** From `detectTrigger(event, config, self)`; `trigger.event` is the parsed webhook. */
  trigger: RunTrigger;
  config: RepoConfig;
  self: BridgeSelf;
  client: RunReader;
  lookup: KnownRunLookup;
  /** For the run's metadata: the delivery (App) or workflow run (Action), and who we are. */
  origin: { deliveryId?: string; appName: string; appVersion: string };
  images?: ImageDownloadSettings;
  promptLimits?: Partial<PromptLimits>;
  /** The caller's wish (the Action's `mode: create`), one of planRun's facts. Default `auto`. */
  mode?: RunMode;
  logger?: FlowLogger;
  /** Where repository ids found on the service are remembered (an hour). Default: one cache per process. */
  repositoryIds?: RepositoryIdDirectory;
}

/** What a shell needs to write its own run marker (the Action) or CI bookkeeping (the App). */
export interface MarkerHints {
  sourceType: SourceType;
  /** Head branches the run works on (review and CI flows), so later reviews and failures find it. */
  branches: string[];
  /** The head commit a CI fix answers: never twice for one commit. */
  headSha?: string;
}

/** Set for CI flows: the attempt this run is, to record. */
interface CheckAttempt {
  prNumber: number;
  headSha: string;
  /** 1-based number of this attempt. */
  number: number;
  max: number;
}

interface PreparedCommon {
  trigger: RunTrigger;
  plan: RunPlan;
  /** The facts the plan was made from, so a shell can re-plan when they change (see `replanWithKnownRun`). */
  facts: RunFacts;
  /** Why, in one sentence, for logs. */
  reason: string;
  /** The conversation to reply in, or null (an explicit dispatch without a thread). */
  thread: ReplyThread | null;
}

interface PreparedRunCommon extends PreparedCommon {
  /** Where the 👀 / 🚀 / 😕 reactions go, or null (reviews and CI have nothing to react to). */
  reaction: ReactionTarget | null;
  /** Who asked, for the task record; null for events without a person. */
  requester: string | null;
  sourceType: SourceType;
  markerHints: MarkerHints;
  checkAttempt: CheckAttempt | null;
  /** The URL of what started it (comment, review, checks page), for the tracking comment. */
  triggerUrl: string | null;
  /** The context the prompts were built from (already fetched and bounded). */
  promptInput: PromptInput;
  /** The prompt to continue a known run with (resume, or a queued follow-up). */
  resumePrompt: string;
  /** Review mode: the head the review anchors on and how many findings go inline; null for an ordinary run. */
  review: ReviewRequest | null;
}

export type PreparedRun =
  | (PreparedCommon & { action: "ignore" })
  | (PreparedCommon & { action: "refuse"; thread: ReplyThread; body: string })
  | (PreparedCommon & { action: "hand_back"; thread: ReplyThread; body: string })
  | (PreparedRunCommon & {
      action: "create";
      /** The create body: prompt, images, metadata (with `source_type`), repo_id, model, agent_type. */
      request: CreateRunRequest & { prompt: string; metadata: RunMetadata };
      /** Where `request.repo_id` came from, or why there is none (the organization's default applies). */
      repository: RepositoryIdResolution;
      /** Attachments that were not sent, and why. */
      skippedImages: SkippedImage[];
    })
  | (PreparedRunCommon & { action: "resume"; runId: number; orgId: number })
  | (PreparedRunCommon & {
      action: "queue";
      /** Null while the thread's run is still being created: the follow-up waits for whichever run that becomes. */
      runId: number | null;
      orgId: number;
      /** Set (`follow_up: interrupt`) when the follow-up goes to the working agent at once; null: held until the run finishes. */
      interrupt: FollowUpInterrupt | null;
    });

/** A follow-up sent to a working agent: what its tracking comment quotes of it. */
export interface FollowUpInterrupt {
  /** The instruction's first line, sanitised like any prompt text and bounded. */
  firstLine: string;
}

export type PreparedStart = Extract<PreparedRun, { action: "create" | "resume" | "queue" }>;

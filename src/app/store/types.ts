import type { ReactionTarget } from "../../core/render/reactions.js";
import type { ReviewRequest } from "../../core/review/trigger.js";
import type { FollowUpInterrupt } from "../../flows/types.js";
import type { SourceType } from "../../service/wire.js";

/**
 * The App's durable state: one row per run *phase* (a create, or a resume), moving through
 *   held → queued → sending → watching → reporting → done
 * so that a restart (or kill -9) at any point resumes the right step and posts each result once.
 * - held: a follow-up waiting for its run to finish (policy `queue`);
 * - queued: waiting for rate budget before the create/resume call;
 * - sending: the call is in flight; after a crash here the outcome is unknown, so it is NOT repeated
 *   (a duplicate agent run costs money): the thread is told instead (`abandoned`);
 * - watching: polling the run; reporting: the final run is captured, the result is being written.
 */
export type TaskState = "held" | "queued" | "sending" | "watching" | "reporting" | "done" | "abandoned";
type TaskKind = "create" | "resume";

/** The conversation a task writes to, and how to reach it (core's `ThreadRef` is the issue or pull request itself). */
export interface TaskThread {
  installationId: number | null;
  owner: string;
  repo: string;
  /** Issue or pull request number whose conversation holds the tracking comment. */
  issueNumber: number;
  /** The repository's trigger phrase, so rendered agent output cannot re-trigger the bot. */
  triggerPhrase?: string;
}

/** Where a task's reactions go: what GitHub reacts to, or a review, which takes none (reacting to it writes nothing). */
export type TaskReactionTarget = ReactionTarget | { kind: "review"; id: number };

/** What is needed to (re)build the progress view and the result digest without refetching all logs. */
export interface TraceProgress {
  logsSeen: number;
  currentStep: string | null;
  errors: string[];
  lastSteps: string[];
  finalAnswer: string | null;
}

/** A held follow-up for a working agent; `sendingSince`: handed to the service then (a step cut off from there may or may not have delivered it). */
interface HeldInterrupt extends FollowUpInterrupt {
  sendingSince?: number;
}

/** A follow-up that went to the run while it worked (`follow_up: interrupt`), as its tracking comment shows it. */
export interface DeliveredMessage {
  /** The follow-up's own task (done once delivered). */
  taskId: number;
  firstLine: string;
  at: number;
  /** Where its final reaction goes when the run ends. */
  reaction: TaskReactionTarget | null;
  /** False when the call went out but no answer came back (a timeout, a crash): it may not have reached the agent. */
  confirmed: boolean;
  /** A `/agent review` that reached the working agent: the head and limit of the review the run's end posts. */
  review?: ReviewRequest;
}

export interface Task {
  id: number;
  kind: TaskKind;
  state: TaskState;
  sourceType: SourceType;
  thread: TaskThread;
  /** Known once created (or from the start for a resume). */
  runId: number | null;
  orgId: number;
  trackingCommentId: number | null;
  reaction: TaskReactionTarget | null;
  /** The create body (CreateRunRequest) or the resume prompt. */
  request: { prompt: string; [key: string]: unknown };
  requestedBy: string | null;
  createdAt: number;
  startedAt: number | null;
  lastStatus: string | null;
  webUrl: string | null;
  progress: TraceProgress;
  /** The final run object (wire shape) once seen; kept so a restart can finish the report. */
  finalRun: Record<string, unknown> | null;
  /** The watch gave up at its deadline while the run was still going: the report says so (the engine's own state). */
  watchTimedOut: boolean;
  /** When the 👀 reaction and tracking comment were first attempted: a retry looks for a comment already posted. */
  acknowledgedAt: number | null;
  /** When the create or resume call was handed to the client (a crash in `sending` is reconciled from here). */
  sentAt: number | null;
  /** When the webhook that asked for it arrived (time to the first acknowledgement is measured from here). */
  receivedAt: number | null;
  /** The W3C trace context of the delivery that asked for it (tracing on): a job queued for it later continues that trace. */
  traceparent: string | null;
  nextPollAt: number;
  pollIntervalMs: number;
  /** When a sweep of the runs list last showed the run still going (null: never): while sweeps keep showing it, its own reads are progress only. */
  sweptAt: number | null;
  lastEditAt: number;
  deadlineAt: number;
  error: string | null;
  /** A held follow-up to send to its run while it works (`follow_up: interrupt`); null: sent when the run finishes. */
  interrupt: HeldInterrupt | null;
  /** On the task watching a run: the follow-ups that went to it while it worked, oldest first. */
  delivered: DeliveredMessage[];
  /** On the task watching a run: the service refused a follow-up while the run worked (the thread is told once). */
  interruptsRefused: boolean;
  updatedAt: number;
}

/** A pull request's head branch and the repository (`owner/name`) it lives in. */
export interface HeadBranchKey {
  repoFullName: string;
  branch: string;
}

export type ThreadId = Pick<TaskThread, "owner" | "repo" | "issueNumber">;

export type TaskPatch = Partial<Omit<Task, "id" | "createdAt" | "updatedAt">>;

export type NewTask = Pick<
  Task,
  "kind" | "state" | "sourceType" | "thread" | "runId" | "orgId" | "trackingCommentId" | "reaction" | "request" | "requestedBy"
> & {
  deadlineAt: number;
  receivedAt?: number | null;
  traceparent?: string | null;
  interrupt?: FollowUpInterrupt | null;
};

export type TaskOrder = "oldest" | "newest";

/** What a sweep of the runs list needs of a watched task, without reading it whole. */
export interface WatchedRun {
  taskId: number;
  runId: number;
  /** When its create (or resume) was sent, else when it was stored: the run was not created before. */
  sentAt: number;
  nextPollAt: number;
}

/** What the last completed delivery recovery sweep did (src/app/delivery-recovery.ts), for the next sweep and the status page. */
export interface DeliverySweep {
  startedAt: number;
  finishedAt: number;
  /** Deliveries whose attempts had all failed, seen since the previous sweep. */
  found: number;
  /** Of those, how many GitHub was asked to deliver again. */
  redelivered: number;
  /** The others, by reason (succeeded_later, unusable, already_stored, too_old, already_claimed, gave_up, request_failed). */
  skipped: Record<string, number>;
  /** False when the page limit stopped the listing before it reached the previous sweep. */
  complete: boolean;
}

/**
 * The store's epoch: written once, on the first call. A store that comes back empty (Redis restarted
 * without persistence, a failover to a replica that lagged, a FLUSHALL, a lost SQLite file) writes a
 * new one: `fresh` then says so, and the run recovery reads back further. Data written before stores
 * had an epoch (an upgrade: SQLite tasks without one, Redis keys moved from the earlier namespace)
 * gets 0, and is not fresh.
 */
export interface StoreEpoch {
  /** When this store's data began (epoch ms): comments written before it cannot have a task here unless recovery adopted them. */
  createdAt: number;
  /** True when this call wrote it on an empty store (new, or it lost its data). */
  fresh: boolean;
}

/** Spend-guard events are kept this long at least: the longest window is a day. */
export const EVENT_RETENTION_MS = 2 * 24 * 60 * 60_000;

/**
 * The App's durable state, behind one asynchronous interface with two backends: SQLite (embedded,
 * one process) and Redis (any number of replicas). Every method is atomic on its own; decisions that
 * span several calls for one thread hold that thread's lock (see ../locks.ts).
 */
export interface BridgeStore {
  /** True the first time a delivery id is seen; false for a redelivery. */
  markDelivery(deliveryId: string, event: string): Promise<boolean>;
  /** Forgets a delivery that could not be queued, so a redelivery is handled. */
  forgetDelivery(deliveryId: string): Promise<void>;
  /** Which of these delivery ids the App stored itself (through `markDelivery`, not forgotten since). */
  knownDeliveries(deliveryIds: readonly string[]): Promise<Set<string>>;
  /** True the first time this key (a delivery's GUID and its newest attempt's id) is claimed: one request per attempt per deployment. */
  claimRedelivery(key: string): Promise<boolean>;
  /** The last completed delivery recovery sweep, shared by every replica. */
  lastDeliverySweep(): Promise<DeliverySweep | null>;
  recordDeliverySweep(sweep: DeliverySweep): Promise<void>;
  /** True the first time a trigger key (e.g. a comment id, or repo + head SHA) is claimed. */
  claimTrigger(key: string): Promise<boolean>;
  /** Gives a claimed trigger key back after handling it failed before anything was stored. */
  releaseTrigger(key: string): Promise<void>;
  /**
   * True the first time an automation's run in a thread (`<repo id>:automation:<name>:<number>`) is
   * claimed. Never pruned, unlike trigger keys: an automation starts once per issue or pull request,
   * however long after the event comes again (a reopened issue, a draft marked ready twice). Also
   * `<repo id>:skipped-automations:<blob shas>`: invalid automations are told once per version of the file.
   */
  claimAutomation(key: string): Promise<boolean>;
  /** Gives an automation's claim back after handling it failed before anything was stored. */
  releaseAutomation(key: string): Promise<void>;
  /** Forget deliveries, trigger keys and finished tasks older than `olderThanMs` (GitHub redelivers for days). */
  prune(olderThanMs: number): Promise<void>;

  insertTask(task: NewTask): Promise<Task>;
  getTask(id: number): Promise<Task | null>;
  updateTask(id: number, patch: TaskPatch): Promise<Task>;
  /** Tasks in one of these states, oldest first (or newest first), at most `limit` (default: all). */
  listTasks(states: TaskState[], limit?: number, order?: TaskOrder): Promise<Task[]>;
  /** The ids of every task in one of these states, oldest first: what a start needs, without reading 1,000 tasks whole. */
  listTaskIds(states: TaskState[]): Promise<number[]>;
  /** Every watched task that has a run: what a sweep of the runs list looks for, for 1,000 watches without reading them whole. */
  listWatchedRuns(): Promise<WatchedRun[]>;
  /**
   * Notes that a sweep showed these tasks' runs still going at `at`; tasks no longer watched, or holding a final run
   * a sweep handed over (whose `sweptAt` dates that run), are left alone.
   */
  markSwept(taskIds: readonly number[], at: number): Promise<void>;
  /** The task of `runId` that is not finished (queued/sending/watching/reporting), if any. */
  activeTaskForRun(runId: number): Promise<Task | null>;
  /** The unfinished task whose tracking comment is in this thread, if any (its run id may not be known yet). */
  activeTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null>;
  /** The newest finished task with a run in this thread (what a follow-up there resumes). */
  lastFinishedTaskForThread(owner: string, repo: string, issueNumber: number): Promise<Task | null>;
  /** Follow-ups held for `runId`, or for this thread while its run id was not known yet; oldest first. */
  heldFor(runId: number, thread: ThreadId): Promise<Task[]>;
  countByState(): Promise<Partial<Record<TaskState, number>>>;

  /** The store's epoch, written by the first call (see StoreEpoch); every later call reads it. */
  epoch(): Promise<StoreEpoch>;
  /** Whether any task (in any state) has this run: a run the store knows is never adopted again by the run recovery. */
  knowsRun(runId: number): Promise<boolean>;

  /** The run's page as last seen by any of its tasks (a resume shows it before the service answers). */
  lastWebUrlForRun(runId: number): Promise<string | null>;

  /**
   * Head branches of PRs produced by runs in `owner/repo`, keyed by the repository the branch lives
   * in as well as its name (a fork may name a branch like the bot's), so a review or check failure
   * on one finds its run.
   */
  recordRunBranch(owner: string, repo: string, head: HeadBranchKey, runId: number, orgId: number): Promise<void>;
  runForBranch(owner: string, repo: string, head: HeadBranchKey): Promise<{ runId: number; orgId: number } | null>;

  /** Check-suite auto-fix bookkeeping per pull request; false when this head SHA was already recorded. */
  recordCheckAttempt(owner: string, repo: string, prNumber: number, headSha: string): Promise<boolean>;
  checkAttempts(owner: string, repo: string, prNumber: number): Promise<{ count: number; shas: string[] }>;

  /**
   * Spend guards' bookkeeping: one event (a run started or resumed) under each key, e.g. the thread's
   * and the repository's; `eventTimes` gives the times under a key since `since`, oldest first.
   * Kept at least two days; pruned with the rest.
   */
  recordEvent(keys: readonly string[], at: number): Promise<void>;
  eventTimes(key: string, since: number): Promise<number[]>;

  /** Resolves when the backend answers (the readiness probe); rejects with its error otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

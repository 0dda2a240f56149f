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
export type TaskKind = "create" | "resume";

export interface ThreadRef {
  installationId: number | null;
  owner: string;
  repo: string;
  /** Issue or pull request number whose conversation holds the tracking comment. */
  issueNumber: number;
  /** The repository's trigger phrase, so rendered agent output cannot re-trigger the bot. */
  triggerPhrase?: string;
}

export interface ReactionTarget {
  kind: "issue_comment" | "review_comment" | "issue" | "review";
  id: number;
}

/** What is needed to (re)build the progress view and the result digest without refetching all logs. */
export interface TraceProgress {
  logsSeen: number;
  currentStep: string | null;
  errors: string[];
  lastSteps: string[];
  finalAnswer: string | null;
}

export interface Task {
  id: number;
  kind: TaskKind;
  state: TaskState;
  sourceType: SourceType;
  thread: ThreadRef;
  /** Known once created (or from the start for a resume). */
  runId: number | null;
  orgId: number;
  trackingCommentId: number | null;
  reaction: ReactionTarget | null;
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
  nextPollAt: number;
  pollIntervalMs: number;
  lastEditAt: number;
  deadlineAt: number;
  error: string | null;
  updatedAt: number;
}

export type NewTask = Pick<Task, "kind" | "state" | "sourceType" | "thread" | "runId" | "orgId" | "trackingCommentId" | "reaction" | "request" | "requestedBy"> & {
  deadlineAt: number;
};

export interface BridgeStore {
  /** True the first time a delivery id is seen; false for a redelivery. */
  markDelivery(deliveryId: string, event: string): boolean;
  /** Forgets a delivery whose handling failed before anything was stored, so a redelivery is handled. */
  forgetDelivery(deliveryId: string): void;
  /** True the first time a trigger key (e.g. a comment id, or repo + head SHA) is claimed. */
  claimTrigger(key: string): boolean;
  /** Gives a claimed trigger key back after handling it failed before anything was stored. */
  releaseTrigger(key: string): void;
  /** Forget deliveries and trigger keys older than `olderThanMs` (GitHub redelivers for days). */
  prune(olderThanMs: number): void;

  insertTask(task: NewTask): Task;
  getTask(id: number): Task | null;
  updateTask(id: number, patch: Partial<Omit<Task, "id" | "createdAt">>): Task;
  /** Tasks in one of these states, oldest first. */
  listTasks(states: TaskState[]): Task[];
  /** The task of `runId` that is not finished (queued/sending/watching/reporting), if any. */
  activeTaskForRun(runId: number): Task | null;
  /** The unfinished task whose tracking comment is in this thread, if any (its run id may not be known yet). */
  activeTaskForThread(owner: string, repo: string, issueNumber: number): Task | null;
  /** The newest finished task with a run in this thread (what a follow-up there resumes). */
  lastFinishedTaskForThread(owner: string, repo: string, issueNumber: number): Task | null;
  /** Follow-ups held for `runId`, or for this thread while its run id was not known yet; oldest first. */
  heldFor(runId: number, thread: Pick<Task["thread"], "owner" | "repo" | "issueNumber">): Task[];
  countByState(): Partial<Record<TaskState, number>>;
  /** Tasks in these states whose `nextPollAt` has come, most overdue first, at most `limit`. */
  dueTasks(states: TaskState[], now: number, limit: number): Task[];
  /** The earliest `nextPollAt` among tasks in these states, or null. */
  nextDueAt(states: TaskState[]): number | null;

  /** The run's page as last seen by any of its tasks (a resume shows it before the service answers). */
  lastWebUrlForRun(runId: number): string | null;

  /** Head branches of PRs produced by runs, so a review or check failure on one finds its run. */
  recordRunBranch(owner: string, repo: string, branch: string, runId: number, orgId: number): void;
  runForBranch(owner: string, repo: string, branch: string): { runId: number; orgId: number } | null;

  /** Check-suite auto-fix bookkeeping per pull request. */
  recordCheckAttempt(owner: string, repo: string, prNumber: number, headSha: string): boolean;
  checkAttempts(owner: string, repo: string, prNumber: number): { count: number; shas: string[] };

  close(): void;
}

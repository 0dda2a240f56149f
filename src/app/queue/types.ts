/**
 * The App's durable work queue: every webhook is stored here before it is answered, and every step
 * of every task (acknowledge, send, poll, report) runs as a job taken from here. Two backends share
 * this interface: SQLite in the embedded default (one process), BullMQ on Redis for replicas.
 *
 * Retries are the queue's, not the backend's: a job that throws is run again after an exponential
 * backoff, and after `maxAttempts` failures in a row the processor's `onFailed` ends it with the one
 * reply the thread needs. A job that asks to run `later` (the next poll) starts its count afresh.
 */
export type JobName = "delivery" | "task";

/** A webhook as it arrived: enough to rebuild Probot's context in a worker. */
export interface DeliveryJobData {
  deliveryId: string;
  event: string;
  payload: unknown;
  installationId: number | null;
  receivedAt: number;
  /** The W3C trace context of the delivery's trace (tracing on), continued by whichever replica takes the job. */
  traceparent?: string;
}

export interface TaskJobData {
  taskId: number;
  /** As on a delivery's job: the trace of the delivery that asked for the task. */
  traceparent?: string;
  /**
   * Set on the one job that acknowledges a follow-up held behind a run (heldAcknowledgementJobId):
   * it does only that. The task's own job (taskJobId) is queued when its run releases it.
   */
  step?: "acknowledge_held";
}

export type JobSpec =
  | { id: string; name: "delivery"; data: DeliveryJobData; delayMs?: number }
  | { id: string; name: "task"; data: TaskJobData; delayMs?: number };

export type QueuedJob = JobSpec & {
  /** 1 for the first run; grows only with failures in a row. */
  attempt: number;
};

export type JobOutcome = { kind: "done" } | { kind: "later"; delayMs: number };

export interface JobProcessor {
  process(job: QueuedJob): Promise<JobOutcome>;
  /** The job failed `maxAttempts` times in a row: it is dropped after this. */
  onFailed(job: QueuedJob, error: unknown): Promise<void>;
}

interface JobCounts {
  /** Due now, not yet taken. */
  waiting: number;
  /** Scheduled for later (the next poll of a watched run, a retry after a failure). */
  delayed: number;
  /** Being processed by this or another replica. */
  active: number;
}

export type QueueCounts = Record<JobName, JobCounts>;

export const JOB_NAMES: readonly JobName[] = ["delivery", "task"];

export interface RetryPolicy {
  maxAttempts: number;
  /** First retry after this long; doubles each time, with ±20% jitter, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 2_000, maxDelayMs: 5 * 60_000 };

export function retryDelay(policy: RetryPolicy, attempt: number): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

export interface WorkQueue {
  /** Stores a job durably; a job whose id is still queued (waiting, delayed or active) is not added twice. */
  add(job: JobSpec): Promise<void>;
  /** Runs a delayed job now (a nudge); nothing happens when it is absent or already running. */
  promote(id: string): Promise<void>;
  /** Starts taking jobs. */
  start(processor: JobProcessor): void;
  /** Stops taking jobs and waits for the ones in progress. */
  stop(): Promise<void>;
  counts(): Promise<QueueCounts>;
  /** Resolves when the backend answers; rejects otherwise (the readiness probe). */
  ping(): Promise<void>;
}

export const deliveryJobId = (deliveryId: string) => `delivery-${deliveryId}`;
export const taskJobId = (taskId: number) => `task-${taskId}`;
/**
 * A held follow-up's acknowledgement runs under its own id, never under the task's: a release that
 * queues the task's job while that acknowledgement is still running must add a job, and a queue
 * adds nothing under an id whose job is running (the release would be lost with it).
 */
export const heldAcknowledgementJobId = (taskId: number) => `task-${taskId}-held`;

import { DelayedError, Queue, Worker, type ConnectionOptions, type Job } from "bullmq";
import { DEFAULT_RETRY, JOB_NAMES, retryDelay } from "./types.js";
import type { JobName, JobProcessor, JobSpec, QueueCounts, QueuedJob, RetryPolicy, WorkQueue } from "./types.js";

export interface BullQueueOptions {
  /** ioredis connection options; BullMQ opens its own connections from them. */
  connection: ConnectionOptions;
  /** Key prefix in Redis (one per App deployment). */
  prefix: string;
  /** Jobs of each kind this replica processes at once. */
  concurrency?: Partial<Record<JobName, number>>;
  /**
   * How long a replica's hold on a job lasts without renewal (BullMQ renews it every half while the
   * replica lives). A replica killed mid-step loses its jobs to the others after at most this plus
   * `stalledIntervalMs`.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  retry?: Partial<RetryPolicy>;
}

type StoredData = JobSpec["data"] & { attempt?: number };

/** Per replica. Task steps may wait for a paced GitHub write or the service's budget while active: they need room. */
const DEFAULT_CONCURRENCY: Record<JobName, number> = { delivery: 20, task: 200 };

/**
 * The distributed queue, on BullMQ: one queue per kind of job (deliveries, task steps), and every
 * replica runs a Worker on each. A step that asks to run later is moved back to the delayed set
 * under the same job id, so each task has exactly one job and each watched run is polled by one
 * replica at a time. Retries are counted in the job's data (BullMQ's own attempts never reset), so
 * a watch that once failed is not a step closer to giving up.
 */
export class BullWorkQueue implements WorkQueue {
  private readonly queues: Record<JobName, Queue>;
  private workers: Worker[] = [];
  private readonly retry: RetryPolicy;

  constructor(private readonly options: BullQueueOptions) {
    const open = (name: JobName) => new Queue(name, { connection: options.connection, prefix: options.prefix });
    this.queues = { delivery: open("delivery"), task: open("task") };
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async add(job: JobSpec): Promise<void> {
    await this.queues[job.name].add(job.name, job.data, {
      jobId: job.id,
      ...(job.delayMs ? { delay: Math.max(0, Math.round(job.delayMs)) } : {}),
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async promote(id: string): Promise<void> {
    for (const queue of Object.values(this.queues)) {
      const job = await queue.getJob(id);
      if (!job || !(await job.isDelayed())) continue;
      // Taken or promoted by another replica in between: nothing to do.
      await job.promote().catch(() => undefined);
    }
  }

  start(processor: JobProcessor): void {
    if (this.workers.length > 0) return;
    for (const name of JOB_NAMES) {
      const worker = new Worker(name, (job: Job<StoredData>, token?: string) => this.run(processor, name, job, token), {
        connection: this.options.connection,
        prefix: this.options.prefix,
        concurrency: this.options.concurrency?.[name] ?? DEFAULT_CONCURRENCY[name],
        lockDuration: this.options.lockDurationMs ?? 10_000,
        stalledInterval: this.options.stalledIntervalMs ?? 5_000,
        // A job taken back from a dead replica is never failed for it: its step knows how to resume.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      // Connection trouble is reported by the readiness probe; BullMQ reconnects by itself.
      worker.on("error", () => undefined);
      this.workers.push(worker);
    }
  }

  private async run(processor: JobProcessor, name: JobName, job: Job<StoredData>, token: string | undefined): Promise<void> {
    const { attempt = 1, ...data } = job.data;
    const queued = { id: job.id!, name, data, attempt } as QueuedJob;
    let next: { delayMs: number; attempt: number } | null;
    try {
      const outcome = await processor.process(queued);
      next = outcome.kind === "done" ? null : { delayMs: outcome.delayMs, attempt: 1 };
    } catch (error) {
      if (attempt >= this.retry.maxAttempts) {
        await processor.onFailed(queued, error).catch(() => undefined);
        return;
      }
      next = { delayMs: retryDelay(this.retry, attempt), attempt: attempt + 1 };
    }
    if (next === null) return;
    if (next.attempt !== attempt) await job.updateData({ ...data, attempt: next.attempt } as StoredData);
    await job.moveToDelayed(Date.now() + Math.max(1, Math.round(next.delayMs)), token);
    throw new DelayedError();
  }

  async stop(): Promise<void> {
    // A connection closed while BullMQ still initialises it rejects that init's commands with no one
    // awaiting them ("Connection is closed", unhandled): let them finish first, but never wait on a
    // Redis that is down.
    await settleWithin(
      2_000,
      [...this.workers, ...Object.values(this.queues)].map((part) => part.waitUntilReady()),
    );
    await Promise.all(this.workers.map((worker) => worker.close()));
    this.workers = [];
    await Promise.all(Object.values(this.queues).map((queue) => queue.close()));
  }

  async counts(): Promise<QueueCounts> {
    const read = async (queue: Queue) => {
      const c = await queue.getJobCounts("wait", "prioritized", "delayed", "active");
      return { waiting: (c.wait ?? 0) + (c.prioritized ?? 0), delayed: c.delayed ?? 0, active: c.active ?? 0 };
    };
    const [delivery, task] = await Promise.all([read(this.queues.delivery), read(this.queues.task)]);
    return { delivery, task };
  }

  async ping(): Promise<void> {
    // BullMQ's client is an ioredis instance; its interface type leaves PING out.
    const client = (await this.queues.task.client) as unknown as { ping(): Promise<string> };
    await client.ping();
  }
}

async function settleWithin(ms: number, promises: Promise<unknown>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([Promise.allSettled(promises), deadline]);
  clearTimeout(timer);
}

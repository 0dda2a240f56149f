import { DelayedError, Queue, Worker, type ConnectionOptions, type Job } from "bullmq";
import { DEFAULT_RETRY, retryDelay, type JobProcessor, type JobSpec, type QueueCounts, type QueuedJob, type RetryPolicy, type WorkQueue } from "./types.js";

/** Deliveries before task steps (BullMQ: a lower number is served first; 0 means "no priority"). */
const PRIORITY: Record<JobSpec["name"], number> = { delivery: 1, task: 2 };

export interface BullQueueOptions {
  /** ioredis options or a URL-derived connection; BullMQ opens its own connections from it. */
  connection: ConnectionOptions;
  /** Key prefix in Redis (one per App deployment). */
  prefix: string;
  /** Jobs this replica processes at once. */
  concurrency?: number;
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

/**
 * The distributed queue, on BullMQ: every replica runs a Worker on one Redis queue. A step that asks
 * to run later is moved back to the delayed set under the same job id, so each task has exactly one
 * job and each watched run is polled by one replica at a time. Retries are counted in the job's data
 * (BullMQ's own attempts never reset), so a watch that once failed is not a step closer to giving up.
 */
export class BullWorkQueue implements WorkQueue {
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly retry: RetryPolicy;

  constructor(private readonly options: BullQueueOptions) {
    this.queue = new Queue("work", { connection: options.connection, prefix: options.prefix });
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  async add(job: JobSpec): Promise<void> {
    await this.queue.add(job.name, job.data, {
      jobId: job.id,
      priority: PRIORITY[job.name],
      ...(job.delayMs ? { delay: Math.max(0, Math.round(job.delayMs)) } : {}),
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async promote(id: string): Promise<void> {
    const job = await this.queue.getJob(id);
    if (!job || !(await job.isDelayed())) return;
    // Taken or promoted by another replica in between: nothing to do.
    await job.promote().catch(() => undefined);
  }

  start(processor: JobProcessor): void {
    if (this.worker) return;
    this.worker = new Worker(
      "work",
      async (job: Job<StoredData>, token?: string) => {
        const { attempt = 1, ...data } = job.data;
        const queued = { id: job.id!, name: job.name, data, attempt } as QueuedJob;
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
      },
      {
        connection: this.options.connection,
        prefix: this.options.prefix,
        concurrency: this.options.concurrency ?? 50,
        lockDuration: this.options.lockDurationMs ?? 10_000,
        stalledInterval: this.options.stalledIntervalMs ?? 5_000,
        // A job taken back from a dead replica is never failed for it: its step knows how to resume.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      },
    );
    // Connection trouble is reported by the readiness probe; BullMQ reconnects by itself.
    this.worker.on("error", () => undefined);
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    this.worker = null;
    await this.queue.close();
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts("wait", "prioritized", "delayed", "active", "waiting-children");
    return { waiting: (c.wait ?? 0) + (c.prioritized ?? 0), delayed: c.delayed ?? 0, active: c.active ?? 0 };
  }

  async ping(): Promise<void> {
    // BullMQ's client is an ioredis instance; its interface type leaves PING out.
    const client = (await this.queue.client) as unknown as { ping(): Promise<string> };
    await client.ping();
  }
}

/**
 * An installation's lane in this process: its writes waiting by priority, first come first served
 * within one, and the state of its turn (a write under way, a timer for the next, a shared hold).
 */
import { WRITE_PRIORITIES, type WriteOutcome, type WritePriority } from "./types.js";

/** A scheduled write, from `schedule()` until it settles. */
export interface Pending {
  readonly installationId: number | null;
  readonly priority: WritePriority;
  readonly write: () => Promise<unknown>;
  readonly supersedeKey: string | undefined;
  readonly staleAt: number | undefined;
  readonly scheduledAt: number;
  attempts: number;
  staleTimer?: NodeJS.Timeout;
  resolve(outcome: WriteOutcome<unknown>): void;
  reject(error: unknown): void;
}

export class Lane {
  readonly queues: Record<WritePriority, Pending[]> = { acknowledge: [], result: [], courtesy: [], progress: [], outsider: [] };
  /** A take or a write is under way: one write at a time per installation and process (GitHub's advice). */
  busy = false;
  timer?: NodeJS.Timeout;
  /** The member of the Redis hold this process took for the write under way. */
  heldAs?: string;

  constructor(readonly key: string) {}

  /** The lane of an installation (or of writes made without one). */
  static keyOf(installationId: number | null): string {
    return installationId === null ? "none" : String(installationId);
  }

  /** Writes queued and not yet started. */
  get queued(): number {
    return WRITE_PRIORITIES.reduce((sum, priority) => sum + this.queues[priority].length, 0);
  }

  /** Takes a write out of its queue (it starts, or is dropped); false when it was no longer there. */
  remove(pending: Pending): boolean {
    const queue = this.queues[pending.priority];
    const index = queue.indexOf(pending);
    if (index < 0) return false;
    queue.splice(index, 1);
    return true;
  }

  /** Every queued write, in priority order, taken out of the lane. */
  drain(): Pending[] {
    return WRITE_PRIORITIES.flatMap((priority) => this.queues[priority].splice(0));
  }
}

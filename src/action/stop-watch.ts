/**
 * The watching side of `/agent stop` in the Action. The stop arrives in another job (a new
 * workflow run for the stop comment), which has no way to reach this one but the thread: it turns
 * this step's tracking comment into its final "stopped" state. This step looks at its own
 * comment every few seconds while it waits, and right before it would write progress, send a
 * follow-up or post a result; once the comment says stopped, it ends without writing again.
 */
import { isTrustedMarkerComment, type BotIdentity } from "../core/markers/trust.js";
import { parseMarker } from "../core/markers/read.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { getComment } from "../github/comments.js";
import type { PollSchedule } from "./runs.js";

/** Looks at the comment often enough to stop within a poll or two, never more than every 15 s by default. */
export function stopCheckIntervalMs(poll: PollSchedule): number {
  return Math.max(poll.initial, Math.min(poll.max, 15_000));
}

export class StopWatch {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private found = false;
  private warned = false;

  constructor(
    private readonly octokit: GitHubClient,
    private readonly repo: RepoRef,
    /** The step's tracking comment, once posted. */
    private readonly commentId: () => number | null,
    private readonly self: BotIdentity,
    private readonly intervalMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Aborted once the stop is seen: pass it to the watch so that it ends at once. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): boolean {
    return this.found;
  }

  /** Starts looking every `intervalMs` until `close()`. */
  start(): this {
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.check().then((stopped) => {
          if (!stopped && this.timer !== null) tick();
        });
      }, this.intervalMs);
      this.timer.unref();
    };
    tick();
    return this;
  }

  /** Whether the tracking comment is now in the stopped state (read now). A failed read counts as not stopped. */
  async check(): Promise<boolean> {
    if (this.found) return true;
    const id = this.commentId();
    if (id === null) return false;
    try {
      const comment = await getComment(this.octokit, this.repo, id);
      const asMarked = comment && { id: comment.id, body: comment.body, user: { login: comment.author.login, type: comment.author.type } };
      if (asMarked && isTrustedMarkerComment(asMarked, this.self) && parseMarker(asMarked.body)?.outcome === "stopped") {
        this.found = true;
        this.controller.abort(new Error("stopped from the thread"));
      }
    } catch (error) {
      if (!this.warned) this.warn(`Could not read the tracking comment to see whether the run was stopped: ${(error as Error).message}`);
      this.warned = true;
    }
    return this.found;
  }

  close(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

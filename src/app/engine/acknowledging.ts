/**
 * The first thing a person sees after a trigger: the 👀 on it and the tracking comment, each written
 * once even across a crash; and for a follow-up held behind a run, the 👀 and one more "queued" on
 * the run's tracking comment.
 */
import { reactionForPhase } from "../../core/render/reactions.js";
import { GitHubInputError, GitHubNotFoundError, GitHubPermissionError, GitHubValidationError } from "../../github/errors.js";
import { BRIDGE_METADATA_KEYS } from "../../service/wire.js";
import { taskJobId, type JobOutcome } from "../queue/types.js";
import type { Task } from "../store/types.js";
import { renderTaskTracking, trackingRequestId } from "../views.js";
import { DONE, type EngineContext } from "./context.js";
import type { ThreadOutput } from "./thread-output.js";

/** GitHub will never accept this write (no permission, locked or deleted thread, invalid body): go on without it. */
function isPermanentGitHubError(error: unknown): boolean {
  return (
    error instanceof GitHubPermissionError ||
    error instanceof GitHubNotFoundError ||
    error instanceof GitHubValidationError ||
    error instanceof GitHubInputError
  );
}

export class Acknowledger {
  constructor(
    private readonly context: EngineContext,
    private readonly output: ThreadOutput,
  ) {}

  /**
   * 👀 on the trigger and the tracking comment, exactly once even when a crash cut the last try short.
   * The 👀 is a courtesy: it goes first when the installation's writes are idle, but in a burst it
   * waits behind every thread's tracking comment and is dropped once stale, so that each thread
   * costs its installation one write before it is acknowledged, not two.
   */
  async acknowledge(task: Task): Promise<Task> {
    if (task.trackingCommentId !== null) return task;
    const { store, writer, log } = this.context;
    let commentId: number | null = null;
    let noted = false;
    const noteOnce = (acknowledged: Task) => {
      if (noted) return;
      noted = true;
      this.noteAcknowledged(acknowledged);
    };
    let eyes: Promise<unknown> = Promise.resolve();
    if (task.acknowledgedAt !== null) {
      // A previous try may have posted the comment before it could store its id: find it by its marker.
      commentId = await writer.findOwnComment(task.thread, trackingRequestId(task));
    } else {
      task = await store.updateTask(task.id, { acknowledgedAt: this.context.now() });
      const seen = task;
      // Reviews take no reactions: their first acknowledgement is the tracking comment.
      eyes = this.output.react(task, reactionForPhase("triggered"), "courtesy").then((shown) => shown && noteOnce(seen));
    }
    if (commentId === null) {
      const body = await this.trackingBody(task);
      try {
        commentId = await writer.createComment(task.thread, body, { priority: "acknowledge" });
        noteOnce(task);
      } catch (error) {
        if (!isPermanentGitHubError(error)) throw error;
        // The run still goes ahead; its result is posted as a new comment if GitHub takes it then.
        log.error({ err: error, taskId: task.id }, "could not post the tracking comment");
        await eyes;
        return task;
      }
    }
    await eyes;
    const request =
      task.kind === "create"
        ? {
            ...task.request,
            metadata: { ...((task.request.metadata as object | undefined) ?? {}), [BRIDGE_METADATA_KEYS.statusCommentId]: commentId },
          }
        : task.request;
    return store.updateTask(task.id, { trackingCommentId: commentId, request });
  }

  /** A follow-up held behind a run: 👀 now, and the run's tracking comment says one more is queued. */
  async acknowledgeHeld(task: Task): Promise<JobOutcome> {
    const { store } = this.context;
    if (task.acknowledgedAt === null) {
      await store.updateTask(task.id, { acknowledgedAt: this.context.now() });
      await this.output.react(task, reactionForPhase("triggered"), "acknowledge");
      this.noteAcknowledged(task);
    }
    const active =
      task.runId !== null
        ? await store.activeTaskForRun(task.runId)
        : await store.activeTaskForThread(task.thread.owner, task.thread.repo, task.thread.issueNumber);
    // Runs the run's next step now, so its tracking comment shows the new follow-up.
    if (active) await this.context.queue.promote(taskJobId(active.id));
    return DONE;
  }

  /** The first tracking comment: starting, resuming, or queued behind the service's create budget. */
  private async trackingBody(task: Task): Promise<string> {
    const counts = await this.context.store.countByState();
    const waitsForBudget = task.kind === "create" && this.context.client.budget.busy("create");
    const phase = task.kind === "resume" ? "resuming" : waitsForBudget ? "queued" : "starting";
    const held = await this.output.heldCount(task);
    return renderTaskTracking(task, {
      phase,
      heldFollowUps: held,
      now: this.context.now(),
      ...(phase === "queued" ? { queuePosition: Math.max(1, (counts.queued ?? 1) + (counts.sending ?? 0)) } : {}),
    });
  }

  private noteAcknowledged(task: Task): void {
    if (task.receivedAt !== null) this.context.observer.acknowledged(task, Math.max(0, this.context.now() - task.receivedAt));
  }
}

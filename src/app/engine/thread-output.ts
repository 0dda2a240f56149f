/**
 * What the engine shows in a thread: the tracking comment kept current (edited only when a reader
 * would see a difference), final words written over it, and the reactions on the trigger.
 */
import type { ReactionContent } from "../../core/render/reactions.js";
import type { Task } from "../store/types.js";
import { commentSupersedeKey, type CommentBody, type WritePriority } from "../thread-writer.js";
import { renderTaskTracking } from "../views.js";
import type { EngineContext } from "./context.js";

/** A body without its elapsed-time counter: "working · 3s so far" and "· 4s so far" read the same. */
function visibleText(body: string): string {
  return body.replace(/·\s*[\dhdms ]+ so far/g, "");
}

export class ThreadOutput {
  /** Last progress text written per task and the follow-ups it showed (per process: another replica just edits once more). */
  private readonly shown = new Map<number, { body: string; followUps: string }>();

  constructor(private readonly context: EngineContext) {}

  /** What the tracking comment shows of the follow-ups: held, delivered to the working agent, refused. */
  followUpsView(task: Pick<Task, "delivered" | "interruptsRefused">, held: number): string {
    return `${held}/${task.delivered.length}/${task.interruptsRefused}`;
  }

  /** The follow-ups view the tracking comment of this task last showed, as far as this process knows (none: no follow-ups). */
  followUpsShown(taskId: number): string {
    return this.shown.get(taskId)?.followUps ?? this.followUpsView({ delivered: [], interruptsRefused: false }, 0);
  }

  /** The task ended: its tracking comment will not be edited by this process again. */
  forget(taskId: number): void {
    this.shown.delete(taskId);
  }

  /** Follow-ups held until the task's run finishes (behind the thread, before the run exists); not those on their way to the working agent. */
  async heldCount(task: Task): Promise<number> {
    const held = await this.context.store.heldFor(task.runId ?? -1, task.thread);
    return held.filter((t) => t.interrupt === null).length;
  }

  async editTracking(task: Task, priority: WritePriority, held?: number): Promise<void> {
    if (task.trackingCommentId === null) return;
    // Read again: a stop (or another replica's report) may have given the comment its final words meanwhile.
    const fresh = await this.context.store.getTask(task.id);
    if (!fresh || !["queued", "sending", "watching"].includes(fresh.state)) return;
    const heldFollowUps = held ?? (await this.heldCount(fresh));
    const body = renderTaskTracking(fresh, { phase: "running", heldFollowUps, now: this.context.now() });
    // An edit that changes nothing a reader sees still costs a write against GitHub's limits.
    if (this.shown.get(task.id)?.body === visibleText(body)) return;
    this.shown.set(task.id, { body: visibleText(body), followUps: this.followUpsView(fresh, heldFollowUps) });
    const options = {
      priority,
      supersedeKey: commentSupersedeKey(task.thread, task.trackingCommentId),
      ...(priority === "progress" ? { maxWaitMs: this.context.settings.editIntervalMs } : {}),
    };
    await this.context.writer.updateComment(task.thread, task.trackingCommentId, body, options).catch((error: unknown) => {
      this.context.log.warn({ taskId: task.id, err: error }, "could not update the tracking comment");
    });
  }

  /** Edits the tracking comment; if it is gone (deleted), posts the body as a new comment once. */
  async writeOrPost(task: Task, body: CommentBody, priority: WritePriority): Promise<void> {
    const { writer, store } = this.context;
    if (task.trackingCommentId !== null) {
      const outcome = await writer.updateComment(task.thread, task.trackingCommentId, body, {
        priority,
        supersedeKey: commentSupersedeKey(task.thread, task.trackingCommentId),
      });
      if (outcome !== "missing") return;
    }
    const id = await writer.createComment(task.thread, body, { priority });
    await store.updateTask(task.id, { trackingCommentId: id });
  }

  /** True when the reaction is on the trigger now. A courtesy waits at most `courtesyWaitMs` for its turn. */
  async react(task: Task, content: ReactionContent | null, priority: WritePriority): Promise<boolean> {
    if (!content || !task.reaction) return false;
    const options = { priority, ...(priority === "courtesy" ? { maxWaitMs: this.context.settings.courtesyWaitMs } : {}) };
    return this.context.writer.react(task.thread, task.reaction, content, options).catch((error: unknown) => {
      this.context.log.warn({ taskId: task.id, err: error }, "could not add the reaction");
      return false;
    });
  }
}

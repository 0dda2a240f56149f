/**
 * `/agent stop`, carried out by the engine like any other step of a thread: under the thread's lock
 * the thread's task and the follow-ups held behind it end in the store (so no replica watches,
 * reports or resumes them again); then, through the thread writer, the open tracking comments take
 * their stopped state, the stop gets 👍 and the reply. Nothing running is not an error: the reply
 * says so. The decision (who may stop, which comments are open, what they become) is flows/stop.ts's.
 */
import type { StopRequest } from "../../core/detect/triggers.js";
import { reactionForPhase } from "../../core/render/reactions.js";
import { renderStopReply } from "../../core/stop.js";
import type { PreparedStop } from "../../flows/stop.js";
import type { Task, TaskThread } from "../store/types.js";
import { underThreadLock, type EngineContext } from "./context.js";

/** What the stop ended in the store: the thread's task (if one was unfinished) and how many held follow-ups were dropped. */
interface EndedTasks {
  active: Task | null;
  dropped: number;
}

/** What a stop came to, for the caller's log. */
export type StopOutcome = { kind: "refused" } | { kind: "stopped"; taskId: number | null; droppedFollowUps: number };

export class Stopper {
  constructor(private readonly context: EngineContext) {}

  async stop(thread: TaskThread, request: StopRequest, prepared: PreparedStop): Promise<StopOutcome> {
    const { writer } = this.context;
    if (prepared.action === "refuse") {
      await writer.createComment(thread, prepared.body, { priority: "acknowledge" });
      return { kind: "refused" };
    }
    const ended = await this.endThreadTasks(thread, request.actor.login);
    for (const edit of prepared.edits) {
      await writer.updateComment(thread, edit.commentId, edit.body, { priority: "acknowledge" });
    }
    const thumbsUp = reactionForPhase("stop_accepted");
    if (prepared.reaction && thumbsUp) await writer.react(thread, prepared.reaction, thumbsUp, { priority: "acknowledge" });
    await writer.createComment(thread, this.replyFor(prepared, ended, request, thread), { priority: "acknowledge" });
    return { kind: "stopped", taskId: ended.active?.id ?? null, droppedFollowUps: ended.dropped };
  }

  /** Under the thread's lock (no run starts in the thread meanwhile): the thread's unfinished task and the follow-ups held behind it end. */
  private endThreadTasks(thread: TaskThread, actorLogin: string): Promise<EndedTasks> {
    const { store } = this.context;
    return underThreadLock(this.context, thread, async () => {
      const stoppedBy = `stopped by @${actorLogin}`;
      const active = await store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber);
      if (active) await store.updateTask(active.id, { state: "done", error: stoppedBy });
      const held = await store.heldFor(active?.runId ?? -1, thread);
      for (const h of held) await store.updateTask(h.id, { state: "done", error: `dropped: ${stoppedBy}` });
      return { active, dropped: held.length };
    });
  }

  /**
   * The reply to the stop. The App's held follow-ups have no comment of their own (the run's comment
   * counts them): when the store ended anything, the reply counts from the store.
   */
  private replyFor(
    prepared: Extract<PreparedStop, { action: "stop" }>,
    { active, dropped }: EndedTasks,
    request: StopRequest,
    thread: TaskThread,
  ): string {
    if (active === null && dropped === 0) return prepared.reply;
    return renderStopReply({
      stoppedBy: request.actor.login,
      stopped: { runId: active?.runId ?? null, webUrl: active?.webUrl ?? null },
      droppedFollowUps: Math.max(dropped, prepared.edits.filter((e) => e.role === "follow_up").length),
      deliveredFollowUps: active?.delivered.length ?? 0,
      pullRequest: request.thread.kind === "pull_request",
      triggerPhrase: thread.triggerPhrase ?? "/agent",
    });
  }
}

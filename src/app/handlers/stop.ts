/**
 * `/agent stop` in the App: the shared flow decides (permission, the thread's open tracking
 * comments and their stopped bodies, the reply); here, under the thread's lock, the thread's task
 * and the follow-ups held behind it end in the store, so no replica watches, reports or resumes
 * them again; then the comments become their stopped state, the stop gets 👍 and the reply.
 * Nothing running is not an error: the reply says so.
 */
import type { RepoConfig } from "../../config/schema.js";
import { reactionForPhase } from "../../core/render/reactions.js";
import { renderStopReply, type StopRequest } from "../../core/stop.js";
import { prepareStop, type PreparedStop } from "../../flows/stop.js";
import type { GitHubClient } from "../../github/client.js";
import { threadLockKey } from "../engine.js";
import type { Task, TaskThread } from "../store/types.js";
import { selfOf, type AppDependencies } from "./types.js";

/** What the stop ended in the store: the thread's task (if one was unfinished) and how many held follow-ups were dropped. */
interface EndedTasks {
  active: Task | null;
  dropped: number;
}

/**
 * Under the thread's lock (no run starts in the thread meanwhile): the thread's unfinished task ends
 * in the store, and so do the follow-ups held behind it, so no replica watches, reports or resumes them again.
 */
async function endThreadTasks(thread: TaskThread, actorLogin: string, deps: AppDependencies): Promise<EndedTasks> {
  const section = await deps.locks.withLock(threadLockKey(thread), async () => {
    const stoppedBy = `stopped by @${actorLogin}`;
    const active = await deps.store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber);
    if (active) await deps.store.updateTask(active.id, { state: "done", error: stoppedBy });
    const held = await deps.store.heldFor(active?.runId ?? -1, thread);
    for (const h of held) await deps.store.updateTask(h.id, { state: "done", error: `dropped: ${stoppedBy}` });
    return { active, dropped: held.length };
  });
  if (section === null) throw new Error(`the lock of ${threadLockKey(thread)} stayed busy; the stop is retried`);
  return section.value;
}

/**
 * The reply to the stop. The App's held follow-ups have no comment of their own (the run's comment
 * counts them): when the store ended anything, the reply counts from the store.
 */
function stopReplyFor(
  prepared: Extract<PreparedStop, { action: "stop" }>,
  { active, dropped }: EndedTasks,
  request: StopRequest,
  triggerPhrase: string,
): string {
  if (active === null && dropped === 0) return prepared.reply;
  return renderStopReply({
    stoppedBy: request.actor.login,
    stopped: { runId: active?.runId ?? null, webUrl: active?.webUrl ?? null },
    droppedFollowUps: Math.max(dropped, prepared.edits.filter((e) => e.role === "follow_up").length),
    deliveredFollowUps: active?.delivered.length ?? 0,
    pullRequest: request.thread.kind === "pull_request",
    triggerPhrase,
  });
}

export async function handleStop(input: {
  request: StopRequest;
  config: RepoConfig;
  octokit: GitHubClient;
  installationId: number | null;
  deps: AppDependencies;
}): Promise<void> {
  const { request, deps } = input;
  const log = deps.log;
  const thread: TaskThread = {
    installationId: input.installationId,
    owner: request.repo.owner,
    repo: request.repo.name,
    issueNumber: request.thread.number,
    triggerPhrase: input.config.trigger_phrase,
  };
  const claimKey = `${request.repo.id}:${request.dedupeKey}`;
  if (!(await deps.store.claimTrigger(claimKey))) {
    log.info({ key: request.dedupeKey }, "this stop was already handled");
    return;
  }
  try {
    const prepared = await prepareStop({ octokit: input.octokit, request, config: input.config, self: selfOf(deps), client: deps.client });
    if (prepared.action === "refuse") {
      await deps.writer.createComment(thread, prepared.body, { priority: "acknowledge" });
      deps.observer?.refused("permission");
      return;
    }
    const ended = await endThreadTasks(thread, request.actor.login, deps);
    for (const edit of prepared.edits) {
      await deps.writer.updateComment(thread, edit.commentId, edit.body, { priority: "acknowledge" });
    }
    const thumbsUp = reactionForPhase("stop_accepted");
    if (prepared.reaction && thumbsUp) await deps.writer.react(thread, prepared.reaction, thumbsUp, { priority: "acknowledge" });
    const reply = stopReplyFor(prepared, ended, request, input.config.trigger_phrase);
    await deps.writer.createComment(thread, reply, { priority: "acknowledge" });
    log.info({ taskId: ended.active?.id ?? null, droppedFollowUps: ended.dropped, reason: prepared.reason }, "stopped");
  } catch (error) {
    await deps.store.releaseTrigger(claimKey);
    throw error;
  }
}

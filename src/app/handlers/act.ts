/**
 * Acting on a prepared run, at once: reply (refusal, hand-back), or post the tracking comment and
 * the 👀 reaction and hand the run to the engine, durably, before anything can be lost.
 *
 * Order for a run to start: the task is stored first (so a crash or a failed comment never loses
 * it) but held back from the engine while its tracking comment is posted; the comment id is then
 * attached and the engine nudged. The engine edits that comment from then on and turns it into the
 * result. A follow-up for a run still working is stored as `held`: the engine sends it as a resume
 * when the run's result is posted.
 */
import type { KnownRun } from "../../core/plan.js";
import { replanWithKnownRun, type PreparedRun, type PreparedStart } from "../../flows/index.js";
import type { GitHubClient, RepoRef } from "../../github/client.js";
import { createComment, updateComment } from "../../github/comments.js";
import { addReaction } from "../../github/reactions.js";
import { classifyRunStatus } from "../../service/status.js";
import type { AgentRun } from "../../service/wire.js";
import type { Task, ThreadRef as TaskThread } from "../store/types.js";
import { renderTaskResult, renderTaskTracking } from "../views.js";
import type { AppDependencies, HandlerLogger } from "./types.js";

export const DEFAULT_WATCH_TIMEOUT_MS = 4 * 60 * 60_000;
export const DEFAULT_TRACKING_HOLD_MS = 60_000;

export interface ActContext {
  octokit: GitHubClient;
  installationId: number | null;
  triggerPhrase: string;
  deps: AppDependencies;
  log: HandlerLogger;
}

export async function actOnPrepared(prepared: PreparedRun, ctx: ActContext): Promise<void> {
  const { log } = ctx;
  const trigger = prepared.trigger;
  if (prepared.action === "ignore") {
    log.info({ flow: trigger.flow, reason: prepared.reason }, "nothing to do");
    return;
  }
  if (!trigger.repo || !prepared.thread) return;
  // Two deliveries of one request (a review and its inline comments, check_suite and a re-run) act once.
  const triggerKey = `${trigger.repo.id}:${trigger.dedupeKey}`;
  if (!ctx.deps.store.claimTrigger(triggerKey)) {
    log.info({ key: trigger.dedupeKey }, "this trigger was already handled");
    return;
  }
  const repo: RepoRef = { owner: trigger.repo.owner, repo: trigger.repo.name };
  switch (prepared.action) {
    case "refuse":
    case "hand_back":
      try {
        await createComment(ctx.octokit, repo, prepared.thread.number, prepared.body);
      } catch (error) {
        ctx.deps.store.releaseTrigger(triggerKey);
        throw error;
      }
      log.info({ action: prepared.action, reason: prepared.reason }, prepared.action === "refuse" ? "refused" : "handed the pull request back");
      return;
    default:
      await startOrHold(prepared, repo, ctx);
  }
}

/** Re-reads, synchronously, whether the run is still being worked on: the fetches above took time. */
function freshKnownRun(prepared: Extract<PreparedStart, { action: "resume" | "queue" }>, thread: TaskThread, ctx: ActContext): KnownRun | null {
  const { store } = ctx.deps;
  if (prepared.runId !== null) {
    return { runId: prepared.runId, orgId: prepared.orgId, inProgress: store.activeTaskForRun(prepared.runId) !== null };
  }
  // The thread's run had no id yet: any unfinished task in the thread releases held follow-ups when it ends.
  if (store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber)) return null;
  const finished = store.lastFinishedTaskForThread(thread.owner, thread.repo, thread.issueNumber);
  return finished ? { runId: finished.runId!, orgId: finished.orgId, inProgress: false } : null;
}

async function startOrHold(initial: PreparedStart, repo: RepoRef, ctx: ActContext): Promise<void> {
  const thread: TaskThread = {
    installationId: ctx.installationId,
    owner: repo.owner,
    repo: repo.repo,
    issueNumber: initial.thread!.number,
    triggerPhrase: ctx.triggerPhrase,
  };
  let prepared = initial;
  if (prepared.action !== "create") {
    const known = freshKnownRun(prepared, thread, ctx);
    if (known) prepared = replanWithKnownRun(prepared, known);
    else if (prepared.action === "queue" && !ctx.deps.store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber)) {
      ctx.log.warn({ reason: prepared.reason }, "the run this follow-up waited for never started; the follow-up is dropped");
      return;
    }
  }
  if (prepared.action === "queue") await holdFollowUp(prepared, thread, repo, ctx);
  else await startTask(prepared, thread, repo, ctx);
}

function newTaskBase(prepared: PreparedStart, thread: TaskThread, ctx: ActContext) {
  return {
    sourceType: prepared.sourceType,
    thread,
    trackingCommentId: null,
    reaction: prepared.reaction,
    requestedBy: prepared.requester,
    deadlineAt: Date.now() + (ctx.deps.watchTimeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS),
  };
}

function recordCheckAttempt(prepared: PreparedStart, repo: RepoRef, ctx: ActContext): void {
  const attempt = prepared.checkAttempt;
  if (attempt) ctx.deps.store.recordCheckAttempt(repo.owner, repo.repo, attempt.prNumber, attempt.headSha);
}

async function react(prepared: PreparedStart, repo: RepoRef, ctx: ActContext): Promise<void> {
  if (!prepared.reaction) return;
  await addReaction(ctx.octokit, repo, prepared.reaction, "eyes").catch((error: unknown) => {
    ctx.log.warn({ err: error }, "could not add the 👀 reaction");
  });
}

async function startTask(prepared: Extract<PreparedStart, { action: "create" | "resume" }>, thread: TaskThread, repo: RepoRef, ctx: ActContext): Promise<void> {
  const { engine, store, client } = ctx.deps;
  const ahead = engine.queuedAhead();
  const waitsForBudget = prepared.action === "create" && client.budget.busy("create");
  const task = engine.submit({
    ...newTaskBase(prepared, thread, ctx),
    kind: prepared.action,
    state: "queued",
    runId: prepared.action === "resume" ? prepared.runId : null,
    orgId: prepared.action === "resume" ? prepared.orgId : client.orgId,
    request: prepared.action === "create" ? prepared.request : { prompt: prepared.resumePrompt },
  });
  // Same tick as the insert, so the engine's first look already sees it held back.
  store.updateTask(task.id, { nextPollAt: Date.now() + (ctx.deps.trackingHoldMs ?? DEFAULT_TRACKING_HOLD_MS) });
  recordCheckAttempt(prepared, repo, ctx);
  ctx.log.info({ taskId: task.id, action: prepared.action, flow: prepared.trigger.flow, reason: prepared.reason }, "run accepted");

  const phase = prepared.action === "resume" ? "resuming" : waitsForBudget ? "queued" : "starting";
  const body = renderTaskTracking(task, { phase, heldFollowUps: 0, now: Date.now(), ...(phase === "queued" ? { queuePosition: ahead + 1 } : {}) });
  let commentId: number | null = null;
  let commentUrl: string | null = null;
  try {
    const comment = await createComment(ctx.octokit, repo, thread.issueNumber, body);
    commentId = comment.id;
    commentUrl = comment.htmlUrl;
  } catch (error) {
    // The engine still runs the task and posts the result as a new comment.
    ctx.log.error({ err: error, taskId: task.id }, "could not post the tracking comment");
  }
  const current = store.getTask(task.id)!;
  const request =
    prepared.action === "create" && commentId !== null
      ? { ...current.request, metadata: { ...prepared.request.metadata, status_comment_id: commentId, ...(commentUrl ? { status_comment_url: commentUrl } : {}) } }
      : current.request;
  store.updateTask(task.id, { trackingCommentId: commentId, request, nextPollAt: 0 });
  engine.nudge();
  await react(prepared, repo, ctx);
}

async function holdFollowUp(prepared: Extract<PreparedStart, { action: "queue" }>, thread: TaskThread, repo: RepoRef, ctx: ActContext): Promise<void> {
  const { engine, store } = ctx.deps;
  const task = engine.submit({
    ...newTaskBase(prepared, thread, ctx),
    kind: "resume",
    state: "held",
    runId: prepared.runId,
    orgId: prepared.orgId,
    request: { prompt: prepared.resumePrompt },
  });
  recordCheckAttempt(prepared, repo, ctx);
  ctx.log.info({ taskId: task.id, runId: prepared.runId, reason: prepared.reason }, "follow-up held until the run finishes");
  await react(prepared, repo, ctx);

  const active = prepared.runId !== null ? store.activeTaskForRun(prepared.runId) : store.activeTaskForThread(thread.owner, thread.repo, thread.issueNumber);
  if (active) await noteFollowUp(active, task, ctx);
}

/**
 * Edits the run's tracking comment to say a follow-up is queued. Only while the run is still being
 * worked on; if the result was written meanwhile, the result is written again over this edit.
 */
async function noteFollowUp(active: Task, held: Task, ctx: ActContext): Promise<void> {
  const { store } = ctx.deps;
  const current = store.getTask(active.id);
  if (!current || current.trackingCommentId === null || !["queued", "sending", "watching"].includes(current.state)) return;
  const waiting = store.heldFor(current.runId ?? -1, current.thread).length;
  const phase = current.runId === null ? "starting" : "running";
  const repo = { owner: current.thread.owner, repo: current.thread.repo };
  try {
    await updateComment(ctx.octokit, repo, current.trackingCommentId, renderTaskTracking(current, { phase, heldFollowUps: Math.max(1, waiting), now: Date.now() }));
  } catch (error) {
    ctx.log.warn({ err: error, taskId: current.id, heldTaskId: held.id }, "could not note the follow-up on the tracking comment");
    return;
  }
  const after = store.getTask(active.id);
  if (after?.finalRun && (after.state === "reporting" || after.state === "done") && after.trackingCommentId !== null) {
    const run = after.finalRun as AgentRun & { __watchTimedOut?: boolean };
    const phaseOfRun = run.__watchTimedOut ? "timed_out" : classifyRunStatus(run.status);
    await updateComment(ctx.octokit, repo, after.trackingCommentId, renderTaskResult(after, run, phaseOfRun, Date.now())).catch((error: unknown) => {
      ctx.log.error({ err: error, taskId: after.id }, "could not restore the result after noting a follow-up");
    });
  }
}

/**
 * A run a thread still shows as working that the store no longer knows (it lost its data): watched
 * again as a new task (its result then posted once over the same tracking comment, as for any
 * task), or, for a request whose run is not known, the thread told plainly what was lost.
 *
 * Once only, across replicas: the store is asked whether it knows the run and the task is stored
 * under the thread's lock (Redis's lock with replicas), so two sweeps finding the same comment adopt
 * it once; a marker that says `done` is never touched, so a result already posted is never posted again.
 */
import { parseMarker } from "../../core/markers/read.js";
import { judgeWorkingMarker, type WorkingMarker, type WorkingMarkerFacts } from "../../core/run-recovery.js";
import { renderLostFollowUp, renderLostRequest } from "../../core/render/recovery.js";
import { findInterruptedRun } from "../../service/reconcile.js";
import { classifyRunStatus, isFinalPhase } from "../../service/status.js";
import type { AgentRun } from "../../service/wire.js";
import { taskJobId } from "../queue/types.js";
import type { TaskThread } from "../store/types.js";
import { commentSupersedeKey } from "../thread-writer.js";
import { underThreadLock, type EngineContext } from "./context.js";

/** A working tracking comment the recovery sweep found, and how to read it again right before acting. */
export interface OrphanedRun {
  thread: TaskThread;
  found: WorkingMarker;
  /** When the store's data began (StoreEpoch.createdAt). */
  storeEpochAt: number;
  /** The comment's body as it is now (null: deleted). */
  currentBody: () => Promise<string | null>;
}

export type RecoveryResult =
  | { action: "adopted"; taskId: number; runId: number }
  | { action: "settled"; what: "request" | "follow_up" }
  | { action: "left"; reason: string };

/** A marker without a run says "queued" this long (scaled) before a store that does not know it takes it for lost. */
const QUEUED_GRACE_MS = 30 * 60_000;

export class Recoverer {
  constructor(private readonly context: EngineContext) {}

  async recover(orphan: OrphanedRun): Promise<RecoveryResult> {
    const { found } = orphan;
    // The listing may be minutes old: what the comment says now decides (a result posted since is left alone).
    const now = parseMarker(await orphan.currentBody());
    if (!now || now.state === "done" || now.runId !== found.marker.runId) return { action: "left", reason: "changed_since_listed" };
    const early = judgeWorkingMarker(found, await this.facts(orphan));
    if (early.kind === "leave") return { action: "left", reason: early.reason };
    // The service's side, read before the lock (which is held only for the store's few steps).
    let listedRun: AgentRun | null = null;
    let followUpLost = false;
    if (early.kind === "settle_unsent") listedRun = await this.findRunOfComment(found);
    else if (found.marker.state === "queued") {
      // A follow-up (a resume) waiting for its turn: sent only if its run works again.
      const run = await this.context.client.getRun(early.runId, { signal: this.context.signal }).catch(() => null);
      followUpLost = !run || isFinalPhase(classifyRunStatus(run.status));
    }
    const decided = await underThreadLock(this.context, orphan.thread, async (): Promise<RecoveryResult> => {
      const verdict = judgeWorkingMarker(found, await this.facts(orphan));
      if (verdict.kind === "leave") return { action: "left", reason: verdict.reason };
      if (verdict.kind === "settle_unsent" && listedRun) {
        // The create went out after all (its run carries this comment's id): watch it, unless the store knows it.
        return (await this.context.store.knowsRun(listedRun.id))
          ? { action: "left", reason: "known_run" }
          : this.adopt(orphan, listedRun.id);
      }
      if (verdict.kind === "adopt" && !followUpLost) return this.adopt(orphan, verdict.runId);
      // Claimed once per comment: a second replica's sweep (or a second wipe's) does not write it twice.
      const what = verdict.kind === "adopt" ? "follow_up" : "request";
      return (await this.context.store.claimTrigger(`recovery:settled:${found.commentId}`))
        ? { action: "settled", what }
        : { action: "left", reason: "settled_already" };
    });
    if (decided.action === "settled") {
      const body =
        decided.what === "request"
          ? renderLostRequest(found.createdAt, this.context.settings.runsUrl)
          : renderLostFollowUp(found.createdAt);
      await this.context.writer.updateComment(orphan.thread, found.commentId, body, {
        priority: "result",
        supersedeKey: commentSupersedeKey(orphan.thread, found.commentId),
      });
    }
    return decided;
  }

  /** What the store says of the marker's run and thread now. */
  private async facts(orphan: OrphanedRun): Promise<WorkingMarkerFacts> {
    const { store, settings } = this.context;
    const { runId } = orphan.found.marker;
    const { owner, repo, issueNumber } = orphan.thread;
    return {
      storeKnowsRun: runId !== null && (await store.knowsRun(runId)),
      threadHasUnfinishedTask: (await store.activeTaskForThread(owner, repo, issueNumber)) !== null,
      storeEpochAt: orphan.storeEpochAt,
      now: this.context.now(),
      queuedGraceMs: QUEUED_GRACE_MS * settings.scale,
    };
  }

  /** Called under the thread's lock: a task watching the run, stored and queued; its first poll is at once. */
  private async adopt(orphan: OrphanedRun, runId: number): Promise<RecoveryResult> {
    const { store, queue, settings } = this.context;
    const { found, thread } = orphan;
    const now = this.context.now();
    const inserted = await store.insertTask({
      // A resume's view: the tracking comment then says nothing of a repository the request no longer shows.
      kind: "resume",
      state: "watching",
      sourceType: found.marker.sourceType,
      thread,
      runId,
      orgId: found.marker.orgId,
      trackingCommentId: found.commentId,
      reaction: null,
      request: { prompt: "" },
      requestedBy: null,
      // The watch deadline runs from when the run was started, as it did for the task that was lost.
      deadlineAt: Math.max(now, found.createdAt + settings.watchTimeoutMs),
    });
    const task = await store.updateTask(inserted.id, {
      startedAt: found.createdAt,
      sentAt: found.createdAt,
      acknowledgedAt: found.createdAt,
      nextPollAt: now,
      pollIntervalMs: settings.poll.initial,
    });
    await queue.add({ id: taskJobId(task.id), name: "task", data: { taskId: task.id } });
    this.context.log.warn(
      { taskId: task.id, runId, thread: `${thread.owner}/${thread.repo}#${thread.issueNumber}`, trackingCommentId: found.commentId },
      "a run its thread shows as working was unknown to the store (it lost its data): watching it again",
    );
    return { action: "adopted", taskId: task.id, runId };
  }

  /**
   * The run a request that said "queued" may have started: the create carried its tracking comment's
   * id (`metadata.status_comment_id`). Null when the list is missing, cannot cover the time since the
   * comment, or shows no such run: the thread is told to look (core/render/recovery.ts).
   */
  private async findRunOfComment(found: WorkingMarker): Promise<AgentRun | null> {
    const search = await findInterruptedRun(this.context.client, {
      sentAfter: found.createdAt,
      match: { status_comment_id: found.commentId },
      signal: this.context.signal,
      priority: "sweep",
    });
    return search.kind === "found" ? search.run : null;
  }
}

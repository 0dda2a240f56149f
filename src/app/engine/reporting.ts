/**
 * A task's last words in its thread: the result written over the tracking comment (once, even when
 * repeated after a crash), a run that could not start, a task given up; then the follow-ups held
 * behind its run, released as one resume or told why they were not sent.
 */
import { reactionForPhase } from "../../core/render/reactions.js";
import { AgentRunError } from "../../service/errors.js";
import { classifyRunStatus, type RunPhase } from "../../service/status.js";
import type { AgentRun } from "../../service/wire.js";
import { taskJobId, type JobOutcome } from "../queue/types.js";
import type { Task } from "../store/types.js";
import { annotateSpan, taskAttributes, withSpan, withTraceparent } from "../ops/tracing.js";
import {
  renderTaskAbandoned,
  renderTaskFailedToStart,
  renderTaskMayHaveStarted,
  renderTaskNeverSent,
  renderTaskNotMade,
  renderTaskResult,
} from "../views.js";
import { renderReviewNotice } from "../../core/review/render.js";
import { postRunReview } from "./reviewing.js";
import { DONE, transition, underThreadLock, type EngineContext } from "./context.js";
import type { ThreadOutput } from "./thread-output.js";

export class Reporter {
  constructor(
    private readonly context: EngineContext,
    private readonly output: ThreadOutput,
  ) {}

  /** The run reached a final state: report it, unless a stop ended the task meanwhile. */
  async finish(task: Task, run: AgentRun): Promise<JobOutcome> {
    const reporting = await transition(this.context, task, ["watching", "sending"], {
      state: "reporting",
      finalRun: run as Record<string, unknown>,
      lastStatus: run.status ?? null,
    });
    // Null: stopped meanwhile; the thread already has its final word.
    return reporting ? this.report(reporting) : DONE;
  }

  /** Idempotent: the result replaces the tracking comment, so a repeat after a crash rewrites, never duplicates. */
  report(task: Task): Promise<JobOutcome> {
    return withSpan("result report", taskAttributes(task), () => this.writeReport(task));
  }

  private async writeReport(task: Task): Promise<JobOutcome> {
    const { store, observer, log } = this.context;
    const run = (task.finalRun ?? { id: task.runId }) as AgentRun;
    const phase: RunPhase | "timed_out" = task.watchTimedOut ? "timed_out" : classifyRunStatus(run.status);
    annotateSpan({ "bridge.run.outcome": phase });
    const review = await postRunReview(this.context, task, run, phase === "succeeded");
    const notice = review ? { notice: renderReviewNotice(review) } : {};
    await this.output.writeOrPost(
      task,
      renderTaskResult(task, run, phase, this.context.now(), { imageHosts: this.context.settings.imageHosts, ...notice }),
      "result",
    );
    const finalReaction = phase === "timed_out" ? null : reactionForPhase(phase);
    await this.output.react(task, finalReaction, "result");
    // Follow-ups that reached the working agent end with the run they shaped.
    for (const message of task.delivered) await this.output.react({ ...task, reaction: message.reaction }, finalReaction, "result");
    for (const pr of run.git_host_pull_requests ?? []) {
      if (pr.head_branch_name && task.runId !== null) {
        // The run pushed its branch to the repository it worked on: that is the branch's head repository.
        const head = { repoFullName: `${task.thread.owner}/${task.thread.repo}`, branch: pr.head_branch_name };
        await store.recordRunBranch(task.thread.owner, task.thread.repo, head, task.runId, task.orgId);
      }
    }
    await this.closeThreadWork(task, phase === "timed_out" ? null : task.runId, "done");
    this.output.forget(task.id);
    observer.runFinished(task, phase, task.startedAt !== null ? this.context.now() - task.startedAt : null);
    log.info({ taskId: task.id, runId: task.runId, status: run.status }, "result posted");
    return DONE;
  }

  async failToStart(task: Task, error: unknown): Promise<void> {
    const message = error instanceof AgentRunError ? error.message : String(error);
    this.context.log.warn({ taskId: task.id, err: error }, "could not start the agent run");
    task = await this.context.store.updateTask(task.id, { state: "done", error: message });
    this.context.observer.runFinished(task, "failed_to_start", null);
    await this.output.writeOrPost(task, renderTaskFailedToStart(task, error), "result");
    await this.output.react(task, reactionForPhase("failed"), "result");
    await this.closeThreadWork(task, null);
  }

  /** `not_made`: sent, but the runs list shows that no run came of it. */
  async abandon(task: Task, why: string, started: "may_have_started" | "never_sent" | "not_made" = "may_have_started"): Promise<void> {
    task = await this.context.store.updateTask(task.id, { state: "abandoned", error: why });
    const body =
      started === "never_sent"
        ? renderTaskNeverSent(why)
        : started === "not_made"
          ? renderTaskNotMade(why)
          : renderTaskAbandoned(task, why);
    await this.output.writeOrPost(task, body, "result");
    await this.closeThreadWork(task, null);
  }

  /**
   * A create was sent and the bridge cannot find out whether the service made the run (`what` became
   * of its answer, `why` it cannot check): the thread says the run may have started, where to look,
   * and how to ask again. Never "could not run": the agent may be working.
   */
  async outcomeUnknown(task: Task, what: string, why: string): Promise<void> {
    this.context.log.warn({ taskId: task.id, what, why }, "whether the create made a run is unknown; the thread is told so");
    const sentAt = task.sentAt ?? task.updatedAt;
    task = await this.context.store.updateTask(task.id, { state: "abandoned", error: `outcome unknown: ${what}; ${why}` });
    this.context.observer.runFinished(task, "outcome_unknown", null);
    await this.output.writeOrPost(task, renderTaskMayHaveStarted(task, { what, why, sentAt }, this.context.settings.runsUrl), "result");
    await this.closeThreadWork(task, null);
  }

  /**
   * Ends the task and releases the follow-ups held behind it, under the thread's lock so that a
   * follow-up arriving now is either held before this (and released) or sees the run finished.
   * Held follow-ups go out as one resume with a tracking comment of their own; when the run cannot
   * be resumed (it never started, or is still going) they are told so.
   */
  private async closeThreadWork(task: Task, resumableRunId: number | null, finalState?: "done"): Promise<void> {
    const { store, queue } = this.context;
    const notSent = await underThreadLock(this.context, task.thread, async () => {
      if (finalState) await store.updateTask(task.id, { state: finalState });
      const held = await store.heldFor(task.runId ?? -1, task.thread);
      if (held.length === 0) return [];
      if (resumableRunId === null) {
        const dropped: Task[] = [];
        for (const h of held) dropped.push(await store.updateTask(h.id, { state: "done", error: "its run did not finish normally" }));
        return dropped;
      }
      const [first, ...rest] = held;
      const prompt = held.map((h) => h.request.prompt).join("\n\n---\n\n");
      // A held `/agent review` makes the resume a review (the latest one's head and limit).
      const review = held.map((h) => h.request.review).findLast((r) => r !== undefined);
      for (const h of rest) await store.updateTask(h.id, { state: "done", error: `merged into task ${first!.id}` });
      await store.updateTask(first!.id, {
        state: "queued",
        kind: "resume",
        runId: resumableRunId,
        interrupt: null,
        request: { prompt, ...(review !== undefined ? { review } : {}) },
        webUrl: await store.lastWebUrlForRun(resumableRunId),
      });
      // Its own delivery's trace (stored with it), not the finished run's.
      await queue.add({
        id: taskJobId(first!.id),
        name: "task",
        data: { taskId: first!.id, ...withTraceparent(first!.traceparent ?? undefined) },
      });
      return [];
    });
    for (const followUp of notSent) {
      await this.output.writeOrPost(
        followUp,
        renderTaskAbandoned(followUp, "The run this follow-up was waiting for did not finish normally, so the follow-up was not sent."),
        "result",
      );
    }
  }
}

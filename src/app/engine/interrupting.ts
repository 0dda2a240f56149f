/**
 * Follow-ups that reach a working agent (`follow_up: interrupt`). They are sent from the step of the
 * task that watches their run, one at a time and oldest first, so that they arrive in the order they
 * were written, once each whichever replica holds the watch, and never race the run's report: a run
 * that ended just before a follow-up reached it is working again at the next poll, which goes on
 * watching it. A refusal (the service takes no follow-up while a run works) holds the follow-up
 * until the run finishes, as `queue` does, and the thread is told once.
 */
import { reviewRequestOf } from "../../core/review/trigger.js";
import { AgentRunError, InterruptRefusedError } from "../../service/errors.js";
import type { DeliveredMessage, Task } from "../store/types.js";
import { underThreadLock, type EngineContext } from "./context.js";

/** The next follow-up to send, claimed under the thread's lock; `cutOff`: a call of an earlier step that never came back. */
type Claim = { followUp: Task; firstLine: string; cutOff: boolean };

export class Interrupter {
  constructor(private readonly context: EngineContext) {}

  /** Sends the follow-ups waiting to reach this run, oldest first; returns the watching task as it is now. */
  async deliverPending(task: Task): Promise<Task> {
    if (task.runId === null) return task;
    for (;;) {
      const claim = await this.claimNext(task);
      if (claim === null) break;
      if (claim.cutOff) {
        await this.record(task, claim, false);
        continue;
      }
      try {
        await this.context.client.interruptRun(task.runId, claim.followUp.request.prompt, { signal: this.context.signal });
        await this.record(task, claim, true);
      } catch (error) {
        if (this.context.signal.aborted) break;
        if (error instanceof InterruptRefusedError) {
          await this.holdAll(task);
          break;
        }
        // The service answered no for another reason (nothing reached the agent): the follow-up waits for the run to finish.
        if (error instanceof AgentRunError && error.status !== undefined) {
          this.context.log.warn(
            { taskId: claim.followUp.id, err: error },
            "a follow-up could not reach the working agent; it is held until the run finishes",
          );
          await this.hold(task, claim.followUp.id);
          continue;
        }
        // No answer (a timeout, a dropped connection): it may have arrived, and a resume is never repeated blindly.
        this.context.log.warn({ taskId: claim.followUp.id, err: error }, "a follow-up sent to the working agent got no answer");
        await this.record(task, claim, false);
      }
    }
    return (await this.context.store.getTask(task.id)) ?? task;
  }

  /** Follow-ups held for this run that go to the agent while it works, oldest first (the order they were written). */
  private async pending(task: Task): Promise<Task[]> {
    return (await this.context.store.heldFor(task.runId!, task.thread)).filter((t) => t.interrupt !== null);
  }

  private claimNext(task: Task): Promise<Claim | null> {
    const { store, client, now } = this.context;
    return underThreadLock(this.context, task.thread, async () => {
      const watching = await store.getTask(task.id);
      if (!watching || watching.state !== "watching") return null;
      const [first] = await this.pending(watching);
      if (!first?.interrupt) return null;
      const firstLine = first.interrupt.firstLine;
      if (first.interrupt.sendingSince !== undefined) return { followUp: first, firstLine, cutOff: true };
      if (!client.interrupts.accepted) {
        // A refusal this client remembers (another thread's run, moments ago): no call, the thread is told once.
        await this.holdAllLocked(watching);
        return null;
      }
      const claimed = await store.updateTask(first.id, { interrupt: { ...first.interrupt, sendingSince: now() }, sentAt: now() });
      return { followUp: claimed, firstLine, cutOff: false };
    });
  }

  /** The follow-up is done: the run's tracking comment lists it, and its reaction follows the run's at the end. */
  private async record(task: Task, claim: Claim, confirmed: boolean): Promise<void> {
    const { store, now, observer, log } = this.context;
    const done = await underThreadLock(this.context, task.thread, async () => {
      const followUp = await store.getTask(claim.followUp.id);
      const watching = await store.getTask(task.id);
      // A stop ended them meanwhile: it has said what it dropped.
      if (!followUp || followUp.state !== "held" || !watching) return null;
      const review = reviewRequestOf(followUp.request);
      const message: DeliveredMessage = {
        taskId: followUp.id,
        firstLine: claim.firstLine,
        at: now(),
        reaction: followUp.reaction,
        confirmed,
        // A review asked on the way is posted when the run ends, from its result (reviewing.ts).
        ...(review ? { review } : {}),
      };
      await store.updateTask(watching.id, { delivered: [...watching.delivered, message] });
      return store.updateTask(followUp.id, {
        state: "done",
        runId: task.runId,
        error: confirmed ? null : "sent to the working agent; no answer came back",
      });
    });
    if (!done) return;
    observer.runStarted(done);
    log.info({ taskId: done.id, runId: task.runId, confirmed }, "a follow-up reached the working agent");
  }

  /** One follow-up waits for the run to finish after all (sent then as a resume, like `queue`). */
  private hold(task: Task, followUpId: number): Promise<void> {
    return underThreadLock(this.context, task.thread, async () => {
      const followUp = await this.context.store.getTask(followUpId);
      if (followUp?.state === "held") await this.context.store.updateTask(followUpId, { interrupt: null });
    });
  }

  /** The service refused: every follow-up waiting for this run waits for it to finish, and the thread is told once. */
  private holdAll(task: Task): Promise<void> {
    return underThreadLock(this.context, task.thread, async () => {
      const watching = await this.context.store.getTask(task.id);
      if (watching) await this.holdAllLocked(watching);
    });
  }

  private async holdAllLocked(watching: Task): Promise<void> {
    for (const followUp of await this.pending(watching)) await this.context.store.updateTask(followUp.id, { interrupt: null });
    if (!watching.interruptsRefused) await this.context.store.updateTask(watching.id, { interruptsRefused: true });
  }
}

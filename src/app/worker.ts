import { isThreadEvent } from "../core/events/types.js";
import { parseWebhookEvent } from "../core/events/parse.js";
import { renderServiceError } from "../core/render/replies.js";
import type { RunEngine } from "./engine.js";
import { processDelivery } from "./handlers/webhook.js";
import { forDelivery, type AppDependencies } from "./handlers/types.js";
import type { JobOutcome, JobProcessor, QueuedJob } from "./queue/types.js";
import { deliveryAttributes, withSpan, type SpanAttributes } from "./ops/tracing.js";

/** Routes the queue's jobs: deliveries to the webhook worker, task steps to the engine. */
export function createJobProcessor(deps: AppDependencies, engine: RunEngine): JobProcessor {
  return {
    process(job) {
      // Each job continues the trace its data carries (the delivery's), on whichever replica takes it.
      return withSpan(
        `${job.name} process`,
        jobAttributes(job),
        async (span) => {
          let outcome: JobOutcome = { kind: "done" };
          if (job.name === "task") outcome = await engine.processTask(job.data.taskId, job.data.step);
          else {
            const { deliveryId: id, event: name, payload } = job.data;
            await processDelivery(job.data, forDelivery(deps, { id, name, payload }));
          }
          span.setAttributes({ "bridge.job.outcome": outcome.kind });
          return outcome;
        },
        { parent: job.data.traceparent, kind: "consumer" },
      );
    },
    onFailed(job, error) {
      return withSpan(
        `${job.name} failed`,
        jobAttributes(job),
        async () => {
          if (job.name === "task") return engine.onTaskFailed(job.data.taskId, error, job.data.step);
          await answerFailedDelivery(job, error, deps);
        },
        { parent: job.data.traceparent, kind: "consumer" },
      );
    },
  };
}

/**
 * A delivery that failed every retry (GitHub unreachable for many minutes, say) is not dropped in
 * silence: when it came from a conversation, that conversation is told once, so the person can ask again.
 */
async function answerFailedDelivery(job: Extract<QueuedJob, { name: "delivery" }>, error: unknown, deps: AppDependencies): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.log.error({ delivery: job.data.deliveryId, err: error }, "giving up on a delivery after repeated failures");
  let thread: { owner: string; repo: string; number: number } | null = null;
  try {
    const event = parseWebhookEvent(job.data.event, job.data.payload);
    if (isThreadEvent(event) && event.repo) thread = { owner: event.repo.owner, repo: event.repo.name, number: event.thread.number };
  } catch {
    return;
  }
  if (!thread) return;
  const body = renderServiceError({
    message: `The bridge could not handle this request: ${message}`,
    whatToDo: "Ask again in a new comment; if it keeps failing, tell whoever runs the bridge.",
  });
  await deps.engine.reply(
    { installationId: job.data.installationId, owner: thread.owner, repo: thread.repo, issueNumber: thread.number },
    body,
    "result",
  );
}

/** Ids only: the delivery's (as received) or the task's, and the attempt. */
function jobAttributes(job: QueuedJob): SpanAttributes {
  const common = { "bridge.job.attempt": job.attempt };
  if (job.name === "task") return { ...common, "bridge.task.id": job.data.taskId };
  return { ...common, ...deliveryAttributes({ id: job.data.deliveryId, name: job.data.event, payload: job.data.payload }) };
}

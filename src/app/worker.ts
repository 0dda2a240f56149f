import { isThreadEvent } from "../core/events/types.js";
import { parseWebhookEvent } from "../core/events/parse.js";
import { renderServiceError } from "../core/render/replies.js";
import type { RunEngine } from "./engine.js";
import { processDelivery } from "./handlers/webhook.js";
import { forDelivery, type AppDependencies } from "./handlers/types.js";
import type { JobProcessor, QueuedJob } from "./queue/types.js";

/** Routes the queue's jobs: deliveries to the webhook worker, task steps to the engine. */
export function createJobProcessor(deps: AppDependencies, engine: RunEngine): JobProcessor {
  return {
    async process(job) {
      if (job.name === "task") return engine.processTask(job.data.taskId);
      const { deliveryId: id, event: name, payload } = job.data;
      await processDelivery(job.data, forDelivery(deps, { id, name, payload }));
      return { kind: "done" };
    },
    async onFailed(job, error) {
      if (job.name === "task") return engine.onTaskFailed(job.data.taskId, error);
      await answerFailedDelivery(job, error, deps);
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

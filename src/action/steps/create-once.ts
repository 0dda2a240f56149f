/**
 * The Action's create: one run at most. A lost answer (a timeout, a dropped connection, a proxy's
 * 502/503/504) is looked up in the organization's runs list after one poll interval, by the id the
 * create carries; the run found is the step's run. When the list cannot tell, the step ends with an
 * OutcomeUnknownError, which the tracking comment turns into "the run may have started" (finish.ts).
 */
import { bridgeMatchOf, createRunOnce } from "../../service/create-once.js";
import type { AgentRun, CreateRunRequest } from "../../service/wire.js";
import { log } from "../door.js";
import { randomUUID } from "../lazy-crypto.js";
import type { Step } from "./step.js";

/**
 * The request with an id of its own: `delivery_id` (the workflow run and attempt) is shared by every
 * job of the attempt, so a `bridge_task_id` tells this step's create apart. node:crypto is required
 * here, on the first create, not imported (test/e2e/action/dist); Web Crypto's global would load its
 * own module on top of it (about 1 ms of a runner's start).
 */
export function withOwnCreateId(request: CreateRunRequest): CreateRunRequest {
  const metadata = { ...(request.metadata ?? {}) } as Record<string, unknown>;
  if (typeof metadata.bridge_task_id !== "string") metadata.bridge_task_id = `action-${randomUUID()}`;
  return { ...request, metadata };
}

export async function createOnce(step: Step, request: CreateRunRequest): Promise<AgentRun> {
  const created = await createRunOnce(step.client, request, {
    deadline: step.deadline,
    settleMs: step.poll.initial,
    onAnswerLost: (error) => log.warning(`The answer to the create was lost (${error.message}); looking for its run in the runs list.`),
  });
  if (created.kind === "adopted") {
    const by = Object.entries(bridgeMatchOf(request))
      .map(([key, value]) => `${key}=${value}`)
      .join(", ");
    log.warning(
      `Agent run ${created.run.id} is the one this step's create made (found in the runs list by ${by}); nothing was sent again.`,
    );
  }
  return created.run;
}

/**
 * The Action's create: one run at most. A lost answer (a timeout, a dropped connection, a proxy's
 * 502/503/504) is looked up in the organization's runs list after one poll interval, by the id the
 * create carries; the run found is the step's run. When the list cannot tell, the step ends with an
 * OutcomeUnknownError, which the tracking comment turns into "the run may have started" (finish.ts).
 */
import { bridgeMatchOf, createRunOnce, withCreateId } from "../../service/create-once.js";
import { describeMatch } from "../../service/errors.js";
import type { AgentRun, CreateRunRequest } from "../../service/wire.js";
import { log } from "../door.js";
import type { Step } from "./step.js";

/**
 * The request with an id of its own: `delivery_id` (the workflow run and attempt) is shared by every
 * job of the attempt, so a `bridge_task_id` tells this step's create apart. Web Crypto's global, not
 * `node:crypto`: the bundle imports nothing of crypto before its first request (test/e2e/action/dist),
 * and the global loads a few of crypto's internals where `node:crypto` loads all of them (about 2 ms
 * more on Node 24 when no TLS has loaded them yet).
 */
export function withOwnCreateId(request: CreateRunRequest): CreateRunRequest {
  const metadata = withCreateId(request.metadata ?? {}, `action-${globalThis.crypto.randomUUID()}`, { deliveryShared: true });
  return { ...request, metadata };
}

export async function createOnce(step: Step, request: CreateRunRequest): Promise<AgentRun> {
  const created = await createRunOnce(step.client, request, {
    deadline: step.deadline,
    settleMs: step.poll.initial,
    onAnswerLost: (error) => log.warning(`The answer to the create was lost (${error.message}); looking for its run in the runs list.`),
  });
  if (created.kind === "adopted") {
    log.warning(
      `Agent run ${created.run.id} is the one this step's create made (found in the runs list by ${describeMatch(bridgeMatchOf(request))}); nothing was sent again.`,
    );
  }
  return created.run;
}

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
 * job of the attempt, so a `bridge_task_id` tells this step's create apart.
 */
export function withOwnCreateId(request: CreateRunRequest): CreateRunRequest {
  const metadata = withCreateId(request.metadata ?? {}, `action-${uniqueId()}`, { deliveryShared: true });
  return { ...request, metadata };
}

/**
 * A version-4 UUID from `Math.random`. The id must be unique among the steps of one workflow run, not
 * secret: whoever could create a run under it already holds the service's token. V8 seeds each
 * process's generator from the operating system, so two steps do not share a sequence. Neither Web
 * Crypto's global nor `node:crypto`: either loads crypto's internals before the step's create, about
 * 3 ms of a cold start on Node 24, over HTTPS as well (TLS loads fewer of them): `npx tsx bench/cold-start.ts`.
 */
export function uniqueId(): string {
  const hex = (digits: number) => {
    let text = "";
    for (let i = 0; i < digits; i++) text += Math.floor(Math.random() * 16).toString(16);
    return text;
  };
  const variant = (8 + Math.floor(Math.random() * 4)).toString(16);
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
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

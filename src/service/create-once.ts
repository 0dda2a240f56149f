/**
 * A create that makes at most one run, for callers that wait for it (the Action, the CLI). When the
 * answer is lost (a timeout, a connection broken after sending, a proxy's 502/503/504) the service
 * may have made the run, so the create is never simply repeated: after a pause for a create still
 * in progress behind a proxy that gave up, the organization's runs list is searched for the
 * metadata the create carried. Found, the run is adopted; certainly absent, the create is sent again
 * (a bounded number of times); anything else is an OutcomeUnknownError that says where to look.
 * The App does the same through its durable task steps (app/engine/sending.ts).
 */
import type { AgentRunClient, CallOptions } from "./client.js";
import { AgentRunError, OutcomeUnknownError, RequestValidationError, answerLost } from "./errors.js";
import { findInterruptedRun } from "./reconcile.js";
import { sleep } from "./wait.js";
import { BRIDGE_METADATA_KEYS, type AgentRun, type CreateRunRequest } from "./wire.js";

export interface CreateOnceOptions extends CallOptions {
  /** Pause (ms) after a lost answer before the runs list is asked. Default 5 s. */
  settleMs?: number;
  /** Creates sent again after the list showed the lost one certainly absent. Default 2. */
  resends?: number;
  /** Told each lost answer before it is reconciled (a log line). */
  onAnswerLost?: (error: AgentRunError, attempt: number) => void;
  /** The clock (tests). */
  now?: () => number;
}

export type CreateOnceResult =
  /** The service answered with the run. */
  | { kind: "created"; run: AgentRun }
  /** The answer was lost and the runs list showed the run the create made: it is this run. */
  | { kind: "adopted"; run: AgentRun; lost: AgentRunError };

/** `settleMs` is also the App's pause before it reconciles a lost answer (app/engine/sending.ts). */
export const CREATE_ONCE_DEFAULTS = { settleMs: 5_000, resends: 2 } as const;

/** The bridge's own ids in a create's metadata: what its run is found by. */
export function bridgeMatchOf(request: Pick<CreateRunRequest, "metadata">): { delivery_id?: string; bridge_task_id?: string } {
  const metadata = (request.metadata ?? {}) as Record<string, unknown>;
  const pick = (key: string) => {
    const value = metadata[key];
    return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined;
  };
  const deliveryId = pick(BRIDGE_METADATA_KEYS.deliveryId);
  const taskId = pick(BRIDGE_METADATA_KEYS.bridgeTaskId);
  return { ...(deliveryId ? { delivery_id: deliveryId } : {}), ...(taskId ? { bridge_task_id: taskId } : {}) };
}

/**
 * The metadata with `bridge_task_id: id` unless it already carries an id of the create's own, so
 * that a lost answer can be found in the runs list. A `delivery_id` counts as one unless
 * `deliveryShared` (the Action: every job of a workflow attempt has the same one). The caller makes
 * the id, so that it chooses where its randomness comes from.
 */
export function withCreateId(
  metadata: Record<string, unknown>,
  id: string,
  options: { deliveryShared?: boolean } = {},
): Record<string, unknown> {
  const own = bridgeMatchOf({ metadata });
  if (own.bridge_task_id !== undefined || (own.delivery_id !== undefined && !options.deliveryShared)) return metadata;
  return { ...metadata, bridge_task_id: id };
}

/**
 * Sends the create; on a lost answer reconciles it as above. The request's metadata must carry
 * `delivery_id` or `bridge_task_id`, unique to this create: without one the run could not be told apart.
 */
export async function createRunOnce(
  client: AgentRunClient,
  request: CreateRunRequest,
  options: CreateOnceOptions = {},
): Promise<CreateOnceResult> {
  const match = bridgeMatchOf(request);
  if (Object.keys(match).length === 0) {
    throw new RequestValidationError("create", ["metadata needs delivery_id or bridge_task_id so that a lost answer can be reconciled"]);
  }
  const now = options.now ?? Date.now;
  const resends = options.resends ?? CREATE_ONCE_DEFAULTS.resends;
  const callOptions: CallOptions = { ...options };
  for (let attempt = 1; ; attempt++) {
    const sentAt = now();
    let lost: AgentRunError;
    try {
      return { kind: "created", run: await client.createRun(request, callOptions) };
    } catch (error) {
      if (!answerLost(error) || options.signal?.aborted) throw error;
      lost = error as AgentRunError;
    }
    options.onAnswerLost?.(lost, attempt);
    await pause(options.settleMs ?? CREATE_ONCE_DEFAULTS.settleMs, options);
    let search: Awaited<ReturnType<typeof findInterruptedRun>>;
    try {
      search = await findInterruptedRun(client, { sentAfter: sentAt, match, signal: options.signal, deadline: options.deadline });
    } catch (listError) {
      throw new OutcomeUnknownError(lost, `the runs list failed too (${describe(listError)})`, sentAt, match);
    }
    switch (search.kind) {
      case "found":
        return { kind: "adopted", run: search.run, lost };
      case "unsupported":
        throw new OutcomeUnknownError(lost, "the service does not list runs, so the bridge cannot check", sentAt, match);
      case "inconclusive":
        throw new OutcomeUnknownError(lost, `the runs list could not tell (${search.reason})`, sentAt, match);
      case "not_found":
        // Certainly not made: sending again cannot make a second run.
        if (attempt > resends) throw lost;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waits `ms`, or less when the call's deadline or signal comes first (an abort ends the pause; the list call after it says so). */
async function pause(ms: number, options: CallOptions): Promise<void> {
  const untilDeadline = options.deadline !== undefined ? Math.max(0, options.deadline - Date.now()) : ms;
  const wait = Math.min(ms, untilDeadline);
  if (wait > 0) await sleep(wait, options.signal).catch(() => undefined);
}

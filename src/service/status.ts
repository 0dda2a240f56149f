import { KNOWN_STATUSES } from "./wire.js";

/**
 * What a run's status means to the bridge. The service's status is a free string (spec §3), so an
 * unknown value is `unknown`: watchers keep polling it until their deadline instead of guessing.
 *
 * - `in_progress`: still working (also a missing status: a run just created may not have one yet);
 * - `waiting_for_input`: paused until someone resumes it;
 * - `succeeded`, `failed`: ended on its own;
 * - `stopped`: ended because someone stopped or cancelled it; neither a success nor a failure;
 * - `unknown`: a value never seen before.
 */
export type RunPhase = "in_progress" | "waiting_for_input" | "succeeded" | "failed" | "stopped" | "unknown";

/** The phase of each known status group, in the order docs/client.md's table lists them. */
export const PHASE_OF_STATUS_GROUP = {
  inProgress: "in_progress",
  waitingForInput: "waiting_for_input",
  succeeded: "succeeded",
  stopped: "stopped",
  failed: "failed",
} as const satisfies Record<keyof typeof KNOWN_STATUSES, RunPhase>;

const PHASE_BY_STATUS = new Map<string, RunPhase>();
for (const [group, phase] of Object.entries(PHASE_OF_STATUS_GROUP) as Array<[keyof typeof KNOWN_STATUSES, RunPhase]>) {
  for (const status of KNOWN_STATUSES[group]) PHASE_BY_STATUS.set(status.toLowerCase(), phase);
}

/** Case-insensitive: `COMPLETE`, `complete` and ` Complete ` are one value. */
export function classifyRunStatus(status: string | null | undefined): RunPhase {
  if (status == null || status.trim() === "") return "in_progress";
  return PHASE_BY_STATUS.get(status.trim().toLowerCase()) ?? "unknown";
}

/** A run in one of these phases will not change again unless it is resumed. */
export function isFinalPhase(phase: RunPhase): boolean {
  return phase === "succeeded" || phase === "failed" || phase === "stopped" || phase === "waiting_for_input";
}

/** Every known status with its phase, for documentation (docs/client.md's table). */
export function knownStatusTable(): Array<{ status: string; phase: RunPhase }> {
  return (Object.entries(PHASE_OF_STATUS_GROUP) as Array<[keyof typeof KNOWN_STATUSES, RunPhase]>).flatMap(([group, phase]) =>
    KNOWN_STATUSES[group].map((status) => ({ status, phase })),
  );
}

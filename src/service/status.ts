import { KNOWN_STATUSES } from "./wire.js";

/**
 * What a run's status means to the bridge. The service's status is a free string (spec §3), so an
 * unknown value is `unknown`: watchers keep polling it until their deadline instead of guessing.
 */
export type RunPhase = "in_progress" | "waiting_for_input" | "succeeded" | "failed" | "unknown";

const PHASE_BY_STATUS = new Map<string, RunPhase>();
for (const s of KNOWN_STATUSES.inProgress) PHASE_BY_STATUS.set(s.toLowerCase(), "in_progress");
for (const s of KNOWN_STATUSES.waitingForInput) PHASE_BY_STATUS.set(s.toLowerCase(), "waiting_for_input");
for (const s of KNOWN_STATUSES.succeeded) PHASE_BY_STATUS.set(s.toLowerCase(), "succeeded");
for (const s of KNOWN_STATUSES.failed) PHASE_BY_STATUS.set(s.toLowerCase(), "failed");

export function classifyRunStatus(status: string | null | undefined): RunPhase {
  if (status == null || status.trim() === "") return "in_progress";
  return PHASE_BY_STATUS.get(status.trim().toLowerCase()) ?? "unknown";
}

/** A run in one of these phases will not change again unless it is resumed. */
export function isFinalPhase(phase: RunPhase): boolean {
  return phase === "succeeded" || phase === "failed" || phase === "waiting_for_input";
}

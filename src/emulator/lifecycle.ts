/**
 * A run's state at an emulated instant, computed from its timestamps on every read: no timers,
 * so thousands of runs cost nothing while idle. Pure.
 *
 * A run is a list of parts: its creation, then one part per resume. A part is queued for the first
 * `queuedShare` of its duration (creations only), then running while its entries appear, then
 * finished. Only the last part can be unfinished.
 */
import type { PlannedStep, TracePullRequest } from "./trace.js";
import type { StatusVocabulary } from "./types.js";

export interface RunPart {
  prompt: string;
  /** Emulated ms at which the part started. */
  startedAt: number;
  /** Emulated ms the part lasts. */
  durationMs: number;
  queuedShare: number;
  outcome: "completed" | "failed";
  finalStatus?: string;
  /** Opened when the part completes. */
  pullRequests: TracePullRequest[];
  /** Shown once the part finished. */
  summary: string | null;
  result: string;
  steps: PlannedStep[];
}

export type RunPhase = "queued" | "running" | "completed" | "failed";

export const STATUS_WORDS: Record<StatusVocabulary, Record<RunPhase, string>> = {
  spec: { queued: "queued", running: "running", completed: "completed", failed: "failed" },
  deployment: { queued: "PENDING", running: "ACTIVE", completed: "COMPLETE", failed: "FAILED" },
};

export function partEndsAt(part: RunPart): number {
  return part.startedAt + part.durationMs;
}

function isPartFinished(part: RunPart, now: number): boolean {
  return now >= partEndsAt(part);
}

function phaseOf(parts: readonly RunPart[], now: number): RunPhase {
  const last = parts[parts.length - 1]!;
  if (isPartFinished(last, now)) return last.outcome;
  if (now < last.startedAt + last.queuedShare * last.durationMs) return "queued";
  return "running";
}

export function isInProgress(parts: readonly RunPart[], now: number): boolean {
  const phase = phaseOf(parts, now);
  return phase === "queued" || phase === "running";
}

export function statusOf(parts: readonly RunPart[], now: number, vocabulary: StatusVocabulary): string {
  const last = parts[parts.length - 1]!;
  const phase = phaseOf(parts, now);
  if ((phase === "completed" || phase === "failed") && last.finalStatus) return last.finalStatus;
  return STATUS_WORDS[vocabulary][phase];
}

export interface VisibleStep {
  /** Emulated ms at which the entry appeared. */
  appearedAt: number;
  step: PlannedStep["step"];
}

/** Entries visible at `now`, oldest first. */
export function visibleSteps(parts: readonly RunPart[], now: number): VisibleStep[] {
  const visible: VisibleStep[] = [];
  for (const part of parts) {
    const finished = isPartFinished(part, now);
    for (const planned of part.steps) {
      const appearedAt = planned.at >= 1 ? partEndsAt(part) : part.startedAt + planned.at * part.durationMs;
      // The last entry appears exactly when the part finishes, never before its status says so.
      if (finished || appearedAt <= now) visible.push({ appearedAt, step: planned.step });
      if (!finished && appearedAt > now) break;
    }
  }
  return visible;
}

export function visibleStepCount(parts: readonly RunPart[], now: number): number {
  let count = 0;
  for (const part of parts) {
    if (isPartFinished(part, now)) {
      count += part.steps.length;
      continue;
    }
    for (const planned of part.steps) {
      if (planned.at < 1 && part.startedAt + planned.at * part.durationMs <= now) count++;
      else break;
    }
  }
  return count;
}

export interface OpenedPullRequest extends TracePullRequest {
  /** Emulated ms at which it was opened (its part's end). */
  openedAt: number;
}

/** Pull requests of every completed part, oldest first. */
export function openedPullRequests(parts: readonly RunPart[], now: number): OpenedPullRequest[] {
  return parts
    .filter((p) => p.outcome === "completed" && isPartFinished(p, now))
    .flatMap((p) => p.pullRequests.map((pr) => ({ ...pr, openedAt: partEndsAt(p) })));
}

/** Summary and result of the last part once it finished; null while it runs. */
export function outcomeTexts(parts: readonly RunPart[], now: number): { summary: string | null; result: string | null } {
  const last = parts[parts.length - 1]!;
  if (!isPartFinished(last, now)) return { summary: null, result: null };
  return { summary: last.summary, result: last.result };
}

/**
 * GitHub's write limits for one installation, the pacer's limits once its options and `timeScale`
 * are applied, and how long an installation pauses when GitHub answers a write with a rate limit.
 */
import { GitHubRateLimitError, rateLimitWaitMs, toGitHubError } from "../errors.js";
import type { WritePacerOptions } from "./types.js";

/** GitHub's figures for one installation (facts.md), before `timeScale`. */
export const GITHUB_WRITE_LIMITS = {
  minIntervalMs: 1_000,
  perMinute: 80,
  perHour: 500,
  /** GitHub's advice when a rate-limit answer says nothing about waiting: at least a minute. */
  defaultPauseMs: 60_000,
  maxRetries: 3,
  /**
   * How long one replica may hold an installation's turn across replicas: GitHub ends requests
   * that take over 10 s, so a longer hold only means its holder died (then the hold expires).
   */
  holdMs: 15_000,
} as const;

/** The limits a pacer works with, durations already multiplied by `timeScale`. */
export interface ScaledLimits {
  minIntervalMs: number;
  minuteMs: number;
  perMinute: number;
  hourMs: number;
  perHour: number;
  defaultPauseMs: number;
  holdMs: number;
  timeScale: number;
  /** Rate-limit answers a write may get before its error is passed on. */
  maxRetries: number;
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}.`);
  return value;
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new RangeError(`${name} must be a positive whole number, got ${value}.`);
  return value;
}

/** The options' limits with GitHub's figures as defaults; a RangeError names the first one out of range. */
export function scaledLimits(options: WritePacerOptions): ScaledLimits {
  const scale = positive("timeScale", options.timeScale ?? 1);
  const limits = {
    minIntervalMs: positive("minIntervalMs", options.minIntervalMs ?? GITHUB_WRITE_LIMITS.minIntervalMs) * scale,
    minuteMs: 60_000 * scale,
    perMinute: positiveInteger("perMinute", options.perMinute ?? GITHUB_WRITE_LIMITS.perMinute),
    hourMs: 3_600_000 * scale,
    perHour: positiveInteger("perHour", options.perHour ?? GITHUB_WRITE_LIMITS.perHour),
    defaultPauseMs: GITHUB_WRITE_LIMITS.defaultPauseMs * scale,
    holdMs: GITHUB_WRITE_LIMITS.holdMs * scale,
    timeScale: scale,
  };
  const retries = options.maxRetries ?? GITHUB_WRITE_LIMITS.maxRetries;
  if (!(Number.isInteger(retries) && retries >= 0)) throw new RangeError(`maxRetries must be a whole number, 0 or more, got ${retries}.`);
  return { ...limits, maxRetries: retries };
}

/**
 * GitHub's rate-limit answer to a write, with how long the installation pauses for it (what GitHub
 * asked for, else at least a minute; scaled); undefined when the write failed for another reason.
 */
export function rateLimitPause(error: unknown, limits: ScaledLimits): { status: number | undefined; pauseMs: number } | undefined {
  const limited = toGitHubError(error, "a paced GitHub write");
  if (!(limited instanceof GitHubRateLimitError)) return undefined;
  const pauseMs = (rateLimitWaitMs(limited.signals) ?? GITHUB_WRITE_LIMITS.defaultPauseMs) * limits.timeScale;
  return { status: limited.status, pauseMs };
}

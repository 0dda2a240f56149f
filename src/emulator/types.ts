/**
 * Public types of the Agent Run Service emulator. Durations in a `RunScript` are *emulated*
 * milliseconds (multiplied by `timeScale` to get real time); fault latencies are real milliseconds.
 */
import type { FastifyInstance } from "fastify";
import type { AgentRun, LogEntry } from "../service/wire.js";
import type { OtherRunsInput } from "./other-runs.js";

export interface EmulatorOptions {
  /** Interface to listen on. Default "127.0.0.1". */
  host?: string;
  /** Port to listen on. Default 0 (a free port). */
  port?: number;
  /** Base URL used in `web_url` and pull-request links. Default: the address the emulator listens on. */
  publicUrl?: string;
  /**
   * Accepted bearer tokens, the organizations each may access and the user each acts as (the runs
   * list's `user_id` filter; default: the token's 1-based position). Default [{ token: "emulator-token", orgIds: [1] }].
   */
  tokens?: Array<{ token: string; orgIds: number[]; userId?: number }>;
  /** Multiplies every duration: run durations and rate-limit windows. 1 = real time; 0.01 → a 60 s window lasts 600 ms. */
  timeScale?: number;
  /**
   * "spec" (default): queued → running → completed | failed.
   * "deployment": PENDING → ACTIVE → COMPLETE | FAILED, the uppercase values seen in real deployments.
   */
  statusVocabulary?: StatusVocabulary;
  /** Default run behaviour: 20 s emulated, completed, one pull request, 12 log entries. */
  defaultScript?: Partial<RunScript>;
  /** Enforce the spec §8 rate limits per token. Default true. */
  rateLimits?: boolean;
  /** Send `Retry-After` on 429. Default false: real deployments send none. */
  retryAfterHeader?: boolean;
  /** Fastify's logger. Default false. */
  logger?: boolean;
  /** Seed of the random draws behind faults, so that a test sees the same faults every time. Default 0x5eed. */
  seed?: number;
  /**
   * Shapes of error bodies. "spec" (default): validation failures are 400 `{detail: [{loc, msg, type}]}`,
   * other errors `{detail: "…"}`. "fastapi": as real deployments answer, validation failures are 422
   * with the same list, other errors `{message, status_code}`.
   */
  errorStyle?: ErrorStyle;
  /** Which endpoints beyond the spec's four answer (the others are 404, as on a deployment without them). */
  endpoints?: Partial<OptionalEndpoints>;
  /** The organizations' repositories, as `GET /v1/organizations/{org_id}/repos` lists them. Default none. */
  repositories?: EmulatedRepository[];
  /**
   * Runs of other users and other sources in the same organization, which the runs list shows
   * between the callers' own: each create brings `perCreate` along (fractions accumulate), of
   * `sourceTypes` in turn (default GIT_HOST, CHAT, API), by `userId`, lasting `durationMs` (default:
   * the default script's). Default none.
   */
  otherRuns?: OtherRunsInput;
  /**
   * A resume of a run that is still working: "reject" (default) answers 409 naming its state;
   * "interrupt" takes it as a message to the working agent (a USER_MESSAGE entry that reshapes the rest of the run).
   */
  resumeWhileRunning?: "interrupt" | "reject";
}

export type StatusVocabulary = "spec" | "deployment";
export type ErrorStyle = "spec" | "fastapi";

export interface OptionalEndpoints {
  /** Paths the logs endpoint answers at: the spec's, the `/v1/alpha/` one of real deployments, or both (default). */
  logs: Array<"spec" | "alpha">;
  /** `GET /v1/organizations/{org_id}/agent/runs`, newest first. Default on. */
  listRuns: boolean;
  /** `GET /v1/organizations/{org_id}/repos`. Default on. */
  listRepositories: boolean;
}

/**
 * A repository of an organization on the service. While an organization lists repositories, a
 * create naming a `repo_id` that is not among them is a validation failure on `repo_id`.
 */
export interface EmulatedRepository {
  /** The service's repository id (what `repo_id` names). */
  id: number;
  /** `owner/name` on the Git host. */
  full_name: string;
  /** Default: the part of full_name after the slash. */
  name?: string;
  /** The Git host's repository id, when the service knows it. */
  github_id?: number | null;
  /** Default: the first organization of the first token. */
  orgId?: number;
}

export interface ScriptedPullRequest {
  title: string;
  head_branch_name: string;
}

export interface RunScript {
  /** Substring of the prompt this script applies to; absent = the next runs (creations or resumes). */
  match?: string;
  /** Emulated duration of the run (or of the resumed part), multiplied by timeScale. */
  durationMs: number;
  outcome: "completed" | "failed";
  /** Exact status string once finished, overriding the vocabulary (e.g. "TIMEOUT", "MAX_ITERATIONS_REACHED"). */
  finalStatus?: string;
  /** Pull requests opened on success: explicit ones, or how many to invent. */
  pullRequests: ScriptedPullRequest[] | number;
  /** Exact number of log entries this run (or resumed part, including its USER_MESSAGE) has once finished. */
  logSteps: number;
  summary?: string;
  result?: string;
  /** A review run's answer: the result becomes this summary and an `agent-run-review` block holding it (docs/review-format.md). */
  review?: ScriptedReview;
  errorMessage?: string;
  /** How many runs it applies to; default unlimited with `match`, 1 without. */
  times?: number;
}

export interface Faults {
  /** Share (0..1) of API requests answered with a server error. */
  serverErrorRate?: number;
  /** Status of those server errors. Default 503. */
  serverErrorStatus?: 500 | 502 | 503 | 504;
  /** Real milliseconds added before every API answer. */
  latencyMs?: number;
  /** Share (0..1) of API requests whose socket is destroyed without an answer. */
  dropConnectionRate?: number;
  /** The next `count` API requests get 429; `retryAfterSeconds` sets Retry-After (null: never; absent: as `retryAfterHeader`). */
  rateLimitStorm?: { count: number; retryAfterSeconds?: number | null };
  /**
   * When true, server errors and dropped connections happen *after* the request took effect (a run is
   * created or resumed, the client does not learn it). Default false: nothing happens.
   */
  afterAction?: boolean;
}

export interface EmulatorStats {
  /** Requests to the service API (/v1), whatever their answer. */
  requests: number;
  /** API requests per route, keyed by the `API_PATHS` name: createRun, getRun, resumeRun, runLogs, runLogsAlpha, listRuns, listRepositories. */
  byRoute: Record<string, number>;
  /** 429 answers (limiter and storm). */
  rateLimited: number;
  /** 5xx answers (injected or not). */
  serverErrors: number;
  /** Connections destroyed by the dropConnectionRate fault. */
  droppedConnections: number;
  runsCreated: number;
  runsResumed: number;
}

export interface EmulatorControl {
  /** Adds a script: runs whose prompt contains `match` (or the next runs, without `match`) follow it. */
  script(s: Partial<RunScript> & { match?: string }): void;
  /** Replaces the active faults ({} clears them). */
  setFaults(f: Faults): void;
  stats(): EmulatorStats;
  resetStats(): void;
  /** Changes the time scale from now on; runs in progress keep their emulated progress. */
  setTimeScale(scale: number): void;
  /** Jumps emulated time forward (runs progress, rate-limit windows slide), e.g. to finish every run at once. */
  advanceTime(emulatedMs: number): void;
  /** Every run, in the wire shape, oldest first. */
  runs(): AgentRun[];
  /** The log entries a run shows now, oldest first, as its logs endpoint would answer them (not counted as a request); [] for an unknown run. */
  logs(runId: number): LogEntry[];
  /** Turns optional endpoints on or off from now on (fields left out keep their setting). */
  setEndpoints(endpoints: Partial<OptionalEndpoints>): void;
  /** Replaces the repositories the list endpoint serves. */
  setRepositories(repositories: EmulatedRepository[]): void;
  /** Mixes runs of other users and sources in with each create from now on (`perCreate: 0` stops it). */
  setOtherRuns(otherRuns: OtherRunsInput): void;
  /** What a resume of a working run does from now on (see EmulatorOptions.resumeWhileRunning). */
  setResumeWhileRunning(mode: "interrupt" | "reject"): void;
}

export interface RunningEmulator {
  /** Base URL the emulator listens on, no trailing slash (links use `publicUrl` when set). */
  url: string;
  /** The first configured token. */
  token: string;
  /** The first organization of the first token. */
  orgId: number;
  close(): Promise<void>;
  control: EmulatorControl;
}

export interface BuiltEmulator {
  app: FastifyInstance;
  control: EmulatorControl;
}

/** What a scripted review run answers (the `agent-run-review` JSON). */
export interface ScriptedReview {
  summary: string;
  comments: {
    path: string;
    line: number;
    start_line?: number;
    side?: "RIGHT" | "LEFT";
    body: string;
    suggestion?: string;
  }[];
}

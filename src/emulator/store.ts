/**
 * The emulator's runs: creation, resume and their wire views. State is read lazily from the
 * emulated clock (see lifecycle.ts); this module only keeps records and counters.
 */
import { SOURCE } from "../service/wire.js";
import type { CreateRunRequestSchema, SourceType } from "../service/wire.js";
import type * as z from "zod";
import type { EmulatedClock } from "./clock.js";
import { isInProgress, openedPullRequests, outcomeTexts, partEndsAt, statusOf, visibleStepCount, visibleSteps } from "./lifecycle.js";
import type { RunPart } from "./lifecycle.js";
import { REVIEW_BLOCK_INFO, reviewResultText, type ResolvedScript, type ScriptBook } from "./scripts.js";
import { defaultErrorMessage, defaultPullRequestTitle, defaultResult, defaultSummary, gistOf, planTrace } from "./trace.js";
import type { TracePullRequest, TraceStep } from "./trace.js";
import type { StatusVocabulary } from "./types.js";

export type ValidCreateRequest = z.output<typeof CreateRunRequestSchema>;

/** Share of a new run's duration spent queued before its first log entry. */
const QUEUED_SHARE = 0.1;

export interface RunRecord {
  id: number;
  organizationId: number;
  /** Wall-clock epoch ms. */
  createdAt: number;
  sourceType: SourceType;
  /** The user the creating token acts as (the runs list's `user_id` filter). */
  userId: number;
  request: ValidCreateRequest;
  parts: RunPart[];
}

// Type aliases (not interfaces) so that they are assignable to the tolerant wire types.
export type WirePullRequest = { id: number; title: string; url: string; created_at: string; head_branch_name: string };
/** What a run and a page of its logs both say of the run. */
type WireRunHead = {
  id: number;
  organization_id: number;
  status: string;
  created_at: string;
  web_url: string;
  result: string | null;
};
export type WireRun = WireRunHead & {
  summary: string | null;
  source_type: SourceType;
  git_host_pull_requests: WirePullRequest[];
  metadata: Record<string, unknown> | null;
};
export type WireLogEntry = { agent_run_id: number; created_at: string } & TraceStep;
export type WireRunWithLogs = WireRunHead & {
  logs: WireLogEntry[];
  total_logs: number;
  page: number;
  size: number;
  pages: number;
};

/** A page of an optional list endpoint, as real deployments answer it. */
export type WirePage<T> = { items: T[]; total: number; page: number; size: number; pages: number };

/** `page` = floor(skip/limit)+1 and `pages` = ceil(total/limit), as the logs endpoint counts them. */
export function pageOf<T>(all: readonly T[], skip: number, limit: number): WirePage<T> {
  return {
    items: all.slice(skip, skip + limit),
    total: all.length,
    page: Math.floor(skip / limit) + 1,
    size: limit,
    pages: Math.ceil(all.length / limit),
  };
}

export interface RunStoreOptions {
  clock: EmulatedClock;
  scripts: ScriptBook;
  vocabulary: StatusVocabulary;
  /** Base URL of the emulator, read when links are made. */
  baseUrl: () => string;
}

export type ResumeOutcome = { resumed: true; record: RunRecord; interrupted: boolean } | { resumed: false; reason: "in_progress" };

/** What a resume of a run that is still working does: `reject` (409, as the spec's service is read) or `interrupt` (a USER_MESSAGE that reshapes the rest of the work). */
export type ResumeWhileRunning = "interrupt" | "reject";

/** The least an interrupted run still works after the message (a share of the part it interrupted). */
const INTERRUPTED_REST_SHARE = 0.25;

export class RunStore {
  private readonly records = new Map<number, RunRecord>();
  private nextRunId = 1;
  private nextPullRequestId = 1;

  constructor(private readonly options: RunStoreOptions) {}

  create(organizationId: number, request: ValidCreateRequest, userId = 1): RunRecord {
    const { script } = this.options.scripts.take(request.prompt);
    return this.add(organizationId, request, userId, SOURCE.api, script);
  }

  /** A run someone else started (another user, another source): it follows the default script, never a scripted one. */
  createOther(organizationId: number, sourceType: SourceType, userId: number, durationMs?: number): RunRecord {
    const script = { ...this.options.scripts.defaults, ...(durationMs !== undefined ? { durationMs } : {}) };
    return this.add(organizationId, { prompt: `A run started from ${sourceType}` }, userId, sourceType, script);
  }

  private add(
    organizationId: number,
    request: ValidCreateRequest,
    userId: number,
    sourceType: SourceType,
    script: ResolvedScript,
  ): RunRecord {
    const id = this.nextRunId++;
    const record: RunRecord = {
      id,
      organizationId,
      createdAt: this.options.clock.wallTimeAt(this.options.clock.now()),
      sourceType,
      userId,
      request,
      parts: [],
    };
    record.parts.push(this.planPart(record, request.prompt, script, QUEUED_SHARE));
    this.records.set(id, record);
    return record;
  }

  /** Starts a follow-up part; a run still in progress is refused, or interrupted (`whileRunning`). */
  resume(record: RunRecord, prompt: string, whileRunning: ResumeWhileRunning = "reject"): ResumeOutcome {
    if (isInProgress(record.parts, this.options.clock.now())) {
      if (whileRunning === "reject") return { resumed: false, reason: "in_progress" };
      this.interrupt(record, prompt);
      return { resumed: true, record, interrupted: true };
    }
    const taken = this.options.scripts.take(prompt);
    // Without a script of its own, a follow-up updates the branch it already has.
    const script: ResolvedScript = taken.scripted ? taken.script : { ...taken.script, pullRequests: 0 };
    record.parts.push(this.planPart(record, prompt, script, 0));
    return { resumed: true, record, interrupted: false };
  }

  /**
   * A message to a working run: the part at work ends now with the entries it has shown, and a new
   * part takes over from a USER_MESSAGE entry, planned from the message, for the rest of the time
   * (at least a quarter of the interrupted part), opening the pull requests the run was going to open
   * and saying in its summary what it was asked on the way. A script matching the message shapes it instead.
   */
  private interrupt(record: RunRecord, message: string): void {
    const now = this.options.clock.now();
    const current = record.parts[record.parts.length - 1]!;
    const rest = Math.max(partEndsAt(current) - now, current.durationMs * INTERRUPTED_REST_SHARE);
    const cut = Math.max(1, now - current.startedAt);
    const shown = current.steps
      .map((planned) => ({ appearedAt: current.startedAt + planned.at * current.durationMs, step: planned.step }))
      .filter((planned) => planned.appearedAt <= now);
    const carried = current.pullRequests;
    record.parts[record.parts.length - 1] = {
      ...current,
      durationMs: cut,
      queuedShare: Math.min(current.queuedShare, 1),
      outcome: "completed",
      finalStatus: undefined,
      pullRequests: [],
      steps: shown.map(({ appearedAt, step }) => ({ at: Math.min(1, (appearedAt - current.startedAt) / cut), step })),
    };
    const taken = this.options.scripts.take(message);
    const script: ResolvedScript = taken.scripted
      ? taken.script
      : {
          ...taken.script,
          durationMs: rest,
          outcome: current.outcome,
          finalStatus: current.finalStatus,
          logSteps: Math.max(3, current.steps.length - shown.length + 1),
          pullRequests: 0,
          summary: current.summary ? `${current.summary} On the way, as asked: ${gistOf(message, 80)}.` : undefined,
          result: current.result,
          errorMessage: current.outcome === "failed" ? current.result : undefined,
        };
    record.parts.push(this.planPart(record, message, script, 0, taken.scripted ? undefined : carried));
  }

  find(id: number): RunRecord | undefined {
    return this.records.get(id);
  }

  all(): RunRecord[] {
    return [...this.records.values()];
  }

  webUrl(record: RunRecord): string {
    return `${this.options.baseUrl()}/runs/${record.id}`;
  }

  isInProgress(record: RunRecord, now: number = this.options.clock.now()): boolean {
    return isInProgress(record.parts, now);
  }

  /** The run as the service answers it; `now` lets one answer read one instant throughout. */
  toWire(record: RunRecord, now: number = this.options.clock.now()): WireRun {
    const { summary, result } = outcomeTexts(record.parts, now);
    return {
      id: record.id,
      organization_id: record.organizationId,
      status: statusOf(record.parts, now, this.options.vocabulary),
      created_at: new Date(record.createdAt).toISOString(),
      web_url: this.webUrl(record),
      result,
      summary,
      source_type: record.sourceType,
      git_host_pull_requests: openedPullRequests(record.parts, now).map((pr) => ({
        id: pr.id,
        title: pr.title,
        url: pr.url,
        created_at: this.isoAt(pr.openedAt),
        head_branch_name: pr.head_branch_name,
      })),
      metadata: record.request.metadata ?? null,
    };
  }

  /** Every visible entry, oldest first. */
  logs(record: RunRecord, now: number = this.options.clock.now()): WireLogEntry[] {
    return visibleSteps(record.parts, now).map(({ appearedAt, step }) => ({
      agent_run_id: record.id,
      created_at: this.isoAt(appearedAt),
      ...step,
    }));
  }

  /** Spec §4.4 page: `page` = floor(skip/limit)+1, `pages` = ceil(total/limit) (0 when there are no entries). */
  logsPage(record: RunRecord, skip: number, limit: number): WireRunWithLogs {
    const now = this.options.clock.now();
    const total = visibleStepCount(record.parts, now);
    const logs = skip >= total ? [] : this.logs(record, now).slice(skip, skip + limit);
    const { id, organization_id, status, created_at, web_url, result } = this.toWire(record, now);
    return {
      id,
      organization_id,
      status,
      created_at,
      web_url,
      result,
      logs,
      total_logs: total,
      page: Math.floor(skip / limit) + 1,
      size: limit,
      pages: Math.ceil(total / limit),
    };
  }

  /** The organization's runs, newest first, optionally only those of one source type or user. */
  runsPage(organizationId: number, query: { skip: number; limit: number; source_type?: string; user_id?: number }): WirePage<WireRun> {
    const now = this.options.clock.now();
    const matching = [...this.records.values()]
      .filter((r) => r.organizationId === organizationId)
      .filter((r) => query.source_type === undefined || r.sourceType === query.source_type)
      .filter((r) => query.user_id === undefined || r.userId === query.user_id)
      .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    const page = pageOf(matching, query.skip, query.limit);
    return { ...page, items: page.items.map((record) => this.toWire(record, now)) };
  }

  /** A pull request opened by some run, for the fake git host page. */
  findPullRequest(id: number): { record: RunRecord; pullRequest: WirePullRequest } | undefined {
    for (const record of this.records.values()) {
      const pr = this.toWire(record).git_host_pull_requests.find((p) => p.id === id);
      if (pr) return { record, pullRequest: pr };
    }
    return undefined;
  }

  /** One part of a run; `carried`: the pull requests an interrupted part was going to open, opened by this one instead. */
  private planPart(record: RunRecord, prompt: string, script: ResolvedScript, queuedShare: number, carried?: TracePullRequest[]): RunPart {
    const partIndex = record.parts.length;
    const pullRequests = script.outcome !== "completed" ? [] : (carried ?? this.assignPullRequests(record, prompt, script));
    const summary = script.summary ?? (script.outcome === "completed" ? defaultSummary(prompt, pullRequests) : null);
    const errorMessage = script.errorMessage ?? defaultErrorMessage(prompt);
    const result = script.result ?? (script.outcome === "completed" ? completedResult(prompt, script, pullRequests) : errorMessage);
    const steps = planTrace({
      runId: record.id,
      partIndex,
      prompt,
      logSteps: script.logSteps,
      outcome: script.outcome,
      pullRequests,
      summary: summary ?? result,
      errorMessage,
      queuedShare,
    });
    return {
      prompt,
      startedAt: this.options.clock.now(),
      durationMs: script.durationMs,
      queuedShare,
      outcome: script.outcome,
      finalStatus: script.finalStatus,
      pullRequests,
      summary,
      result,
      steps,
    };
  }

  private assignPullRequests(record: RunRecord, prompt: string, script: ResolvedScript): TracePullRequest[] {
    const already = record.parts.reduce((n, p) => n + p.pullRequests.length, 0);
    const wanted =
      typeof script.pullRequests === "number"
        ? Array.from({ length: script.pullRequests }, (_, i) => ({
            title: i === 0 ? defaultPullRequestTitle(prompt) : `${defaultPullRequestTitle(prompt)} (part ${i + 1})`,
            head_branch_name: already + i === 0 ? `agent/run-${record.id}` : `agent/run-${record.id}-${already + i + 1}`,
          }))
        : script.pullRequests;
    return wanted.map((pr) => {
      const id = this.nextPullRequestId++;
      return { id, title: pr.title, head_branch_name: pr.head_branch_name, url: `${this.options.baseUrl()}/fake-git-host/pr/${id}` };
    });
  }

  private isoAt(emulated: number): string {
    return new Date(this.options.clock.wallTimeAt(emulated)).toISOString();
  }
}

/**
 * A completed part's result: a scripted review's block; for a review prompt (it names the
 * `agent-run-review` format) without one, a review with nothing to flag; else the default.
 */
function completedResult(prompt: string, script: ResolvedScript, pullRequests: TracePullRequest[]): string {
  if (script.review) return reviewResultText({ summary: script.review.summary, comments: script.review.comments ?? [] });
  if (prompt.includes(REVIEW_BLOCK_INFO))
    return reviewResultText({ summary: "The emulated agent read the pull request: nothing to flag.", comments: [] });
  return defaultResult(pullRequests);
}

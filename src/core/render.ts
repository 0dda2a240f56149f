/**
 * Comment bodies (GitHub Markdown) for every message the bot posts. Pure: the caller posts them.
 *
 * - Every body that refers to a run starts with its hidden run marker (markers.ts); other bot
 *   comments start with a kind marker, so the bot can tell its own refusals apart.
 * - Every piece of agent text goes through sanitize-output; pre-rendered pieces are typed
 *   `SafeMarkdown`, so raw text cannot slip in.
 * - Bodies fit GitHub's 65,536-character limit: agent text is cut block by block (each block is
 *   sanitised on its own, so a cut never leaves a fence or a `<details>` open and never touches
 *   the marker), with a visible note pointing at the run page.
 */
import type { RunPhase } from "../service/status.js";
import type { AgentRun, GitHostPullRequest, SourceType } from "../service/wire.js";
import { SOURCE } from "../service/wire.js";
import {
  AgentRunError,
  AuthenticationError,
  BadRequestError,
  DeadlineError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PermissionError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  UnprocessableError,
} from "../service/errors.js";
import type { RunMarker } from "./markers/schema.js";
import { renderKindMarker, renderMarker, resultMarker } from "./markers/write.js";
import {
  codeBlock,
  inlineCode,
  joinMarkdown,
  md,
  renderLink,
  type SafeMarkdown,
  safeHttpUrl,
  sanitizeInline,
  sanitizeMarkdown,
  truncateText,
} from "./sanitize-output.js";
import type { TraceDigest } from "./trace.js";

/** GitHub rejects longer comment bodies. */
export const GITHUB_COMMENT_MAX_LENGTH = 65_536;
/** Below this, a result comment cannot hold its marker and a headline. */
export const MIN_RESULT_LENGTH = 4096;

/** Epoch milliseconds or a Date. */
export type TimeInput = Date | number;

export type TrackingPhase = "queued" | "starting" | "running" | "resuming" | "queued_follow_up";

export interface TrackingCommentInput {
  /** The run's marker; its `state` is set from the phase (`queued` while no run exists or the phase is `queued`). */
  marker: RunMarker;
  webUrl?: string | null;
  phase: TrackingPhase;
  /** 1-based position in the rate-budget queue, for `queued`. */
  queuePosition?: number;
  /** From `describeCurrentStep`. */
  currentStep?: SafeMarkdown | null;
  startedAt: TimeInput;
  now: TimeInput;
  /** Follow-ups waiting for the run to finish. */
  followUps?: number;
  /** The comment, review or check that started this. */
  triggerUrl?: string | null;
  /** Defaults to the marker's. */
  sourceType?: SourceType;
  /**
   * A new run sent without a `repo_id` (none configured, none found in the service's repository
   * list): the comment says that the organization's default repository applies.
   */
  orgDefaultRepository?: boolean;
}

export interface ResultCommentInput {
  marker: RunMarker;
  run: AgentRun;
  /** `classifyRunStatus(run.status)`; `in_progress` renders the "still running, the watch gave up" variant. */
  phase: RunPhase;
  startedAt: TimeInput;
  /** When the run was seen finished, or when the watch gave up. */
  finishedAt: TimeInput;
  trace?: TraceDigest | null;
  /** Shown in the "reply with … to continue" hint, and neutralised in agent text. */
  triggerPhrase: string;
  /** Defaults to GitHub's limit; at least MIN_RESULT_LENGTH. */
  maxLength?: number;
}

export interface RefusalInput {
  login: string;
  /** Why, in a sentence (e.g. from planRun's reason). */
  reason: string;
}

export interface ConfigErrorInput {
  errors: string[];
  file: string;
}

export interface HandBackInput {
  attempts: number;
  prUrl?: string | null;
  triggerPhrase?: string;
}

export interface ServiceErrorInput {
  /** What went wrong, one line. */
  message: string;
  /** What a maintainer (or the requester) should do next. */
  whatToDo: string;
  /** Values to redact wherever they appear (the API token): the comment is public. */
  secrets?: string[];
}

export type Reaction = "eyes" | "rocket" | "confused";

// ---------------------------------------------------------------------------------------------
// Small pieces

const toMs = (time: TimeInput) => (time instanceof Date ? time.getTime() : time);

/** "45s", "4m 12s", "2h 5m", "3d 4h". Negative or invalid durations read "0s". */
export function formatElapsed(ms: number): string {
  const totalSeconds = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

/** 👀 when a trigger is accepted, 🚀 on success, 😕 on failure; nothing otherwise. */
export function reactionForPhase(phase: RunPhase | "triggered"): Reaction | null {
  switch (phase) {
    case "triggered":
      return "eyes";
    case "succeeded":
      return "rocket";
    case "failed":
      return "confused";
    default:
      return null;
  }
}

/** A URL short enough to put in a body, or null. */
function linkTarget(url: string | null | undefined): string | null {
  const href = safeHttpUrl(url);
  return href !== null && href.length <= 2000 ? href : null;
}

/** "[#123](url)", or "123" without a URL: a bare "#123" would link to issue 123. */
function runLink(runId: number, webUrl: string | null): SafeMarkdown {
  const id = String(runId) as SafeMarkdown;
  return webUrl ? (`[#${id}](${webUrl})` as SafeMarkdown) : id;
}

function runPageNote(webUrl: string | null): SafeMarkdown {
  return webUrl ? (`the full text is on [the run page](${webUrl})` as SafeMarkdown) : md`the full text is on the run page`;
}

function sub(text: SafeMarkdown): SafeMarkdown {
  return md`<sub>${text}</sub>`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

// ---------------------------------------------------------------------------------------------
// Tracking comment

function triggerNote(sourceType: SourceType, triggerUrl: string | null): SafeMarkdown | null {
  const link = (text: string) => (triggerUrl ? renderLink(text, triggerUrl) : (text as SafeMarkdown));
  switch (sourceType) {
    case SOURCE.gitHostCheckSuite:
      return md`Started because ${link("checks failed")}`;
    case SOURCE.gitHostPrReview:
      return md`Started for ${link("this review")}`;
    default:
      return triggerUrl ? md`Triggered by ${link("this comment")}` : null;
  }
}

function followUpNote(count: number): SafeMarkdown {
  return count === 1
    ? md`📝 Your follow-up is queued: it will be sent when the run finishes.`
    : (`📝 ${count} follow-ups are queued: they will be sent when the run finishes.` as SafeMarkdown);
}

/** The comment posted as soon as a trigger is accepted, edited while the run works. */
export function renderTrackingComment(input: TrackingCommentInput): string {
  const webUrl = linkTarget(input.webUrl);
  const runId = input.marker.runId;
  if (runId === null && (input.phase === "resuming" || input.phase === "queued_follow_up")) {
    throw new TypeError(`renderTrackingComment: the "${input.phase}" phase is about an existing run, but the marker has no runId`);
  }
  const state = input.phase === "queued" || runId === null ? "queued" : "running";
  const { outcome: _finalOutcome, ...identity } = input.marker;
  const marker = renderMarker({ ...identity, state });
  // Only phrases about an existing run use the link.
  const link = runId === null ? md`` : runLink(runId, webUrl);
  const elapsed = formatElapsed(toMs(input.now) - toMs(input.startedAt)) as SafeMarkdown;
  const position = input.queuePosition !== undefined && Number.isInteger(input.queuePosition) && input.queuePosition > 0 ? (` (position ${input.queuePosition})` as SafeMarkdown) : md``;
  const followUps = Math.max(0, Math.floor(input.followUps ?? 0));

  const lines: SafeMarkdown[] = [];
  switch (input.phase) {
    case "queued":
      lines.push(
        runId === null
          ? md`⏳ **Queued**${position}: waiting for the Agent Run Service's rate budget. The run starts by itself.`
          : md`⏳ A follow-up for agent run ${link} is **queued**${position}: waiting for the Agent Run Service's rate budget.`,
      );
      break;
    case "starting":
      lines.push(runId === null ? md`🤖 Starting an agent run…` : md`🤖 Agent run ${link} started…`);
      break;
    case "running":
      lines.push(runId === null ? md`🤖 An agent run is working · ${elapsed} so far` : md`🤖 Agent run ${link} is working · ${elapsed} so far`);
      break;
    case "resuming": {
      const source = input.sourceType ?? input.marker.sourceType;
      const why =
        source === SOURCE.gitHostCheckSuite ? md`to fix the failing checks` : source === SOURCE.gitHostPrReview ? md`with this review` : md`with your follow-up`;
      lines.push(md`🔁 Resuming agent run ${link} ${why}…`);
      break;
    }
    case "queued_follow_up":
      lines.push(md`🤖 Agent run ${link} is still working · ${elapsed} so far`);
      break;
  }
  const step = input.currentStep && input.currentStep.length <= 2000 ? input.currentStep : null;
  if (step && (input.phase === "running" || input.phase === "queued_follow_up" || input.phase === "resuming")) {
    lines.push(md`**Now:** ${step}`);
  }
  if (input.phase === "queued_follow_up" || (followUps > 0 && input.phase !== "queued")) {
    lines.push(followUpNote(Math.max(1, followUps)));
  }
  if (input.orgDefaultRepository && input.phase !== "resuming" && input.phase !== "queued_follow_up") {
    lines.push(md`ℹ️ No \`repo_id\` is configured for this repository and the Agent Run Service did not list it, so the organization's default repository applies.`);
  }
  const note = triggerNote(input.sourceType ?? input.marker.sourceType, linkTarget(input.triggerUrl));
  const footer = note ? md`${note} · this comment updates as the run progresses.` : md`This comment updates as the run progresses.`;
  lines.push(sub(footer));
  return `${marker}\n${joinMarkdown(lines, "\n\n")}`;
}

// ---------------------------------------------------------------------------------------------
// Fitting agent text into the limit

/** A part of a body that can shrink: `render(n)` for n in [0, natural], larger n showing more. */
interface FlexibleBlock {
  natural: number;
  render(allowance: number): string;
}

/** The largest rendering of `block` within `budget` (binary search), or "" when even the smallest does not fit. */
function fitBlock(block: FlexibleBlock, budget: number): string {
  const full = block.render(block.natural);
  if (full.length <= budget) return full;
  let best = "";
  let low = 0;
  let high = block.natural - 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const rendered = block.render(mid);
    if (rendered.length <= budget) {
      best = rendered;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** Shares `budget` among blocks, smallest first, each taking at most an equal share of what is left. */
function fitBlocks(blocks: readonly FlexibleBlock[], budget: number): string[] {
  const full = blocks.map((block) => block.render(block.natural));
  if (full.reduce((sum, text) => sum + text.length, 0) <= budget) return full;
  const out = new Array<string>(blocks.length).fill("");
  const order = blocks.map((_, index) => index).sort((a, b) => full[a]!.length - full[b]!.length);
  let remaining = budget;
  order.forEach((index, position) => {
    const share = Math.floor(remaining / (order.length - position));
    out[index] = full[index]!.length <= share ? full[index]! : fitBlock(blocks[index]!, share);
    remaining -= out[index]!.length;
  });
  return out;
}

function textBlock(title: SafeMarkdown, text: string, cutNote: SafeMarkdown, triggerPhrase: string): FlexibleBlock {
  return {
    natural: text.length,
    render(allowance) {
      if (allowance <= 0) return "";
      const body = sanitizeMarkdown(truncateText(text, allowance), { triggerPhrase });
      const note = allowance < text.length ? `\n\n*… cut to fit in a comment: ${cutNote}.*` : "";
      return `${title}\n\n${body}${note}`;
    },
  };
}

/** The trace's errors: all of them when they fit, else each cut, else only the latest. */
function traceErrorsBlock(errors: readonly string[], cutNote: SafeMarkdown): FlexibleBlock {
  const minimumEach = 200;
  const total = errors.reduce((sum, error) => sum + error.length, 0);
  return {
    natural: total,
    render(allowance) {
      if (errors.length === 0) return "";
      const heading = `**${plural(errors.length, "error", "errors")}**`;
      let shown: string[];
      let hidden = 0;
      if (allowance >= total) {
        shown = [...errors];
      } else if (Math.floor(allowance / errors.length) >= minimumEach) {
        shown = errors.map((error) => truncateText(error, Math.floor(allowance / errors.length)));
      } else {
        const keep = Math.floor(allowance / minimumEach);
        shown = keep === 0 ? [] : errors.slice(-keep).map((error) => truncateText(error, minimumEach));
        hidden = errors.length - shown.length;
      }
      const parts = [heading];
      if (hidden > 0) parts.push(`*${plural(hidden, "earlier error is", "earlier errors are")} not shown: ${cutNote}.*`);
      for (const error of shown) parts.push(codeBlock(error, { language: "text" }));
      return parts.join("\n\n");
    },
  };
}

function traceStepsBlock(steps: readonly SafeMarkdown[]): FlexibleBlock {
  return {
    natural: steps.length,
    render(count) {
      if (steps.length === 0 || count <= 0) return "";
      const shown = steps.slice(-count);
      const heading = count < steps.length ? `**Last ${shown.length} of ${steps.length} steps**` : `**Last steps**`;
      return `${heading}\n\n${shown.map((step) => `- ${step}`).join("\n")}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Result comment

function pullRequestLines(prs: readonly GitHostPullRequest[], webUrl: string | null, triggerPhrase: string): SafeMarkdown | null {
  if (prs.length === 0) return null;
  const maxShown = 20;
  const lines = prs.slice(0, maxShown).map((pr) => {
    const title = pr.title?.trim() ? pr.title : "Pull request";
    const link = renderLink(title, linkTarget(pr.url), { maxLength: 200, triggerPhrase });
    const branch = pr.head_branch_name ? md` · ${inlineCode(pr.head_branch_name, { maxLength: 100 })}` : md``;
    return md`- ${link}${branch}`;
  });
  if (prs.length > maxShown) {
    const more = `- … and ${prs.length - maxShown} more` as SafeMarkdown;
    lines.push(webUrl ? md`${more} on [the run page](${webUrl as SafeMarkdown})` : more);
  }
  const heading = prs.length === 1 ? md`**Pull request**` : md`**Pull requests**`;
  return md`${heading}\n\n${joinMarkdown(lines, "\n")}`;
}

/** `CANCELLED` reads "cancelled", `STOPPED` (and anything else in the stopped class) "stopped". */
function stoppedVerb(status: string | null | undefined): SafeMarkdown {
  return /cancel/i.test(status ?? "") ? md`cancelled` : md`stopped`;
}

function headline(phase: RunPhase, link: SafeMarkdown, elapsed: SafeMarkdown, status: string | null | undefined): SafeMarkdown {
  switch (phase) {
    case "succeeded":
      return md`### ✅ Agent run ${link} succeeded`;
    case "failed":
      return md`### ❌ Agent run ${link} failed`;
    case "stopped":
      return md`### ⏹️ Agent run ${link} was ${stoppedVerb(status)}`;
    case "waiting_for_input":
      return md`### ⏸️ Agent run ${link} is waiting for your input`;
    case "in_progress":
      return md`### ⏳ Agent run ${link} is still running after ${elapsed}`;
    case "unknown":
      return md`### ❔ Agent run ${link} reports a status the bridge does not recognise`;
  }
}

function statusLine(input: ResultCommentInput, elapsed: SafeMarkdown, webUrl: string | null): SafeMarkdown {
  const status = input.run.status?.trim() ? inlineCode(input.run.status, { maxLength: 40 }) : md`(none)`;
  const page = webUrl ? md`[the run page](${webUrl as SafeMarkdown})` : md`the run page`;
  switch (input.phase) {
    case "in_progress":
      return md`Status ${status}. The bridge stopped watching it; follow it on ${page}. This comment will not update by itself.`;
    case "unknown":
      return md`Status ${status} after ${elapsed}. Check ${page} for its outcome.`;
    default:
      return md`Status ${status} · took ${elapsed}`;
  }
}

/** The tracking comment's final form: outcome, pull requests, summary, result and a collapsible trace. */
export function renderResultComment(input: ResultCommentInput): string {
  const maxLength = input.maxLength ?? GITHUB_COMMENT_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < MIN_RESULT_LENGTH || maxLength > GITHUB_COMMENT_MAX_LENGTH) {
    throw new RangeError(`renderResultComment: maxLength must be a whole number from ${MIN_RESULT_LENGTH} to ${GITHUB_COMMENT_MAX_LENGTH}, got ${String(maxLength)}`);
  }
  const { run, phase, triggerPhrase } = input;
  const webUrl = linkTarget(run.web_url);
  const marker = renderMarker(resultMarker(input.marker, run, phase));
  const link = runLink(run.id, webUrl);
  const elapsed = formatElapsed(toMs(input.finishedAt) - toMs(input.startedAt)) as SafeMarkdown;
  const cutNote = runPageNote(webUrl);
  const trace = input.trace ?? null;

  const head = md`${headline(phase, link, elapsed, run.status)}\n\n${statusLine(input, elapsed, webUrl)}`;
  const prs = pullRequestLines(run.git_host_pull_requests ?? [], webUrl, triggerPhrase);
  const hint = inlineCode(`${triggerPhrase.trim()} <instructions>`, { maxLength: 100 });
  const footer =
    phase === "waiting_for_input"
      ? sub(md`Reply with ${hint} to answer and continue this run.`)
      : phase === "in_progress"
        ? sub(md`Reply with ${hint} once it has finished to continue it.`)
        : sub(md`Reply with ${hint} to continue this run.`);

  // Agent text, in reading order. A failed run leads with its latest error.
  const blocks: FlexibleBlock[] = [];
  const latestError = phase === "failed" ? trace?.errors.at(-1) : undefined;
  if (latestError) blocks.push(errorHighlight(latestError, cutNote));
  const summary = run.summary?.trim() ?? "";
  const result = run.result?.trim() || trace?.finalAnswer?.trim() || "";
  if (summary) blocks.push(textBlock(md`**Summary**`, summary, cutNote, triggerPhrase));
  if (result && result !== summary) blocks.push(textBlock(md`**Result**`, result, cutNote, triggerPhrase));
  const traceBlocks = trace ? [traceErrorsBlock(trace.errors, cutNote), traceStepsBlock(trace.lastSteps)] : [];

  const traceSummary = trace
    ? `Trace: ${plural(trace.totalEntries, "log entry", "log entries")}${trace.errors.length > 0 ? `, ${plural(trace.errors.length, "error", "errors")}` : ""}`
    : "";
  const detailsOpen = `<details>\n<summary>${traceSummary}</summary>\n\n`;
  const detailsClose = "\n\n</details>";
  const emptyTrace = `*Nothing to show here: ${cutNote}.*`;

  const fixed = [marker, head, prs ?? "", footer].join("\n\n").length + (trace ? detailsOpen.length + detailsClose.length + emptyTrace.length + 2 : 0);
  // Separators between the flexible blocks and around the trace.
  const separators = 2 * (blocks.length + traceBlocks.length + 2);
  const budget = maxLength - fixed - separators;
  if (budget < 0) return minimalResult(marker, md`${headline(phase, link, elapsed, run.status)}`, cutNote, maxLength);

  const fitted = fitBlocks([...blocks, ...traceBlocks], budget);
  const agentParts = fitted.slice(0, blocks.length).filter((part) => part !== "");
  const traceParts = fitted.slice(blocks.length).filter((part) => part !== "");

  const parts: string[] = [marker, head];
  if (prs) parts.push(prs);
  parts.push(...agentParts);
  if (trace) parts.push(`${detailsOpen}${traceParts.length > 0 ? traceParts.join("\n\n") : emptyTrace}${detailsClose}`);
  parts.push(footer);
  const body = parts.join("\n\n");
  return body.length <= maxLength ? body : minimalResult(marker, md`${headline(phase, link, elapsed, run.status)}`, cutNote, maxLength);
}

function errorHighlight(error: string, cutNote: SafeMarkdown): FlexibleBlock {
  return {
    natural: error.length,
    render(allowance) {
      if (allowance <= 0) return "";
      const note = allowance < error.length ? `\n\n*… cut to fit in a comment: ${cutNote}.*` : "";
      return `**Error**\n\n${codeBlock(truncateText(error, allowance), { language: "text" })}${note}`;
    },
  };
}

/** When even the fixed parts do not fit (huge URLs, tiny limit): marker, headline, pointer. */
function minimalResult(marker: string, head: SafeMarkdown, cutNote: SafeMarkdown, maxLength: number): string {
  const body = `${marker}\n\n${head}\n\nThe result does not fit in a comment: ${cutNote}.`;
  return body.length <= maxLength ? body : `${marker}\n\nThe result does not fit in a comment: see the run page.`;
}

// ---------------------------------------------------------------------------------------------
// Short replies

const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** One short reply to someone who may not trigger the bot (they are mentioned, so they see it). */
export function renderRefusal(input: RefusalInput): string {
  const who = GITHUB_LOGIN.test(input.login) ? (`@${input.login}` as SafeMarkdown) : inlineCode(input.login, { maxLength: 60 });
  const reason = sanitizeInline(input.reason, { maxLength: 500 });
  const because = reason === "" ? md`.` : md`: ${reason}`;
  return `${renderKindMarker("refusal")}\n🚫 ${who}, I can't start the agent for you${because}`;
}

/** The repository's configuration file is invalid: nothing was started. */
export function renderConfigError(input: ConfigErrorInput): string {
  const maxShown = 30;
  const file = inlineCode(input.file, { maxLength: 200 });
  const errors = input.errors.slice(0, maxShown).map((error) => md`- ${sanitizeInline(error, { maxLength: 500 })}`);
  if (input.errors.length > maxShown) errors.push(`- … and ${input.errors.length - maxShown} more` as SafeMarkdown);
  const list = errors.length > 0 ? md`\n\n${joinMarkdown(errors, "\n")}` : md``;
  return `${renderKindMarker("config_error")}\n⚠️ **The agent configuration in ${file} is invalid**, so nothing was started.${list}\n\nFix the file on the default branch, then trigger the agent again.`;
}

/** The attempt cap was reached: the pull request goes back to the humans. */
export function renderHandBack(input: HandBackInput): string {
  const attempts = Math.max(0, Math.floor(input.attempts));
  const pr = input.prUrl && linkTarget(input.prUrl) ? renderLink("this pull request", linkTarget(input.prUrl)) : md`this pull request`;
  const again = input.triggerPhrase?.trim()
    ? md`Comment ${inlineCode(`${input.triggerPhrase.trim()} <what to do>`, { maxLength: 100 })} to ask me again.`
    : md`Ask me again in a comment if you want another try.`;
  const tries = plural(attempts, "time", "times") as SafeMarkdown;
  return `${renderKindMarker("hand_back")}\n🙋 I tried to fix ${pr} ${tries} and the checks still fail, so I am handing it back to you. I will not start new fix runs for it on my own. ${again}`;
}

const REDACTED = "[redacted]";

function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(/\b(Bearer|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`);
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** The service refused or failed (plan allowance used up, bad token…): say what to do, never the token. */
export function renderServiceError(input: ServiceErrorInput): string {
  const secrets = input.secrets ?? [];
  const message = sanitizeInline(redact(input.message, secrets), { maxLength: 500 });
  const whatToDo = sanitizeMarkdown(redact(input.whatToDo, secrets), { maxLength: 2000 });
  return `${renderKindMarker("service_error")}\n⚠️ **The agent could not run: ${message}**${whatToDo === "" ? "" : `\n\n${whatToDo}`}`;
}

/**
 * The public wording of a service failure. Deliberately leaves out the server's own words and the
 * request path: they belong in the logs, not in a public thread.
 */
export function serviceErrorForComment(error: unknown): { message: string; whatToDo: string } {
  if (error instanceof PaymentRequiredError) {
    return {
      message: "the organization's allowance for agent runs is used up (402).",
      whatToDo: "A maintainer needs to add credits or raise the plan on the Agent Run Service, then trigger the agent again.",
    };
  }
  if (error instanceof AuthenticationError) {
    return {
      message: "the Agent Run Service rejected the bridge's API token (401).",
      whatToDo: "A maintainer needs to replace the API token the bridge is configured with (for the Action, the secret passed as `api-token`).",
    };
  }
  if (error instanceof PermissionError) {
    return {
      message: "the API token has no access to the configured organization (403).",
      whatToDo: "A maintainer needs to check the organization id and what the token may access.",
    };
  }
  if (error instanceof RateLimitError || error instanceof DeadlineError) {
    return { message: "the Agent Run Service is busy (rate limit).", whatToDo: "Try again in a few minutes." };
  }
  if (error instanceof ServerError || error instanceof NetworkError || error instanceof TimeoutError) {
    return {
      message: "the Agent Run Service could not be reached or failed.",
      whatToDo: "Try again later. If it keeps happening, tell a maintainer.",
    };
  }
  if (error instanceof NotFoundError) {
    return { message: "the run was not found on the Agent Run Service (404).", whatToDo: "Start a new run instead." };
  }
  if (error instanceof BadRequestError || error instanceof UnprocessableError || error instanceof RequestValidationError) {
    // Field names are the bridge's own request fields, safe to show; the server's sentences are not.
    const fields = error.rejectedFields.filter((field) => /^[A-Za-z_][\w.]{0,40}$/.test(field));
    return {
      message: fields.length > 0 ? `the Agent Run Service rejected the request's ${fields.join(", ")}.` : "the Agent Run Service rejected the request.",
      whatToDo: "A maintainer should check the agent configuration (model, agent type, repository id).",
    };
  }
  if (error instanceof AgentRunError) {
    return { message: "the Agent Run Service refused the request.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
  }
  return { message: "an unexpected error stopped it.", whatToDo: "Try again. If it keeps happening, tell a maintainer." };
}

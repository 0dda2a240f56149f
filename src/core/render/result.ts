/**
 * The result comment, the tracking comment's final form: outcome, pull requests, summary, result and
 * a collapsible trace, its marker `done` with the outcome. Every piece of agent text goes through
 * sanitize-output and is cut to fit (fit.ts) with a visible note pointing at the run page.
 */
import type { RunPhase } from "../../service/status.js";
import type { AgentRun, GitHostPullRequest } from "../../service/wire.js";
import type { RunMarker } from "../markers/schema.js";
import { outcomeForPhase, renderMarker, resultMarker } from "../markers/write.js";
import { codeBlock, inlineCode } from "../sanitize-output/code.js";
import { joinMarkdown, md, type SafeMarkdown, truncateText } from "../sanitize-output/safe-markdown.js";
import { renderLink } from "../sanitize-output/links.js";
import { sanitizeInline, sanitizeMarkdown } from "../sanitize-output/prose.js";
import type { TraceDigest } from "../trace.js";
import type { ImageHosts } from "../sanitize-output/image-hosts.js";
import { fitBlocks, GITHUB_COMMENT_MAX_LENGTH, MIN_RESULT_LENGTH, type CommentBody, type FlexibleBlock } from "./fit.js";
import { formatElapsed, linkTarget, plural, runLink, runPageNote, sub, toMs, type TimeInput } from "./pieces.js";

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
  /** Hosts whose images render in the summary and the result (default: github.com's). */
  imageHosts?: ImageHosts;
  /** A line under the headline (review mode: where the review is, or why none could be read). */
  notice?: SafeMarkdown;
}

function textBlock(title: SafeMarkdown, text: string, cutNote: SafeMarkdown, options: AgentTextOptions): FlexibleBlock {
  return {
    natural: text.length,
    render(allowance) {
      if (allowance <= 0) return "";
      const body = sanitizeMarkdown(truncateText(text, allowance), options);
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

/**
 * The footer: how to continue the run, worded for a run that waits for an answer or is still running;
 * an automation's run says which automation started it.
 */
function continueHint(phase: RunPhase, triggerPhrase: string, automation?: string): SafeMarkdown {
  const hint = inlineCode(`${triggerPhrase.trim()} <instructions>`, { maxLength: 100 });
  const by = automation ? md`Started by this repository's automation **${sanitizeInline(automation)}** · ` : md``;
  return phase === "waiting_for_input"
    ? sub(md`${by}Reply with ${hint} to answer and continue this run.`)
    : phase === "in_progress"
      ? sub(md`${by}Reply with ${hint} once it has finished to continue it.`)
      : sub(md`${by}Reply with ${hint} to continue this run.`);
}

/** Agent text, in reading order. A failed run leads with its latest error; a result that repeats the summary is left out. */
interface AgentTextOptions {
  triggerPhrase: string;
  imageHosts?: ImageHosts;
}

function agentTextBlocks(
  run: AgentRun,
  phase: RunPhase,
  trace: TraceDigest | null,
  cutNote: SafeMarkdown,
  options: AgentTextOptions,
): FlexibleBlock[] {
  const blocks: FlexibleBlock[] = [];
  const latestError = phase === "failed" ? trace?.errors.at(-1) : undefined;
  if (latestError) blocks.push(errorHighlight(latestError, cutNote));
  const summary = run.summary?.trim() ?? "";
  const result = run.result?.trim() || trace?.finalAnswer?.trim() || "";
  if (summary) blocks.push(textBlock(md`**Summary**`, summary, cutNote, options));
  if (result && result !== summary) blocks.push(textBlock(md`**Result**`, result, cutNote, options));
  return blocks;
}

/** The tracking comment's final form: outcome, pull requests, summary, result and a collapsible trace. */
/**
 * The last words of a follow-up that reached a working agent (`follow_up: interrupt`), written by the
 * Action's step that sent it: the run's own comment carries the result, so this one only closes the
 * loop (the run's headline, the follow-up quoted), never a second copy of the result.
 */
export function renderDeliveredFollowUp(input: {
  marker: RunMarker;
  run: AgentRun;
  phase: RunPhase;
  firstLine: string;
  startedAt: TimeInput;
  finishedAt: TimeInput;
  /** A `/agent review` follow-up: where the review its step posted is (as a review run's result says it). */
  notice?: SafeMarkdown;
}): string {
  const webUrl = linkTarget(input.run.web_url);
  const marker = renderMarker({ ...input.marker, runId: input.run.id, state: "done", outcome: outcomeForPhase(input.phase) });
  const elapsed = formatElapsed(toMs(input.finishedAt) - toMs(input.startedAt)) as SafeMarkdown;
  const quote = input.firstLine ? md`\n> ${sanitizeInline(input.firstLine)}` : md``;
  const lines: SafeMarkdown[] = [
    headline(input.phase, runLink(input.run.id, webUrl), elapsed, input.run.status),
    md`💬 Your follow-up reached the agent while it worked:${quote}`,
    ...(input.notice ? [input.notice] : []),
    sub(md`The run's result is in its tracking comment in this thread.`),
  ];
  return `${marker}\n${joinMarkdown(lines, "\n\n")}`;
}

export function renderResultComment(input: ResultCommentInput): string {
  const maxLength = input.maxLength ?? GITHUB_COMMENT_MAX_LENGTH;
  if (!Number.isInteger(maxLength) || maxLength < MIN_RESULT_LENGTH || maxLength > GITHUB_COMMENT_MAX_LENGTH) {
    throw new RangeError(
      `renderResultComment: maxLength must be a whole number from ${MIN_RESULT_LENGTH} to ${GITHUB_COMMENT_MAX_LENGTH}, got ${String(maxLength)}`,
    );
  }
  const { run, phase, triggerPhrase } = input;
  const webUrl = linkTarget(run.web_url);
  const marker = renderMarker(resultMarker(input.marker, run, phase));
  const link = runLink(run.id, webUrl);
  const elapsed = formatElapsed(toMs(input.finishedAt) - toMs(input.startedAt)) as SafeMarkdown;
  const cutNote = runPageNote(webUrl);
  const trace = input.trace ?? null;

  const status = md`${headline(phase, link, elapsed, run.status)}\n\n${statusLine(input, elapsed, webUrl)}`;
  const head = input.notice ? md`${status}\n\n${input.notice}` : status;
  const prs = pullRequestLines(run.git_host_pull_requests ?? [], webUrl, triggerPhrase);
  const footer = continueHint(phase, triggerPhrase, input.marker.automation);

  const imageHosts = input.imageHosts;
  const blocks = agentTextBlocks(run, phase, trace, cutNote, imageHosts ? { triggerPhrase, imageHosts } : { triggerPhrase });
  const traceBlocks = trace ? [traceErrorsBlock(trace.errors, cutNote), traceStepsBlock(trace.lastSteps)] : [];

  const traceSummary = trace
    ? `Trace: ${plural(trace.totalEntries, "log entry", "log entries")}${trace.errors.length > 0 ? `, ${plural(trace.errors.length, "error", "errors")}` : ""}`
    : "";
  const detailsOpen = `<details>\n<summary>${traceSummary}</summary>\n\n`;
  const detailsClose = "\n\n</details>";
  const emptyTrace = `*Nothing to show here: ${cutNote}.*`;

  const fixed =
    [marker, head, prs ?? "", footer].join("\n\n").length + (trace ? detailsOpen.length + detailsClose.length + emptyTrace.length + 2 : 0);
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

/** The result comment as a body the writer can render again with less room (see redactToFit). */
export function resultCommentBody(input: Omit<ResultCommentInput, "maxLength">): CommentBody {
  return (maxLength) =>
    renderResultComment({ ...input, maxLength: Math.min(GITHUB_COMMENT_MAX_LENGTH, Math.max(MIN_RESULT_LENGTH, maxLength)) });
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

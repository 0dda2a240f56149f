/**
 * What the step reports, decided from its outcome: the outputs (every one, always) and the job
 * summary (Markdown within GitHub's 1 MiB per step). Pure: door.ts redacts and writes them through
 * @actions/core. Agent text goes through the same output sanitiser as comments.
 */
import { formatElapsed } from "../core/render/pieces.js";
import { inlineCode } from "../core/sanitize-output/code.js";
import { renderLink } from "../core/sanitize-output/links.js";
import { sanitizeMarkdown } from "../core/sanitize-output/prose.js";
import type { ImageHosts } from "../core/sanitize-output/image-hosts.js";
import { truncateText, type SafeMarkdown } from "../core/sanitize-output/safe-markdown.js";
import type { RunPhase } from "../service/status.js";
import type { AgentRun, GitHostPullRequest } from "../service/wire.js";

/** GitHub's limit for one step's job summary. */
export const JOB_SUMMARY_MAX_BYTES = 1024 * 1024;

export const OUTPUT_NAMES = ["run-id", "status", "web-url", "result", "summary", "pull-requests", "comment-id", "resumed"] as const;
type OutputName = (typeof OUTPUT_NAMES)[number];
export type ActionOutputs = Record<OutputName, string>;

/** How the step ended, as far as reporting goes. */
export type ActionOutcome =
  | { kind: "ignored"; reason: string }
  /** One reply and no run: refused, handed back, over a spend limit, or a `/agent stop` handled. */
  | { kind: "refused" | "handed_back" | "over_limit" | "stopped"; reason: string; comment: PostedComment | null }
  | {
      kind: "run";
      run: AgentRun;
      resumed: boolean;
      /**
       * `started`: `wait: false`; `finished`: a final status; `timed_out`: still going at the deadline;
       * `stopped`: someone said `/agent stop` and the watch ended (the run may go on).
       */
      watch: "started" | "finished" | "timed_out" | "stopped";
      phase: RunPhase;
      comment: PostedComment | null;
      startedAt: number;
      endedAt: number;
    }
  | { kind: "error"; message: string; run: AgentRun | null; resumed: boolean; comment: PostedComment | null }
  /** The job was cancelled (or hit its `timeout-minutes`) while the step worked; the run, if any, goes on. */
  | { kind: "cancelled"; signal: string; run: AgentRun | null; resumed: boolean; comment: PostedComment | null };

export interface PostedComment {
  id: number;
  url: string;
}

/** The pull requests as the `pull-requests` output lists them: the spec's fields, nothing else. */
export function pullRequestsJson(prs: readonly GitHostPullRequest[] | null | undefined): string {
  return JSON.stringify(
    (prs ?? []).map((pr) => ({
      id: pr.id ?? null,
      title: pr.title ?? null,
      url: pr.url ?? null,
      created_at: pr.created_at ?? null,
      head_branch_name: pr.head_branch_name ?? null,
    })),
  );
}

/**
 * GitHub keeps at most 1 MB of outputs per job: the agent's texts are cut to fit beside each other
 * (the full text stays on the run page and in the job summary).
 */
const OUTPUT_TEXT_MAX_BYTES = { result: 400_000, summary: 200_000 } as const;

/** `text` cut to at most `maxBytes` of UTF-8, ending with "…" when cut, never inside a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  const ellipsis = "…";
  let cut = Buffer.from(text, "utf8")
    .subarray(0, Math.max(0, maxBytes - Buffer.byteLength(ellipsis)))
    .toString("utf8");
  // A character split by the byte cut decodes as U+FFFD: drop it.
  cut = cut.replace(/\uFFFD+$/, "");
  return cut + ellipsis;
}

const EMPTY_OUTPUTS: ActionOutputs = {
  "run-id": "",
  status: "",
  "web-url": "",
  result: "",
  summary: "",
  "pull-requests": "",
  "comment-id": "",
  resumed: "",
};

/** The outputs; `redact` (action/door.ts) runs on every text before it is cut to size. */
export function outputsFor(outcome: ActionOutcome, redact: (text: string) => string = (text) => text): ActionOutputs {
  switch (outcome.kind) {
    case "ignored":
      return { ...EMPTY_OUTPUTS };
    case "refused":
    case "handed_back":
    case "over_limit":
    case "stopped":
      return { ...EMPTY_OUTPUTS, "comment-id": outcome.comment ? String(outcome.comment.id) : "" };
    case "run":
    case "error":
    case "cancelled": {
      const run = outcome.run;
      return {
        "run-id": run ? String(run.id) : "",
        status: redact(run?.status ?? ""),
        "web-url": redact(run?.web_url ?? ""),
        result: truncateUtf8(redact(run?.result ?? ""), OUTPUT_TEXT_MAX_BYTES.result),
        summary: truncateUtf8(redact(run?.summary ?? ""), OUTPUT_TEXT_MAX_BYTES.summary),
        "pull-requests": run ? redact(pullRequestsJson(run.git_host_pull_requests)) : "",
        "comment-id": outcome.comment ? String(outcome.comment.id) : "",
        resumed: run ? String(outcome.resumed) : "",
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Job summary

export interface SummaryContext {
  /** Where the run came from, e.g. "acme/widgets#7" with its URL, or null. */
  thread: { label: string; url: string } | null;
  /** Shown in the "reply with …" hint and neutralised in agent text. */
  triggerPhrase: string;
  /** Where agent text's images may come from (the server's own hosts on GitHub Enterprise Server); github.com's when absent. */
  imageHosts?: ImageHosts;
}

function headline(outcome: Extract<ActionOutcome, { kind: "run" }>): string {
  const id = `#${outcome.run.id}`;
  if (outcome.watch === "started") return `▶️ Agent run ${id} ${outcome.resumed ? "resumed" : "started"}`;
  if (outcome.watch === "timed_out")
    return `⏳ Agent run ${id} is still running after ${formatElapsed(outcome.endedAt - outcome.startedAt)}`;
  if (outcome.watch === "stopped") return `⏹️ Stopped watching agent run ${id} (\`stop\` from the thread)`;
  switch (outcome.phase) {
    case "succeeded":
      return `✅ Agent run ${id} succeeded`;
    case "failed":
      return `❌ Agent run ${id} failed`;
    case "waiting_for_input":
      return `⏸️ Agent run ${id} is waiting for input`;
    case "stopped":
      return `⏹️ Agent run ${id} was ${/cancel/i.test(outcome.run.status ?? "") ? "cancelled" : "stopped"}`;
    default:
      return `❔ Agent run ${id} ended with a status the bridge does not recognise`;
  }
}

const row = (label: string, value: SafeMarkdown | string) => `| ${label} | ${value} |`;

const utf8Bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * A sanitised rendering of `text` that fits `maxBytes`: all of it when it fits, else a cut whose
 * length is estimated from the bytes per character of the last rendering (a few renderings, not a
 * search: agent results can be megabytes).
 */
function fitText(text: string, maxBytes: number, triggerPhrase: string, imageHosts: ImageHosts | undefined): string {
  const render = (chars: number) => sanitizeMarkdown(truncateText(text, chars), { triggerPhrase, ...(imageHosts ? { imageHosts } : {}) });
  // A character is at least one byte, so more than `maxBytes` characters never fit.
  let chars = Math.min(text.length, maxBytes);
  for (let attempt = 0; attempt < 8 && chars > 0; attempt++) {
    const candidate = render(chars);
    const bytes = utf8Bytes(candidate);
    if (bytes <= maxBytes) return candidate;
    chars = Math.floor((chars * maxBytes * 0.97) / bytes);
  }
  return "";
}

const REPLY_TITLES = {
  refused: "🚫 Agent run refused",
  handed_back: "🙋 Pull request handed back",
  over_limit: "⏸️ Agent run held back by a spend limit",
  stopped: "⏹️ Agent stopped in this thread",
} as const;

/** The job summary's Markdown, or "" when there is nothing to say (an ignored event stays quiet). */
export function renderJobSummary(outcome: ActionOutcome, context: SummaryContext, maxBytes: number = JOB_SUMMARY_MAX_BYTES): string {
  const thread = context.thread ? renderLink(context.thread.label, context.thread.url) : null;
  const commentLink = (comment: PostedComment | null) => (comment ? renderLink("the bot's comment", comment.url) : null);
  switch (outcome.kind) {
    case "ignored":
      return "";
    case "refused":
    case "handed_back":
    case "over_limit":
    case "stopped": {
      const title = REPLY_TITLES[outcome.kind];
      const lines = [`## ${title}`, "", sanitizeMarkdown(outcome.reason, { triggerPhrase: context.triggerPhrase })];
      const where = [thread, commentLink(outcome.comment)].filter(Boolean).join(" · ");
      if (where) lines.push("", where);
      return `${lines.join("\n")}\n`;
    }
    case "error": {
      const lines = [
        `## ⚠️ Agent run ${outcome.run ? `#${outcome.run.id} ` : ""}could not be completed`,
        "",
        sanitizeMarkdown(outcome.message, { triggerPhrase: context.triggerPhrase }),
      ];
      if (outcome.run?.web_url) lines.push("", renderLink("Open the run", outcome.run.web_url));
      const where = [thread, commentLink(outcome.comment)].filter(Boolean).join(" · ");
      if (where) lines.push("", where);
      return `${lines.join("\n")}\n`;
    }
    case "cancelled": {
      const run = outcome.run;
      const lines = [`## ⏹️ The job was cancelled${run ? `; agent run #${run.id} goes on` : ""}`, ""];
      lines.push(
        run
          ? `The step stopped watching when the runner sent ${outcome.signal}. The service has no cancel call: the run keeps working. Reply with ${inlineCode(`${context.triggerPhrase.trim()} <instructions>`, { maxLength: 100 })} in the thread to continue it.`
          : `The step was stopped (${outcome.signal}) before a run was started; nothing was sent to the service.`,
      );
      if (run?.web_url) lines.push("", renderLink("Open the run", run.web_url));
      const where = [thread, commentLink(outcome.comment)].filter(Boolean).join(" · ");
      if (where) lines.push("", where);
      return `${lines.join("\n")}\n`;
    }
    case "run":
      return renderRunSummary(outcome, context, thread, commentLink(outcome.comment), maxBytes);
  }
}

function renderRunSummary(
  outcome: Extract<ActionOutcome, { kind: "run" }>,
  context: SummaryContext,
  thread: SafeMarkdown | null,
  comment: SafeMarkdown | null,
  maxBytes: number,
): string {
  const { run } = outcome;
  const table = ["| | |", "|---|---|", row("Status", run.status ? inlineCode(run.status, { maxLength: 60 }) : "(none)")];
  table.push(row("Run", run.web_url ? renderLink(`#${run.id}`, run.web_url) : `#${run.id}`));
  table.push(row("Started as", outcome.resumed ? "a follow-up to an existing run (resumed)" : "a new run"));
  if (outcome.watch !== "started") table.push(row("Watched for", formatElapsed(outcome.endedAt - outcome.startedAt)));
  if (thread) table.push(row("Thread", comment ? `${thread} · ${comment}` : thread));

  const head = [`## ${headline(outcome)}`, "", ...table];
  if (outcome.watch === "timed_out")
    head.push("", "The run keeps going on the service; the step stopped watching it at `timeout-minutes`.");
  if (outcome.watch === "stopped")
    head.push(
      "",
      "Someone stopped it from the thread. The service has no cancel call, so the run may keep going: stop it on the run page.",
    );
  if (outcome.watch === "started") head.push("", "Not waited for (`wait: false`): follow it on the run page.");

  const prs = run.git_host_pull_requests ?? [];
  if (prs.length > 0) {
    head.push("", "### Pull requests", "");
    for (const pr of prs.slice(0, 50)) {
      const link = renderLink(pr.title?.trim() || "Pull request", pr.url, { maxLength: 200, triggerPhrase: context.triggerPhrase });
      head.push(`- ${link}${pr.head_branch_name ? ` · ${inlineCode(pr.head_branch_name, { maxLength: 100 })}` : ""}`);
    }
    if (prs.length > 50) head.push(`- … and ${prs.length - 50} more on the run page`);
  }
  const fixed = `${head.join("\n")}\n`;
  const texts: Array<{ title: string; text: string }> = [];
  const summary = run.summary?.trim() ?? "";
  const result = run.result?.trim() ?? "";
  if (summary) texts.push({ title: "Summary", text: summary });
  if (result && result !== summary) texts.push({ title: "Result", text: result });

  const overhead = texts.reduce((sum, part) => sum + utf8Bytes(`\n### ${part.title}\n\n\n`), 0) + 256;
  let budget = maxBytes - utf8Bytes(fixed) - overhead;
  const blocks: string[] = [];
  texts.forEach((part, index) => {
    const share = Math.floor(budget / (texts.length - index));
    const fitted = share > 0 ? fitText(part.text, share, context.triggerPhrase, context.imageHosts) : "";
    budget -= utf8Bytes(fitted);
    if (fitted) blocks.push(`\n### ${part.title}\n\n${fitted}\n`);
  });
  return fixed + blocks.join("");
}

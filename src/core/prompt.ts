/**
 * Prompts per flow, built from plain data the shell fetched (thread, comments, review comments,
 * failed checks). Every piece of user-controlled text goes through `sanitizeUserText`; every
 * list and text is bounded, and so is the whole prompt, with a visible marker where something
 * was cut. The repository's `instructions` close every prompt.
 */
import { classifyActor } from "./actors.js";
import type { PullRequestRef, RepoRef, ReviewCommentRef, ThreadKind, ThreadRef } from "./events/types.js";
import { classifyLines, sanitizeUserText, stripAnsiEscapes, stripInvisibleCharacters, normalizeNewlines, truncate } from "./sanitize-input.js";

// ---------------------------------------------------------------------------------------------
// Limits

export interface PromptLimits {
  /** The whole prompt. */
  totalChars: number;
  /** The user's instruction (an explicit dispatch prompt included). */
  instructionChars: number;
  /** An issue or pull request description. */
  threadBodyChars: number;
  /** Recent comments shown, newest last. */
  comments: number;
  commentChars: number;
  reviewComments: number;
  diffHunkChars: number;
  checks: number;
  checkSummaryChars: number;
  annotationsPerCheck: number;
  annotationChars: number;
  /** Log excerpt per failed job; the end is kept (errors come last). */
  logExcerptChars: number;
}

export const DEFAULT_PROMPT_LIMITS: PromptLimits = {
  totalChars: 60_000,
  instructionChars: 20_000,
  threadBodyChars: 8_000,
  comments: 20,
  commentChars: 3_000,
  reviewComments: 30,
  diffHunkChars: 1_500,
  checks: 10,
  checkSummaryChars: 2_000,
  annotationsPerCheck: 10,
  annotationChars: 500,
  logExcerptChars: 6_000,
};

export interface PromptOptions {
  /** The repository's `instructions`, appended to every prompt. */
  instructions?: string;
  limits?: Partial<PromptLimits>;
  /** The bridge's own logins: their comments are never context (besides bots, which are dropped anyway). */
  botLogins?: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Context the shell fills

export interface ThreadComment {
  id?: number;
  author: string;
  /** `User`, `Bot`… Bots' comments are left out. */
  authorType?: string | null;
  body: string;
  createdAt?: string | null;
  url?: string | null;
}

export interface PullRequestDetails {
  url: string;
  baseRef: string;
  headRef: string;
  /** `owner/name` of the head repository, when it is a fork. */
  headRepoFullName?: string | null;
  isFork?: boolean;
}

export interface ThreadContext {
  /** `owner/name`. */
  repository: string;
  kind: ThreadKind;
  number: number;
  url: string;
  title: string;
  body: string;
  author?: string | null;
  /** The thread's comments in the order GitHub lists them (oldest first); only the newest are used. */
  comments?: readonly ThreadComment[];
  /** Comments the shell already left out (older ones beyond what it fetched), for "the last N of M". */
  omittedComments?: number;
  /** Set for pull requests. */
  pullRequest?: PullRequestDetails | null;
}

export interface ReviewContext {
  author: string;
  /** `changes_requested`, `commented`, `approved`. */
  state: string;
  body: string;
  url: string;
}

export interface ReviewCommentContext {
  id?: number;
  author: string;
  path: string;
  line?: number | null;
  startLine?: number | null;
  diffHunk?: string | null;
  body: string;
  url?: string | null;
}

export interface CheckAnnotation {
  path: string;
  startLine?: number | null;
  endLine?: number | null;
  /** `failure`, `warning`, `notice`. */
  level?: string | null;
  title?: string | null;
  message: string;
}

/** A failed check run (check suite flow) or job (workflow run flow). */
export interface FailedCheckContext {
  name: string;
  conclusion: string | null;
  url?: string | null;
  /** Check run output. */
  title?: string | null;
  summary?: string | null;
  annotations?: readonly CheckAnnotation[];
  /** Names of the failed steps of a workflow job. */
  failedSteps?: readonly string[];
  /** Raw job log (or its tail); the end is kept. */
  logExcerpt?: string | null;
}

export interface CheckFailureContext {
  repository: string;
  pullRequest: { number: number; url: string; title?: string | null; headRef: string; baseRef?: string | null };
  headSha: string;
  /** The workflow run or the checks page. */
  runName?: string | null;
  runUrl?: string | null;
  failures: readonly FailedCheckContext[];
  /** This attempt and the limit (`check_suite.max_attempts`). */
  attempt?: { number: number; max: number };
}

export type PromptInput =
  | { flow: "comment"; instruction: string; requester: string; commentUrl: string; commentId?: number; thread: ThreadContext }
  | { flow: "label"; label: string; requester: string; thread: ThreadContext }
  | {
      flow: "review";
      instruction: string;
      requester: string;
      thread: ThreadContext;
      review: ReviewContext | null;
      reviewComments: readonly ReviewCommentContext[];
      /** The review comment holding the trigger, when that is what started the run. */
      triggerCommentUrl?: string | null;
    }
  | ({ flow: "check_suite" | "workflow_run" } & CheckFailureContext)
  | { flow: "dispatch"; prompt: string; thread?: ThreadContext | null };

// ---------------------------------------------------------------------------------------------
// Helpers

const limitsOf = (options: PromptOptions): PromptLimits => ({ ...DEFAULT_PROMPT_LIMITS, ...options.limits });

const cut = (text: string, max: number, what: string) => truncate(text, max, `\n[… ${what} truncated …]`);

/** User text as it appears on GitHub, bounded. */
const userText = (text: string | null | undefined, max: number, what: string) => cut(sanitizeUserText(text), max, what);

/** One-line plain text (titles, names, paths): invisible characters and newlines removed. */
const oneLine = (text: string | null | undefined, max = 300) =>
  truncate(stripInvisibleCharacters(normalizeNewlines(text ?? "")).replace(/\s+/g, " ").trim(), max, "…");

/** A fenced block that its content cannot close. */
function fenced(content: string, language = ""): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${content}\n${fence}`;
}

const threadNoun = (kind: ThreadKind) => (kind === "pull_request" ? "pull request" : "issue");

function isBotComment(comment: ThreadComment, botLogins: readonly string[]): boolean {
  return classifyActor({ login: comment.author, type: comment.authorType }, { botLogins }) !== "person";
}

function threadSection(thread: ThreadContext, options: PromptOptions, exclude: { id?: number; url?: string } = {}): string {
  const limits = limitsOf(options);
  const noun = threadNoun(thread.kind);
  const lines = [`## ${noun === "issue" ? "Issue" : "Pull request"} ${thread.repository}#${thread.number}: ${oneLine(thread.title)}`, `URL: ${thread.url}`];
  const pr = thread.pullRequest;
  if (pr) {
    const from = pr.isFork && pr.headRepoFullName ? ` (from the fork ${pr.headRepoFullName})` : "";
    lines.push(`Branches: \`${oneLine(pr.headRef)}\`${from} into \`${oneLine(pr.baseRef)}\``);
  }
  const body = userText(thread.body, limits.threadBodyChars, "description");
  lines.push("", `### Description${thread.author ? ` (by @${thread.author})` : ""}`, body === "" ? "(no description)" : body);

  const human = (thread.comments ?? []).filter(
    (comment) =>
      !isBotComment(comment, options.botLogins ?? []) &&
      !(exclude.id !== undefined && comment.id === exclude.id) &&
      !(exclude.url && comment.url === exclude.url),
  );
  const recent = human.slice(-limits.comments);
  if (recent.length > 0) {
    const total = human.length + Math.max(0, thread.omittedComments ?? 0);
    const shown = recent.length < total ? `, the last ${recent.length} of ${total}` : "";
    lines.push("", `### Comments (oldest first${shown})`);
    for (const comment of recent) {
      const when = comment.createdAt ? ` at ${comment.createdAt}` : "";
      const text = userText(comment.body, limits.commentChars, "comment");
      lines.push("", `#### @${comment.author}${when}`, text === "" ? "(empty)" : text);
    }
  }
  return lines.join("\n");
}

function reviewSection(review: ReviewContext | null, comments: readonly ReviewCommentContext[], options: PromptOptions): string {
  const limits = limitsOf(options);
  const lines: string[] = [];
  if (review) {
    const body = userText(review.body, limits.commentChars, "review");
    lines.push(`## Review by @${review.author} (${review.state.replace(/_/g, " ")})`, `URL: ${review.url}`, body === "" ? "(no summary)" : body);
  }
  const shown = comments.slice(0, limits.reviewComments);
  if (shown.length > 0) {
    const more = shown.length < comments.length ? ` (the first ${shown.length} of ${comments.length})` : "";
    lines.push("", `## Inline comments${more}`);
    for (const comment of shown) {
      const range = comment.startLine && comment.line && comment.startLine !== comment.line ? `${comment.startLine}-${comment.line}` : comment.line;
      const where = `${oneLine(comment.path)}${range ? `:${range}` : ""}`;
      lines.push("", `### ${where} (by @${comment.author})`);
      if (comment.url) lines.push(`URL: ${comment.url}`);
      if (comment.diffHunk) {
        // The commented line is at the end of the hunk: keep the end.
        const hunk = truncate(stripInvisibleCharacters(normalizeNewlines(comment.diffHunk)), limits.diffHunkChars, "[… earlier lines of the hunk truncated …]\n", "tail");
        lines.push(fenced(hunk, "diff"));
      }
      lines.push(userText(comment.body, limits.commentChars, "comment"));
    }
  }
  return lines.join("\n").trim();
}

function checkFailureSection(ci: CheckFailureContext, options: PromptOptions): string {
  const limits = limitsOf(options);
  const lines: string[] = [];
  const failures = ci.failures.slice(0, limits.checks);
  if (failures.length === 0) lines.push("(The bridge could not read which checks failed: open the link above.)");
  // Said first: the end of a long section is what the overall bound cuts.
  if (ci.failures.length > failures.length) lines.push(`${ci.failures.length} checks failed; the first ${failures.length} are shown.`);
  for (const check of failures) {
    lines.push("", `## Failed: ${oneLine(check.name)} (${check.conclusion ?? "failed"})`);
    if (check.url) lines.push(`URL: ${check.url}`);
    if (check.title) lines.push(`Title: ${oneLine(check.title)}`);
    if (check.failedSteps && check.failedSteps.length > 0) lines.push(`Failed steps: ${check.failedSteps.map((step) => oneLine(step, 200)).join(", ")}`);
    const summary = userText(check.summary, limits.checkSummaryChars, "summary");
    if (summary) lines.push("Summary:", summary);
    const annotations = check.annotations ?? [];
    if (annotations.length > 0) {
      const shown = annotations.slice(0, limits.annotationsPerCheck);
      lines.push(`Annotations${shown.length < annotations.length ? ` (the first ${shown.length} of ${annotations.length})` : ""}:`);
      for (const note of shown) {
        const range = note.startLine ? `:${note.startLine}${note.endLine && note.endLine !== note.startLine ? `-${note.endLine}` : ""}` : "";
        const title = note.title ? `${oneLine(note.title, 200)}: ` : "";
        const message = oneLine(sanitizeUserText(note.message), limits.annotationChars);
        lines.push(`- ${oneLine(note.path)}${range}${note.level ? ` (${note.level})` : ""}: ${title}${message}`);
      }
    }
    if (check.logExcerpt) {
      const log = stripInvisibleCharacters(stripAnsiEscapes(normalizeNewlines(check.logExcerpt))).trimEnd();
      lines.push("Log (end):", fenced(truncate(log, limits.logExcerptChars, "[… earlier log lines truncated …]\n", "tail"), "text"));
    }
  }
  return lines.join("\n").trim();
}

function checkFailureHeader(ci: CheckFailureContext & { flow: string }, again: boolean): string {
  const pr = ci.pullRequest;
  const title = pr.title ? ` "${oneLine(pr.title)}"` : "";
  const what = ci.runName ? `The workflow "${oneLine(ci.runName)}"` : "CI";
  const lines = [
    `${what} ${again ? "failed again" : "failed"} on pull request ${ci.repository}#${pr.number}${title} (${pr.url}), branch \`${oneLine(pr.headRef)}\`${pr.baseRef ? ` into \`${oneLine(pr.baseRef)}\`` : ""}, commit ${ci.headSha.slice(0, 12)}.`,
    "Find the cause of each failure below, fix it on the pull request's branch and push. Do not disable or skip the failing checks.",
  ];
  if (ci.runUrl) lines.push(`Run: ${ci.runUrl}`);
  if (ci.attempt) lines.push(`This is fix attempt ${ci.attempt.number} of ${ci.attempt.max}.`);
  return lines.join("\n");
}

function instructionText(instruction: string, options: PromptOptions): string {
  return cut(sanitizeUserText(instruction), limitsOf(options).instructionChars, "instruction");
}

export const PROMPT_TRUNCATION_MARKER = (max: number) =>
  `\n\n[… context truncated by agent-run-bridge to keep the prompt within ${max} characters …]\n\n`;

/** Joins the parts, cutting the context (never the instruction first) so that the total fits. */
function fit(head: string, context: string, options: PromptOptions): string {
  const limits = limitsOf(options);
  const instructions = sanitizeUserText(options.instructions);
  const tail = instructions ? `\n\n## Repository instructions\n${instructions}` : "";
  const separator = context ? "\n\n" : "";
  const whole = `${head}${separator}${context}${tail}`;
  if (whole.length <= limits.totalChars) return whole;
  const marker = PROMPT_TRUNCATION_MARKER(limits.totalChars);
  const room = limits.totalChars - head.length - separator.length - tail.length;
  if (room > marker.length + 200) return `${head}${separator}${truncate(context, room, marker)}${tail}`;
  // The instruction alone is too long: keep its start, drop the context.
  return truncate(`${head}${tail}`, limits.totalChars, marker);
}

// ---------------------------------------------------------------------------------------------
// Prompts

/** The prompt of a new run. */
export function buildRunPrompt(input: PromptInput, options: PromptOptions = {}): string {
  switch (input.flow) {
    case "comment": {
      const noun = threadNoun(input.thread.kind);
      const instruction = instructionText(input.instruction, options);
      const head = [
        `@${input.requester} asked for help on ${noun} ${input.thread.repository}#${input.thread.number} (${input.commentUrl}):`,
        "",
        instruction === "" ? `(No instruction was given: read the ${noun} below and do what it asks.)` : instruction,
      ].join("\n");
      return fit(head, threadSection(input.thread, options, { id: input.commentId, url: input.commentUrl }), options);
    }
    case "label": {
      const head = `@${input.requester} added the label "${oneLine(input.label)}" to issue ${input.thread.repository}#${input.thread.number} (${input.thread.url}). Resolve the issue described below.`;
      return fit(head, threadSection(input.thread, options), options);
    }
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const where = `pull request ${input.thread.repository}#${input.thread.number} (${input.thread.url})`;
      const head = [
        input.review && input.review.state === "changes_requested" && instruction === ""
          ? `@${input.requester} requested changes on ${where}. Address the review below and push to the pull request's branch.`
          : `@${input.requester} asked for help in a review of pull request ${input.thread.repository}#${input.thread.number} (${input.triggerCommentUrl ?? input.review?.url ?? input.thread.url}):`,
        ...(instruction === "" ? [] : ["", instruction]),
      ].join("\n");
      const context = [reviewSection(input.review, input.reviewComments, options), threadSection(input.thread, options)].filter(Boolean).join("\n\n");
      return fit(head, context, options);
    }
    case "check_suite":
    case "workflow_run":
      return fit(checkFailureHeader(input, false), checkFailureSection(input, options), options);
    case "dispatch": {
      const head = instructionText(input.prompt, options);
      return fit(head, input.thread ? threadSection(input.thread, options) : "", options);
    }
  }
}

/**
 * The prompt that continues an existing run: the new request and a short pointer to where it
 * came from; the run already knows the thread.
 */
export function buildResumePrompt(input: PromptInput, options: PromptOptions = {}): string {
  switch (input.flow) {
    case "comment": {
      const instruction = instructionText(input.instruction, options);
      const head = `Follow-up from @${input.requester} on ${input.commentUrl}:\n\n${instruction === "" ? "(No new instruction: check the thread for what changed and continue.)" : instruction}`;
      return fit(head, "", options);
    }
    case "label":
      return fit(
        `@${input.requester} added the label "${oneLine(input.label)}" again on ${input.thread.url}. Check the issue for what changed and continue.`,
        "",
        options,
      );
    case "review": {
      const instruction = instructionText(input.instruction, options);
      const url = input.triggerCommentUrl ?? input.review?.url ?? input.thread.url;
      const head = `Follow-up review from @${input.requester} on ${url}${instruction === "" ? ". Address it and push to the pull request's branch." : `:\n\n${instruction}`}`;
      return fit(head, reviewSection(input.review, input.reviewComments, options), options);
    }
    case "check_suite":
    case "workflow_run":
      return fit(checkFailureHeader(input, true), checkFailureSection(input, options), options);
    case "dispatch":
      return fit(instructionText(input.prompt, options), "", options);
  }
}

// ---------------------------------------------------------------------------------------------
// Image attachments

const ATTACHMENT_HOSTS = new Set(["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"]);

export function isGitHubAttachmentUrl(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  if (ATTACHMENT_HOSTS.has(url.hostname)) return true;
  return url.hostname === "github.com" && url.pathname.startsWith("/user-attachments/");
}

export const MAX_IMAGE_ATTACHMENTS = 4;

/**
 * GitHub-hosted image attachments in a comment (Markdown images and `<img src>`), in order,
 * without duplicates, at most `max`. Images hidden in HTML comments or shown as code are skipped.
 */
export function parseImageAttachments(body: string | null | undefined, max: number = MAX_IMAGE_ATTACHMENTS): string[] {
  const prose = classifyLines(sanitizeUserText(body))
    .filter((line) => !line.code)
    .map((line) => line.text.replace(/`[^`\n]*`/g, ""))
    .join("\n");
  const found: Array<{ index: number; url: string }> = [];
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
    found.push({ index: match.index, url: match[1]! });
  }
  for (const match of prose.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    found.push({ index: match.index, url: (match[1] ?? match[2] ?? match[3])! });
  }
  const urls: string[] = [];
  for (const { url } of found.sort((a, b) => a.index - b.index)) {
    const decoded = url.replace(/&amp;/g, "&");
    if (isGitHubAttachmentUrl(decoded) && !urls.includes(decoded)) urls.push(decoded);
    if (urls.length >= max) break;
  }
  return urls;
}

// ---------------------------------------------------------------------------------------------
// From parsed events to prompt context

/** A thread's context from the event's facts plus what the shell fetched (comments, PR refs). */
export function threadContextFrom(
  repo: Pick<RepoRef, "fullName">,
  thread: ThreadRef,
  fetched: { comments?: readonly ThreadComment[]; omittedComments?: number; pullRequest?: PullRequestRef | PullRequestDetails | null } = {},
): ThreadContext {
  const pr = fetched.pullRequest;
  return {
    repository: repo.fullName,
    kind: thread.kind,
    number: thread.number,
    url: thread.url,
    title: thread.title,
    body: thread.body,
    author: thread.author?.login ?? null,
    comments: fetched.comments ?? [],
    omittedComments: fetched.omittedComments ?? 0,
    pullRequest: pr ? { url: pr.url, baseRef: pr.baseRef, headRef: pr.headRef, headRepoFullName: pr.headRepoFullName ?? null, isFork: pr.isFork ?? false } : null,
  };
}

/** A review comment from the event, in the shape the prompt takes. */
export function reviewCommentContextFrom(comment: ReviewCommentRef): ReviewCommentContext {
  return {
    id: comment.id,
    author: comment.author.login,
    path: comment.path,
    line: comment.line,
    startLine: comment.startLine,
    diffHunk: comment.diffHunk,
    body: comment.body,
    url: comment.url,
  };
}

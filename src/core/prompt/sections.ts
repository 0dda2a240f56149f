/**
 * The parts of a prompt: the thread with its recent comments, the review and its inline comments,
 * the failed checks with their annotations and log tails, and the fitting of it all within the
 * total bound (the context is cut before the request, with a visible marker). Every piece of
 * outside text enters through material.ts (labelled, fenced, bounded); what is left here is the
 * bridge's own words around it.
 */
import { classifyActor } from "../actors.js";
import type { ThreadKind } from "../events/types.js";
import {
  DEFAULT_PROMPT_LIMITS,
  type CheckAnnotation,
  type CheckFailureContext,
  type PromptLimits,
  type PromptOptions,
  type ReviewCommentContext,
  type ReviewContext,
  type PromptComment,
  type ThreadContext,
} from "./context.js";
import {
  MATERIAL_NOTICE,
  NO_TEXT,
  mayHoldMaterial,
  identifier,
  joinPromptText,
  material,
  oneLine,
  promptText,
  repositoryInstructions,
  request,
  truncatePromptText,
  type MaterialAccess,
  type PromptText,
} from "./material.js";

const limitsOf = (options: PromptOptions): PromptLimits => ({ ...DEFAULT_PROMPT_LIMITS, ...options.limits });

/** The bridge's own word for a thread kind. */
export const threadNoun = (kind: ThreadKind): PromptText => (kind === "pull_request" ? promptText`pull request` : promptText`issue`);

function isBotComment(comment: PromptComment, botLogins: readonly string[]): boolean {
  return classifyActor({ login: comment.author, type: comment.authorType }, { botLogins }) !== "person";
}

/** Comments the prompt leaves out besides bots': the trigger itself, quoted on its own. */
export interface ThreadExclusion {
  id?: number;
  url?: string;
}

const isLaterThan = (time: string | null | undefined, asOf: string | null | undefined) =>
  !!time && !!asOf && Date.parse(time) > Date.parse(asOf);

/**
 * The thread comments a prompt quotes: people's, not the trigger itself, none written or edited
 * after the trigger (`asOf`), the newest `limits.comments` of them; with how many there were
 * (older ones the shell did not fetch included) and how many came too late.
 */
function threadCommentsShown(
  thread: ThreadContext,
  options: PromptOptions,
  exclude: ThreadExclusion = {},
): { shown: PromptComment[]; total: number; late: number } {
  const people = (thread.comments ?? []).filter(
    (comment) =>
      !isBotComment(comment, options.botLogins ?? []) &&
      !(exclude.id !== undefined && comment.id === exclude.id) &&
      !(exclude.url && comment.url === exclude.url),
  );
  const inTime = people.filter((comment) => !isLaterThan(comment.createdAt, thread.asOf) && !isLaterThan(comment.updatedAt, thread.asOf));
  return {
    shown: inTime.slice(-limitsOf(options).comments),
    total: inTime.length + Math.max(0, thread.omittedComments ?? 0),
    late: people.length - inTime.length,
  };
}

/** The people whose text a thread section quotes (the description's author first), each once. */
export function threadSectionAuthors(thread: ThreadContext, options: PromptOptions, exclude: ThreadExclusion = {}): string[] {
  const logins = [
    thread.author,
    ...threadCommentsShown(thread, options, exclude)
      .shown.reverse()
      .map((comment) => comment.author),
  ];
  return [...new Set(logins.filter((login): login is string => !!login))];
}

/** Unknown access reads as unknown: quoted like none. */
const accessOf = (access: MaterialAccess | undefined): MaterialAccess => access ?? "unknown";

/** The branches of a pull request: the head named by its author, the base a branch of the repository. */
function branchMaterial(head: string, base: string | null | undefined, headBy: { author?: string | null; access?: MaterialAccess }) {
  return [
    material({ source: "head branch name", author: headBy.author, access: accessOf(headBy.access), text: head, shape: "line" }),
    ...(base ? [material({ source: "base branch name", access: "write", text: base, shape: "line" })] : []),
  ];
}

export function threadSection(thread: ThreadContext, options: PromptOptions, exclude: ThreadExclusion = {}): PromptText {
  const limits = limitsOf(options);
  const noun = threadNoun(thread.kind);
  const author = { author: thread.author, access: accessOf(thread.authorAccess) };
  const pull = thread.kind === "pull_request";
  const lines: PromptText[] = [
    promptText`## ${pull ? promptText`Pull request` : promptText`Issue`} ${identifier(thread.repository)}#${thread.number}`,
    promptText`URL: ${identifier(thread.url)}`,
    material({ source: pull ? "pull request title" : "issue title", ...author, text: thread.title, shape: "line" }),
  ];
  const pr = thread.pullRequest;
  if (pr) {
    const from =
      pr.isFork && pr.headRepoFullName ? promptText` (the head branch is in the fork ${identifier(pr.headRepoFullName)})` : NO_TEXT;
    lines.push(promptText`Branches${from}:`, ...branchMaterial(pr.headRef, pr.baseRef, author));
  }
  lines.push(
    promptText``,
    promptText`### Description`,
    material({ source: pull ? "pull request body" : "issue body", ...author, text: thread.body, max: limits.threadBodyChars }),
  );

  const { shown, total, late } = threadCommentsShown(thread, options, exclude);
  if (shown.length > 0) {
    const counted = shown.length < total ? promptText`, the last ${shown.length} of ${total}` : NO_TEXT;
    lines.push(promptText``, promptText`### Comments on the ${noun} (oldest first${counted})`);
    for (const comment of shown) {
      lines.push(
        promptText``,
        material({
          source: "comment",
          author: comment.author,
          access: accessOf(comment.access),
          at: comment.createdAt,
          text: comment.body,
          max: limits.commentChars,
        }),
      );
    }
  }
  if (late > 0) {
    lines.push(
      promptText``,
      late === 1
        ? promptText`(1 comment was written or edited after the request and is left out.)`
        : promptText`(${late} comments were written or edited after the request and are left out.)`,
    );
  }
  return joinPromptText(lines);
}

/** The lines the trigger comment quotes, as material (empty when it quotes none). */
export function quotedSection(quoted: string | null | undefined, options: PromptOptions): PromptText {
  if (!quoted || quoted.trim() === "") return NO_TEXT;
  return material({ source: "quoted in the trigger comment", text: quoted, max: limitsOf(options).commentChars });
}

function reviewCommentLines(comment: ReviewCommentContext, limits: PromptLimits, index: number): PromptText[] {
  const range =
    comment.startLine && comment.line && comment.startLine !== comment.line
      ? promptText`, lines ${comment.startLine}-${comment.line}`
      : comment.line
        ? promptText`, line ${comment.line}`
        : NO_TEXT;
  const lines = [promptText``, promptText`### Inline comment ${index + 1}${range}`];
  if (comment.url) lines.push(promptText`URL: ${identifier(comment.url)}`);
  lines.push(material({ source: "file path", text: comment.path, shape: "line" }));
  // The commented line is at the end of the hunk: keep the end.
  if (comment.diffHunk)
    lines.push(material({ source: "diff hunk", text: comment.diffHunk, shape: "code", max: limits.diffHunkChars, keep: "tail" }));
  lines.push(
    material({
      source: "review comment",
      author: comment.author,
      access: accessOf(comment.access),
      text: comment.body,
      max: limits.commentChars,
    }),
  );
  return lines;
}

export function reviewSection(review: ReviewContext | null, comments: readonly ReviewCommentContext[], options: PromptOptions): PromptText {
  const limits = limitsOf(options);
  const parts: PromptText[] = [];
  if (review) {
    parts.push(
      joinPromptText([
        promptText`## Review (${identifier(review.state.replace(/_/g, "-"))})`,
        promptText`URL: ${identifier(review.url)}`,
        material({
          source: "review body",
          author: review.author,
          access: accessOf(review.access),
          text: review.body,
          max: limits.commentChars,
        }),
      ]),
    );
  }
  const shown = comments.slice(0, limits.reviewComments);
  if (shown.length > 0) {
    const more = shown.length < comments.length ? promptText` (the first ${shown.length} of ${comments.length})` : NO_TEXT;
    const lines = [promptText`## Inline comments${more}`];
    shown.forEach((comment, index) => lines.push(...reviewCommentLines(comment, limits, index)));
    parts.push(joinPromptText(lines));
  }
  return joinPromptText(parts, "\n\n");
}

/** One line per annotation (`path:lines (level): title: message`), all of them what CI wrote. */
function annotationLines(annotations: readonly CheckAnnotation[], limits: PromptLimits): string {
  return annotations
    .map((note) => {
      const range = note.startLine ? `:${note.startLine}${note.endLine && note.endLine !== note.startLine ? `-${note.endLine}` : ""}` : "";
      const level = note.level ? ` (${oneLine(note.level, 20)})` : "";
      const title = note.title ? `${oneLine(note.title, 200)}: ` : "";
      return `${oneLine(note.path)}${range}${level}: ${title}${oneLine(note.message, limits.annotationChars)}`;
    })
    .join("\n");
}

export function checkFailureSection(ci: CheckFailureContext, options: PromptOptions): PromptText {
  const limits = limitsOf(options);
  const parts: PromptText[] = [];
  const failures = ci.failures.slice(0, limits.checks);
  if (failures.length === 0) parts.push(promptText`(The bridge could not read which checks failed: open the link above.)`);
  // Said first: the end of a long section is what the overall bound cuts.
  if (ci.failures.length > failures.length)
    parts.push(promptText`${ci.failures.length} checks failed; the first ${failures.length} are shown.`);
  const fromCi = { access: "ci" } as const;
  failures.forEach((check, index) => {
    const lines = [promptText`## Failed check ${index + 1} (${identifier(check.conclusion ?? "failed")})`];
    if (check.url) lines.push(promptText`URL: ${identifier(check.url)}`);
    const named = check.failedSteps !== undefined ? "job name" : "check run name";
    lines.push(material({ source: named, ...fromCi, text: check.name, shape: "line" }));
    if (check.title) lines.push(material({ source: "check run title", ...fromCi, text: check.title, shape: "line" }));
    if (check.failedSteps && check.failedSteps.length > 0) {
      const steps = check.failedSteps.map((step) => oneLine(step, 200)).join("\n");
      lines.push(material({ source: "failed step names", ...fromCi, text: steps, shape: "code" }));
    }
    if (check.summary) lines.push(material({ source: "check run summary", ...fromCi, text: check.summary, max: limits.checkSummaryChars }));
    const annotations = check.annotations ?? [];
    if (annotations.length > 0) {
      const shown = annotations.slice(0, limits.annotationsPerCheck);
      const counted = shown.length < annotations.length ? promptText` (the first ${shown.length} of ${annotations.length})` : NO_TEXT;
      lines.push(
        promptText`Annotations${counted}, one a line:`,
        material({ source: "annotation", ...fromCi, text: annotationLines(shown, limits), shape: "code" }),
      );
    }
    if (check.logExcerpt) {
      lines.push(
        material({ source: "job log", ...fromCi, text: check.logExcerpt, shape: "log", max: limits.logExcerptChars, keep: "tail" }),
      );
    }
    parts.push(joinPromptText(lines));
  });
  return joinPromptText(parts, "\n\n");
}

export function checkFailureHeader(ci: CheckFailureContext & { flow: string }, again: boolean): PromptText {
  const pr = ci.pullRequest;
  const failed = again ? promptText`failed again` : promptText`failed`;
  const lines = [
    promptText`${ci.runName ? promptText`A workflow` : promptText`CI`} ${failed} on pull request ${identifier(ci.repository)}#${pr.number} (${identifier(pr.url)}), commit ${identifier(ci.headSha.slice(0, 12))}.`,
    promptText`Find the cause of each failure below, fix it on the pull request's branch and push. Do not disable or skip the failing checks.`,
  ];
  if (ci.runUrl) lines.push(promptText`Run: ${identifier(ci.runUrl)}`);
  if (ci.attempt) lines.push(promptText`This is fix attempt ${ci.attempt.number} of ${ci.attempt.max}.`);
  lines.push(promptText``);
  if (ci.runName) lines.push(material({ source: "workflow name", access: "ci", text: ci.runName, shape: "line" }));
  if (pr.title) lines.push(material({ source: "pull request title", text: pr.title, shape: "line" }));
  lines.push(...branchMaterial(pr.headRef, pr.baseRef, {}));
  return joinPromptText(lines);
}

/** The request of whoever triggered, bounded. */
export function instructionText(instruction: string, options: PromptOptions): PromptText {
  return request(instruction, limitsOf(options).instructionChars);
}

const PROMPT_TRUNCATION_MARKER = (max: number): PromptText =>
  promptText`\n\n[… context truncated by agent-run-bridge to keep the prompt within ${max} characters …]\n\n`;

/**
 * Joins the head (the request, or the bridge's words about a CI failure), the notice about
 * material, the context and the repository's instructions, cutting the context (never the request
 * first) so that the total fits.
 */
export function fitPrompt(head: PromptText, context: PromptText, options: PromptOptions): PromptText {
  const limits = limitsOf(options);
  const instructions = repositoryInstructions(options.instructions);
  const tail = instructions ? promptText`\n\n## Repository instructions\n${instructions}` : NO_TEXT;
  const quotes = mayHoldMaterial(head) || context !== "";
  const top = quotes ? promptText`${head}\n\n${MATERIAL_NOTICE}` : head;
  const separator = context ? promptText`\n\n` : NO_TEXT;
  const whole = promptText`${top}${separator}${context}${tail}`;
  if (whole.length <= limits.totalChars) return whole;
  const marker = PROMPT_TRUNCATION_MARKER(limits.totalChars);
  const room = limits.totalChars - top.length - separator.length - tail.length;
  if (room > marker.length + 200) return promptText`${top}${separator}${truncatePromptText(context, room, marker)}${tail}`;
  // The request alone is too long: keep its start, drop the context.
  return truncatePromptText(promptText`${top}${tail}`, limits.totalChars, marker);
}

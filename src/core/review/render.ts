/**
 * A review as the bridge posts it: the body (the sanitised summary, a link to the run, the findings
 * that are not inline, and a hidden marker naming the run and the reviewed commit), and the inline
 * comments (each finding's sanitised text, its suggestion as a GitHub `suggestion` block that its own
 * text cannot close). Every piece of agent text passes core/sanitize-output; the writer's door then
 * redacts secrets and fits the size.
 */
import { redactToFit, type CommentBody } from "../render/fit.js";
import { codeBlock, inlineCode } from "../sanitize-output/code.js";
import { renderLink } from "../sanitize-output/links.js";
import { sanitizeInline, sanitizeMarkdown } from "../sanitize-output/prose.js";
import { md, type OutputSanitizeOptions, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { sideOf } from "./format.js";
import type { ReviewFinding } from "./schema.js";
import type { AnchorMiss, ReviewPlan } from "./anchor.js";
import { renderReviewMarker, type ReviewMarker } from "./marker.js";

/** An inline comment as GitHub's create-review call takes it. */
interface ReviewCommentDraft {
  path: string;
  line: number;
  side: "RIGHT" | "LEFT";
  start_line?: number;
  start_side?: "RIGHT" | "LEFT";
  body: string;
}

/** A review to post: always `COMMENT`, never an approval or a change request. */
export interface ReviewDraft {
  commitId: string;
  event: "COMMENT";
  body: string;
  comments: ReviewCommentDraft[];
}

/**
 * A review as it may leave a door: its body (a text, or a rendering for a given length, as a
 * comment's: fit.ts) and every inline comment redacted and fitted like a comment.
 */
export function redactReviewToFit(
  review: Omit<ReviewDraft, "body"> & { body: CommentBody },
  redact: (text: string) => string,
): ReviewDraft {
  return {
    ...review,
    body: redactToFit(review.body, redact),
    comments: review.comments.map((comment) => ({ ...comment, body: redactToFit(comment.body, redact) })),
  };
}

export interface ReviewRenderInput {
  plan: ReviewPlan;
  summary: string;
  runUrl: string | null;
  marker: ReviewMarker;
  sanitize: OutputSanitizeOptions;
}

/** A finding's text, with its suggestion as a block GitHub offers to commit. */
function findingBody(finding: ReviewFinding, options: OutputSanitizeOptions): SafeMarkdown {
  const text = sanitizeMarkdown(finding.body, options);
  if (finding.suggestion === undefined) return text;
  // codeBlock's fence is longer than any backtick run inside: a "```" in the suggestion cannot close it.
  const block = codeBlock(finding.suggestion, { language: "suggestion" });
  return (text === "" ? block : `${text}\n\n${block}`) as SafeMarkdown;
}

const lineRange = (finding: ReviewFinding) =>
  finding.start_line !== undefined && finding.start_line !== finding.line ? `${finding.start_line}-${finding.line}` : `${finding.line}`;

/** A finding listed in the body: where it is, and its text. */
function listedFinding(finding: ReviewFinding, options: OutputSanitizeOptions): SafeMarkdown {
  const where = inlineCode(`${finding.path}:${lineRange(finding)}${sideOf(finding) === "LEFT" ? " (old)" : ""}`);
  const body = findingBody(finding, options)
    .split("\n")
    .map((line) => (line === "" ? "" : `  ${line}`))
    .join("\n");
  return `- ${where}\n\n${body}` as SafeMarkdown;
}

const MISS_HEADINGS: Record<AnchorMiss | "overflow" | "rejected", string> = {
  overflow: "More findings (over the inline comment limit)",
  outside_the_diff: "Findings outside the diff",
  not_a_file_of_the_pull_request: "Findings on files this pull request does not change",
  rejected: "Findings (GitHub did not accept them as inline comments)",
};

function section(heading: keyof typeof MISS_HEADINGS, findings: readonly ReviewFinding[], options: OutputSanitizeOptions): string[] {
  if (findings.length === 0) return [];
  return [`### ${MISS_HEADINGS[heading]}`, ...findings.map((finding) => listedFinding(finding, options))];
}

function renderBody(input: ReviewRenderInput, listed: string[]): string {
  const summary = sanitizeMarkdown(input.summary, input.sanitize);
  const link = input.runUrl ? md`— ${renderLink("the agent run", input.runUrl)}` : ("" as SafeMarkdown);
  const parts = [renderReviewMarker(input.marker), summary === "" ? "(The review has no summary.)" : summary, ...listed];
  if (link !== "") parts.push(link);
  return parts.join("\n\n");
}

/** The review with every anchored finding inline (up to the limit) and the others in the body. */
export function renderReview(input: ReviewRenderInput): ReviewDraft {
  const { plan, sanitize } = input;
  const outside = plan.unanchored.filter((miss) => miss.why === "outside_the_diff").map((miss) => miss.finding);
  const elsewhere = plan.unanchored.filter((miss) => miss.why === "not_a_file_of_the_pull_request").map((miss) => miss.finding);
  const listed = [
    ...section("overflow", plan.overflow, sanitize),
    ...section("outside_the_diff", outside, sanitize),
    ...section("not_a_file_of_the_pull_request", elsewhere, sanitize),
  ];
  const comments = plan.inline.map((finding): ReviewCommentDraft => {
    const side = sideOf(finding);
    const multi = finding.start_line !== undefined && finding.start_line !== finding.line;
    return {
      path: finding.path,
      line: finding.line,
      side,
      ...(multi ? { start_line: finding.start_line!, start_side: side } : {}),
      body: findingBody(finding, sanitize),
    };
  });
  return { commitId: input.marker.headSha, event: "COMMENT", body: renderBody(input, listed), comments };
}

/** The fallback after GitHub refused the inline comments (422): no inline comments, every finding in the body. */
export function renderReviewWithoutInline(input: ReviewRenderInput): ReviewDraft {
  const { plan, sanitize } = input;
  const all = [...plan.inline, ...plan.overflow, ...plan.unanchored.map((miss) => miss.finding)];
  return { commitId: input.marker.headSha, event: "COMMENT", body: renderBody(input, section("rejected", all, sanitize)), comments: [] };
}

/** What became of a review run's review, for the tracking comment. */
export type ReviewOutcome =
  | { kind: "posted"; htmlUrl: string; inline: number; listed: number; fallback: boolean }
  | { kind: "already_posted"; htmlUrl: string }
  | { kind: "unreadable"; why: string }
  | { kind: "rejected"; message: string };

/** The tracking comment's line about the review. */
export function renderReviewNotice(outcome: ReviewOutcome): SafeMarkdown {
  switch (outcome.kind) {
    case "posted": {
      const link = renderLink("Review posted", outcome.htmlUrl);
      const counts = `${outcome.inline} inline ${outcome.inline === 1 ? "comment" : "comments"}, ${outcome.listed} ${outcome.listed === 1 ? "finding" : "findings"} listed in its body`;
      const fallback = outcome.fallback ? " (GitHub refused the inline comments, so every finding is in the body)" : "";
      return `**${link}**: ${counts}${fallback}.` as SafeMarkdown;
    }
    case "already_posted":
      return `**${renderLink("Review posted", outcome.htmlUrl)}** (already, for this run and commit).` as SafeMarkdown;
    case "unreadable":
      return md`**No review could be read from the result**: ${sanitizeInline(outcome.why, { maxLength: 300 })} The result is shown as it is.`;
    case "rejected":
      return md`**The review could not be posted**: GitHub refused it (${sanitizeInline(outcome.message, { maxLength: 300 })}).`;
  }
}

/**
 * The Action's one door out. Every text the step writes passes here and is redacted first: comments
 * and their edits, the job summary, the text outputs, and every log line (info, warnings, notices,
 * the failure). Nothing under src/action calls @actions/core's writers or github/comments.ts directly.
 *
 * Log lines are also fenced against workflow commands (core/workflow-commands.ts): `core.info`
 * prints its text as it is, so a run's link or a comment's URL could otherwise mask words, forge
 * annotations or save state for the post step. Warnings, notices and errors are commands of their
 * own whose text @actions/core escapes (`%`, CR, LF), so nothing in them is read as another command.
 *
 * The redactor is per process, like the step: `openDoor` sets it once, before anything is printed
 * (runner.ts), from the raw inputs, so that even a message about wrong inputs is redacted.
 */
import * as core from "@actions/core";
import { appendFileSync } from "node:fs";
import { markerPlaceIn } from "../core/markers/schema.js";
import { MARKER_SIGNATURE_LENGTH, withMarkerSignature, type MarkerSigner } from "../core/markers/signature.js";
import { bindCommentBody } from "../core/markers/write.js";
import { compileRedactPatterns, createRedactor, splitRedactPatterns, type Redactor } from "../core/redact.js";
import { redactToFit, type CommentBody } from "../core/render/fit.js";
import { fenceWorkflowCommands } from "../core/workflow-commands.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { createComment, updateComment, type IssueComment } from "../github/comments.js";
import type { ReviewDraft } from "../core/review/render.js";
import type { PostedReview } from "../github/reviews.js";
import { randomUUID } from "./lazy-crypto.js";
import { sendOctokitLogTo } from "./octokit-log.js";
import type { ActionOutcome, SummaryContext } from "./report.js";

export type { CommentBody };

import { rawInput, type Env } from "./raw-inputs.js";

let redactor: Redactor = createRedactor();

/**
 * A step's redaction (the main step's and the post step's): the built-in rules, the two tokens by
 * value, and `redact-patterns` (a bad pattern is left out here; readInputs reports it and the main
 * step fails before writing anything).
 */
export function stepRedactor(env: Env): Redactor {
  const secrets = [
    { value: rawInput(env, "api-token"), label: "API token" },
    { value: rawInput(env, "previous-api-token"), label: "previous API token" },
    { value: rawInput(env, "github-token"), label: "GitHub token" },
  ];
  const { patterns } = compileRedactPatterns(splitRedactPatterns(rawInput(env, "redact-patterns")));
  return createRedactor({ secrets, patterns });
}
let signer: MarkerSigner | undefined;

/** Sets what this process redacts (the built-in rules until then); the GitHub client's warnings come through here from now on. */
export function openDoor(next: Redactor): void {
  redactor = next;
  sendOctokitLogTo((message) => log.warning(message));
}

/** Sets what signs the marker of every comment this process writes (core/markers/signature.ts). */
export function signMarkersWith(next: MarkerSigner): void {
  signer = next;
}

/** The body with its marker signed; a rendering at a maximum length leaves room for the signature. */
function sealed(body: CommentBody): CommentBody {
  const sign = signer;
  if (!sign) return body;
  return typeof body === "string"
    ? withMarkerSignature(body, sign)
    : (maxLength) => withMarkerSignature(body(maxLength - MARKER_SIGNATURE_LENGTH), sign);
}

/** `text` as it may leave the step. */
function redacted(text: string): string {
  return redactor.redact(text);
}

/**
 * The body with its kind marker bound to the thread it is written in (core/markers/write.ts), before
 * it is signed: the signature then covers the place. Null: the body carries its place (a run marker).
 */
function bound(body: CommentBody, repo: RepoRef, threadNumber: number | null): CommentBody {
  return threadNumber === null ? body : bindCommentBody(body, markerPlaceIn(repo, threadNumber));
}

// Redaction leaves markers alone, so the signature made first still verifies.
const forComment = (body: CommentBody, repo: RepoRef, threadNumber: number | null) =>
  redactToFit(sealed(bound(body, repo, threadNumber)), redacted);

/** The only way the Action posts a comment. */
export function postComment(octokit: GitHubClient, repo: RepoRef, issueNumber: number, body: CommentBody): Promise<IssueComment> {
  return createComment(octokit, repo, issueNumber, forComment(body, repo, issueNumber));
}

/**
 * The only way the Action edits a comment, in the thread `threadNumber` (null only for a body whose
 * marker names its thread already: a run marker).
 */
export function editComment(
  octokit: GitHubClient,
  repo: RepoRef,
  threadNumber: number | null,
  commentId: number,
  body: CommentBody,
): Promise<IssueComment> {
  return updateComment(octokit, repo, commentId, forComment(body, repo, threadNumber));
}

/**
 * The only way the Action posts a pull-request review (review mode): the body's marker signed as a
 * comment's is (every workflow reviews as `github-actions[bot]` too; core/review/marker.ts believes
 * only a signed one), the body and every inline comment redacted and fitted like a comment's, then
 * handed to `send` (github/reviews.ts, which the review code loads with `import()` at the end of a
 * review run, so no step's start path carries it). A 422 (a line GitHub cannot resolve) is `rejected`.
 */
export async function postReview(review: ReviewDraft, send: (outgoing: ReviewDraft) => Promise<PostedReview>): Promise<PostedReview> {
  const { redactReviewToFit } = await import("./step-end.js");
  return send(redactReviewToFit({ ...review, body: sealed(review.body) }, redacted));
}

type AnnotationProperties = Parameters<typeof core.notice>[1];

/** The step's log, redacted; an info line that could hold a workflow command is fenced with a fresh token. */
export const log = {
  info: (message: string) => core.info(fenceWorkflowCommands(redacted(message), randomUUID)),
  warning: (message: string) => core.warning(redacted(message)),
  notice: (message: string, properties?: AnnotationProperties) => core.notice(redacted(message), properties),
  error: (message: string) => core.error(redacted(message)),
};

/** The step failed: said once, redacted. */
export function failStep(message: string): void {
  core.setFailed(redacted(message));
}

/** Every output, each redacted before it is cut to GitHub's size. */
export async function writeOutputs(outcome: ActionOutcome): Promise<void> {
  const { OUTPUT_NAMES, outputsFor } = await import("./step-end.js");
  const outputs = outputsFor(outcome, redacted);
  for (const name of OUTPUT_NAMES) core.setOutput(name, outputs[name]);
}

/**
 * The job summary (when there is one to write), redacted, then fitted to GitHub's 1 MiB per step,
 * appended to the runner's file as @actions/core's `summary.write()` would: that module reads
 * node:fs/promises when it loads, which a step's start does not otherwise need (the build leaves it out).
 */
export async function writeJobSummary(outcome: ActionOutcome, context: SummaryContext, file: string): Promise<void> {
  const { JOB_SUMMARY_MAX_BYTES, renderJobSummary } = await import("./step-end.js");
  const summary = redactToFit(
    (maxBytes) => renderJobSummary(outcome, context, maxBytes),
    redacted,
    JOB_SUMMARY_MAX_BYTES,
    (text) => Buffer.byteLength(text, "utf8"),
  );
  if (summary !== "") appendFileSync(file, summary);
}

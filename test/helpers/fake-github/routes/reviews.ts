/**
 * Creating a pull-request review, validated as GitHub does: the commit must be one of the pull
 * request's, the event one GitHub knows, and each inline comment's path a file of the pull request
 * whose line (and start_line) resolve in that file's diff on the given side. A comment that does not
 * resolve fails the whole review with GitHub's 422 shape (`Unprocessable Entity`, plain-string errors).
 * Tests read what was posted in the state (`reviews`, `reviewComments`) and the attempts in `requests`.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { notFound, validationFailed } from "../http.js";
import { renderReview } from "../render.js";
import { findIssue, isoSeconds, takeId, type FakePullRequestFields, type FakeReview, type FakeReviewComment } from "../state.js";
import { intParam, repositoryOf, type RouteContext } from "./context.js";

const DOCS = "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request";

function unprocessable(reply: FastifyReply, errors: string[]): FastifyReply {
  return reply.code(422).send({ message: "Unprocessable Entity", errors, documentation_url: DOCS, status: "422" });
}

interface CommentInput {
  path?: unknown;
  line?: unknown;
  side?: unknown;
  start_line?: unknown;
  start_side?: unknown;
  body?: unknown;
}

/** Each hunk's line numbers on each side, as GitHub resolves a review comment's line. */
function hunksOf(patch: string): { RIGHT: Set<number>; LEFT: Set<number> }[] {
  const hunks: { RIGHT: Set<number>; LEFT: Set<number> }[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split("\n")) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      hunks.push({ RIGHT: new Set(), LEFT: new Set() });
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    const hunk = hunks.at(-1);
    if (!hunk) continue;
    if (line.startsWith("+")) hunk.RIGHT.add(newLine++);
    else if (line.startsWith("-")) hunk.LEFT.add(oldLine++);
    else if (line.startsWith(" ")) {
      hunk.LEFT.add(oldLine++);
      hunk.RIGHT.add(newLine++);
    }
  }
  return hunks;
}

const SIDES = ["LEFT", "RIGHT"] as const;
type Side = (typeof SIDES)[number];

/** Why GitHub would refuse this comment, or null. */
function commentProblem(pull: FakePullRequestFields, commit: string, comment: CommentInput): string | null {
  if (typeof comment.path !== "string" || typeof comment.body !== "string") return "path and body are required";
  if (typeof comment.line !== "number" || !Number.isInteger(comment.line)) return "line is required";
  const side = (comment.side ?? "RIGHT") as Side;
  const startSide = (comment.start_side ?? side) as Side;
  if (!SIDES.includes(side) || !SIDES.includes(startSide)) return "side must be LEFT or RIGHT";
  const patches = pull.patchesAt[commit] ?? pull.patches;
  if (patches[comment.path] === undefined && !pull.files.includes(comment.path)) return "Path could not be resolved";
  const patch = patches[comment.path];
  if (!patch) return "Line could not be resolved";
  const hunks = hunksOf(patch);
  const line = comment.line;
  const start = comment.start_line === undefined ? undefined : comment.start_line;
  if (start !== undefined && (typeof start !== "number" || !Number.isInteger(start) || start > line))
    return "pull_request_review_thread.start_line must precede the end line";
  const endHunk = hunks.findIndex((hunk) => hunk[side].has(line));
  if (endHunk < 0) return "pull_request_review_thread.line must be part of the diff";
  if (start !== undefined && !hunks[endHunk]![startSide].has(start))
    return "pull_request_review_thread.start_line must be part of the same hunk as the line.";
  return null;
}

export function registerReviewRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post("/repos/:owner/:repo/pulls/:pull_number/reviews", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    const number = intParam((request.params as { pull_number?: string }).pull_number);
    const issue = found && number !== undefined ? findIssue(ctx.state, found.key, number) : undefined;
    const pull = issue?.pull_request;
    if (!found || !issue || !pull) return notFound(reply);
    const input = (request.body ?? {}) as { commit_id?: unknown; event?: unknown; body?: unknown; comments?: unknown };
    const event = input.event ?? "PENDING";
    if (!["APPROVE", "REQUEST_CHANGES", "COMMENT", "PENDING"].includes(event as string))
      return validationFailed(reply, [{ resource: "PullRequestReview", field: "event", code: "invalid" }]);
    const commit = input.commit_id ?? pull.head.sha;
    if (typeof commit !== "string" || !pull.commits.includes(commit)) {
      return unprocessable(reply, ["commit_id is not part of the pull request"]);
    }
    const comments = (Array.isArray(input.comments) ? input.comments : []) as CommentInput[];
    const problems = comments
      .map((comment) => commentProblem(pull, commit, comment))
      .filter((problem): problem is string => problem !== null);
    if (problems.length > 0) {
      return unprocessable(reply, problems);
    }
    const stamp = isoSeconds(ctx.state.now());
    const state: FakeReview["state"] =
      event === "APPROVE" ? "APPROVED" : event === "REQUEST_CHANGES" ? "CHANGES_REQUESTED" : event === "COMMENT" ? "COMMENTED" : "PENDING";
    const review: FakeReview = {
      repo: found.key,
      id: takeId(ctx.state),
      pull_number: number!,
      user: ctx.state.writer,
      body: typeof input.body === "string" ? input.body : "",
      state,
      commit_id: commit,
      submitted_at: stamp,
    };
    ctx.state.reviews.push(review);
    const created: FakeReviewComment[] = comments.map((comment) => ({
      repo: found.key,
      id: takeId(ctx.state),
      pull_number: number!,
      review_id: review.id,
      body: comment.body as string,
      path: comment.path as string,
      line: comment.line as number,
      side: (comment.side ?? "RIGHT") as Side,
      diff_hunk: pull.patches[comment.path as string] ?? "",
      commit_id: commit,
      in_reply_to_id: null,
      user: ctx.state.writer,
      created_at: stamp,
      updated_at: stamp,
    }));
    ctx.state.reviewComments.push(...created);
    return reply.code(200).send(renderReview(ctx, review));
  });
}

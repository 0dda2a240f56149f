/** Pull requests, reviews and review comments (read-only). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { notFound, paginate, queryOf } from "../http.js";
import { renderPull, renderReview, renderReviewComment } from "../render.js";
import { findIssue, sameName } from "../state.js";
import { intParam, repositoryOf, type RouteContext } from "./context.js";

export function registerPullRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const pullOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const number = intParam((request.params as { pull_number?: string }).pull_number);
    if (!found || number === undefined) return undefined;
    const pull = findIssue(ctx.state, found.key, number);
    return pull?.pull_request ? { ...found, pull } : undefined;
  };

  app.get("/repos/:owner/:repo/pulls", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    if (!found) return notFound(reply);
    const query = queryOf(request);
    const state = query.state ?? "open";
    // `head` is `owner:branch`; GitHub matches the head repository's owner and the branch name.
    const [headOwner, headRef] = query.head?.includes(":") ? splitOnce(query.head, ":") : [undefined, query.head];
    const pulls = ctx.state.issues
      .filter((i) => i.repo === found.key && i.pull_request)
      .filter((i) => state === "all" || i.state === state)
      .filter((i) => headRef === undefined || i.pull_request!.head.ref === headRef)
      .filter(
        (i) => headOwner === undefined || sameName(i.pull_request!.head.repo?.full_name.split("/")[0] ?? found.repository.owner, headOwner),
      )
      .filter((i) => query.base === undefined || i.pull_request!.base.ref === query.base)
      .sort((a, b) => (query.direction === "asc" ? a.number - b.number : b.number - a.number));
    return paginate(request, reply, ctx.api, pulls).map((p) => renderPull(ctx, p));
  });

  app.get("/repos/:owner/:repo/pulls/:pull_number", async (request, reply) => {
    const found = pullOf(request);
    return found ? renderPull(ctx, found.pull) : notFound(reply);
  });

  app.get("/repos/:owner/:repo/pulls/:pull_number/files", async (request, reply) => {
    const found = pullOf(request);
    if (!found) return notFound(reply);
    const { patches } = found.pull.pull_request!;
    const files = found.pull.pull_request!.files.map((filename) => ({
      filename,
      status: "modified",
      additions: 1,
      deletions: 0,
      changes: 1,
      ...(patches[filename] !== undefined ? { patch: patches[filename] } : {}),
    }));
    return paginate(request, reply, ctx.api, files);
  });

  app.get("/repos/:owner/:repo/pulls/:pull_number/reviews", async (request, reply) => {
    const found = pullOf(request);
    if (!found) return notFound(reply);
    const reviews = ctx.state.reviews
      .filter((r) => r.repo === found.key && r.pull_number === found.pull.number)
      .sort((a, b) => a.id - b.id);
    return paginate(request, reply, ctx.api, reviews).map((r) => renderReview(ctx, r));
  });

  const reviewOf = (request: FastifyRequest) => {
    const found = pullOf(request);
    const id = intParam((request.params as { review_id?: string }).review_id);
    const review = found && ctx.state.reviews.find((r) => r.repo === found.key && r.pull_number === found.pull.number && r.id === id);
    return found && review ? { ...found, review } : undefined;
  };

  app.get("/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id", async (request, reply) => {
    const found = reviewOf(request);
    return found ? renderReview(ctx, found.review) : notFound(reply);
  });

  app.get("/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/comments", async (request, reply) => {
    const found = reviewOf(request);
    if (!found) return notFound(reply);
    const comments = ctx.state.reviewComments
      .filter((c) => c.repo === found.key && c.review_id === found.review.id)
      .sort((a, b) => a.id - b.id);
    return paginate(request, reply, ctx.api, comments).map((c) => renderReviewComment(ctx, c));
  });

  app.get("/repos/:owner/:repo/pulls/:pull_number/comments", async (request, reply) => {
    const found = pullOf(request);
    if (!found) return notFound(reply);
    const comments = ctx.state.reviewComments
      .filter((c) => c.repo === found.key && c.pull_number === found.pull.number)
      .sort((a, b) => a.id - b.id);
    return paginate(request, reply, ctx.api, comments).map((c) => renderReviewComment(ctx, c));
  });

  app.get("/repos/:owner/:repo/pulls/comments/:comment_id", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { comment_id?: string }).comment_id);
    const comment = found && ctx.state.reviewComments.find((c) => c.repo === found.key && c.id === id);
    return comment ? renderReviewComment(ctx, comment) : notFound(reply);
  });
}

function splitOnce(value: string, separator: string): [string, string] {
  const at = value.indexOf(separator);
  return [value.slice(0, at), value.slice(at + separator.length)];
}

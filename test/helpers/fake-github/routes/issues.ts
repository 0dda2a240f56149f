/** Issues, issue comments and reactions: the fake's write surface. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { notFound, paginate, queryOf, validationFailed } from "../http.js";
import { renderIssue, renderIssueComment, renderReaction } from "../render.js";
import {
  REACTION_CONTENTS,
  findIssue,
  isoSeconds,
  takeId,
  type FakeIssueComment,
  type ReactionContent,
  type ReactionTargetKind,
} from "../state.js";
import { intParam, repositoryOf, type RouteContext } from "./context.js";

/** GitHub refuses comment bodies longer than this many characters. */
const MAX_COMMENT_BODY = 65_536;

export function registerIssueRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const issueOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const number = intParam((request.params as { issue_number?: string }).issue_number);
    if (!found || number === undefined) return undefined;
    const issue = findIssue(ctx.state, found.key, number);
    return issue ? { ...found, issue } : undefined;
  };
  const commentOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { comment_id?: string }).comment_id);
    if (!found || id === undefined) return undefined;
    const comment = ctx.state.issueComments.find((c) => c.repo === found.key && c.id === id);
    return comment ? { ...found, comment } : undefined;
  };

  app.get("/repos/:owner/:repo/issues/:issue_number", async (request, reply) => {
    const found = issueOf(request);
    return found ? renderIssue(ctx, found.issue) : notFound(reply);
  });

  // Every issue's and pull request's comments, as GitHub lists them for a repository: `since`
  // filters on the update time; sorted by creation (or update) time, ascending unless asked.
  app.get("/repos/:owner/:repo/issues/comments", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    if (!found) return notFound(reply);
    const query = queryOf(request);
    const sinceMs = query.since ? Date.parse(query.since) : Number.NaN;
    const field = query.sort === "updated" ? "updated_at" : "created_at";
    const descending = query.direction === "desc";
    const comments = ctx.state.issueComments
      .filter((c) => c.repo === found.key)
      .filter((c) => Number.isNaN(sinceMs) || Date.parse(c.updated_at) >= sinceMs)
      .sort((a, b) => (Date.parse(a[field]) - Date.parse(b[field]) || a.id - b.id) * (descending ? -1 : 1));
    return paginate(request, reply, ctx.api, comments).map((c) => renderIssueComment(ctx, c));
  });

  app.get("/repos/:owner/:repo/issues/:issue_number/comments", async (request, reply) => {
    const found = issueOf(request);
    if (!found) return notFound(reply);
    const since = queryOf(request).since;
    const sinceMs = since ? Date.parse(since) : Number.NaN;
    const comments = ctx.state.issueComments
      .filter((c) => c.repo === found.key && c.issue_number === found.issue.number)
      .filter((c) => Number.isNaN(sinceMs) || Date.parse(c.updated_at) >= sinceMs)
      .sort((a, b) => a.id - b.id);
    return paginate(request, reply, ctx.api, comments).map((c) => renderIssueComment(ctx, c));
  });

  app.post("/repos/:owner/:repo/issues/:issue_number/comments", async (request, reply) => {
    const found = issueOf(request);
    if (!found) return notFound(reply);
    const body = commentBody(request, reply);
    if (body === undefined) return reply;
    const stamp = isoSeconds(ctx.state.now());
    const comment: FakeIssueComment = {
      repo: found.key,
      id: takeId(ctx.state),
      issue_number: found.issue.number,
      body,
      user: ctx.state.writer,
      performed_via_github_app: ctx.state.writer.type === "Bot" ? ctx.state.app : null,
      created_at: stamp,
      updated_at: stamp,
    };
    ctx.state.issueComments.push(comment);
    ctx.emitWrite({ kind: "comment_created", repo: found.key, issueNumber: comment.issue_number, comment: { ...comment } });
    const rendered = renderIssueComment(ctx, comment);
    return reply.code(201).header("location", rendered.url).send(rendered);
  });

  app.get("/repos/:owner/:repo/issues/comments/:comment_id", async (request, reply) => {
    const found = commentOf(request);
    return found ? renderIssueComment(ctx, found.comment) : notFound(reply);
  });

  app.patch("/repos/:owner/:repo/issues/comments/:comment_id", async (request, reply) => {
    const found = commentOf(request);
    if (!found) return notFound(reply);
    const body = commentBody(request, reply);
    if (body === undefined) return reply;
    const previousBody = found.comment.body;
    found.comment.body = body;
    found.comment.updated_at = isoSeconds(ctx.state.now());
    ctx.emitWrite({
      kind: "comment_updated",
      repo: found.key,
      issueNumber: found.comment.issue_number,
      comment: { ...found.comment },
      previousBody,
    });
    return renderIssueComment(ctx, found.comment);
  });

  app.delete("/repos/:owner/:repo/issues/comments/:comment_id", async (request, reply) => {
    const found = commentOf(request);
    if (!found) return notFound(reply);
    ctx.state.issueComments = ctx.state.issueComments.filter((c) => c !== found.comment);
    ctx.emitWrite({ kind: "comment_deleted", repo: found.key, issueNumber: found.comment.issue_number, comment: found.comment });
    return reply.code(204).send();
  });

  // Reactions: one route pair per target kind, all backed by the same records.
  const targets: {
    path: string;
    kind: ReactionTargetKind;
    exists: (request: FastifyRequest) => { key: string; id: number } | undefined;
  }[] = [
    {
      path: "/repos/:owner/:repo/issues/comments/:comment_id/reactions",
      kind: "issue_comment",
      exists: (request) => {
        const found = commentOf(request);
        return found ? { key: found.key, id: found.comment.id } : undefined;
      },
    },
    {
      path: "/repos/:owner/:repo/pulls/comments/:comment_id/reactions",
      kind: "review_comment",
      exists: (request) => {
        const found = repositoryOf(ctx, request);
        const id = intParam((request.params as { comment_id?: string }).comment_id);
        const comment = found && ctx.state.reviewComments.find((c) => c.repo === found.key && c.id === id);
        return found && comment ? { key: found.key, id: comment.id } : undefined;
      },
    },
    {
      path: "/repos/:owner/:repo/issues/:issue_number/reactions",
      kind: "issue",
      exists: (request) => {
        const found = issueOf(request);
        return found ? { key: found.key, id: found.issue.number } : undefined;
      },
    },
  ];
  for (const target of targets) {
    app.get(target.path, async (request, reply) => {
      const found = target.exists(request);
      if (!found) return notFound(reply);
      const content = queryOf(request).content;
      const reactions = ctx.state.reactions.filter(
        (r) => r.repo === found.key && r.target.kind === target.kind && r.target.id === found.id && (!content || r.content === content),
      );
      return paginate(request, reply, ctx.api, reactions).map((r) => renderReaction(ctx, r));
    });
    app.post(target.path, async (request, reply) => {
      const found = target.exists(request);
      if (!found) return notFound(reply);
      const content = (request.body as { content?: unknown } | undefined)?.content;
      if (typeof content !== "string" || !REACTION_CONTENTS.includes(content as ReactionContent)) {
        return validationFailed(reply, [
          { resource: "Reaction", field: "content", code: "invalid", message: `content must be one of: ${REACTION_CONTENTS.join(", ")}` },
        ]);
      }
      return addReaction(ctx, reply, found.key, { kind: target.kind, id: found.id }, content as ReactionContent);
    });
  }
}

/** GitHub answers 200 with the existing reaction when the same user reacts the same way twice. */
function addReaction(
  ctx: RouteContext,
  reply: FastifyReply,
  repo: string,
  target: { kind: ReactionTargetKind; id: number },
  content: ReactionContent,
) {
  const existing = ctx.state.reactions.find(
    (r) =>
      r.repo === repo &&
      r.target.kind === target.kind &&
      r.target.id === target.id &&
      r.content === content &&
      r.user.id === ctx.state.writer.id,
  );
  if (existing) return reply.code(200).send(renderReaction(ctx, existing));
  const reaction = { repo, id: takeId(ctx.state), target, content, user: ctx.state.writer, created_at: isoSeconds(ctx.state.now()) };
  ctx.state.reactions.push(reaction);
  ctx.emitWrite({ kind: "reaction_added", repo, reaction: { ...reaction } });
  return reply.code(201).send(renderReaction(ctx, reaction));
}

/** The `body` of a comment write, or undefined after answering 422 like GitHub. */
function commentBody(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const body = (request.body as { body?: unknown } | undefined)?.body;
  if (typeof body !== "string" || body.length === 0) {
    validationFailed(reply, [{ resource: "IssueComment", field: "body", code: "missing_field" }]);
    return undefined;
  }
  if (body.length > MAX_COMMENT_BODY) {
    validationFailed(reply, [
      { resource: "IssueComment", field: "body", code: "custom", message: `body is too long (maximum is ${MAX_COMMENT_BODY} characters)` },
    ]);
    return undefined;
  }
  return body;
}

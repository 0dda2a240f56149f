import { findMarkerForRequest } from "../core/markers/trust.js";
import type { PullRequestFile } from "../core/review/anchor.js";
import type { ReviewMarker } from "../core/review/marker.js";
import { redactReviewToFit, type ReviewDraft } from "../core/review/render.js";
import { listPullRequestFilesWithPatches } from "../github/pulls.js";
import { createPullRequestReview, findOwnPullRequestReview, type PostedReview } from "../github/reviews.js";
import { bindCommentBody } from "../core/markers/write.js";
import { createRedactor, type Redactor } from "../core/redact.js";
import { redactToFit, type CommentBody } from "../core/render/fit.js";
import { asMarkerComments, markerPlaceOf } from "../flows/facts.js";
import type { GitHubClient } from "../github/client.js";
import { createComment, listIssueComments, updateComment } from "../github/comments.js";
import { GitHubNotFoundError } from "../github/errors.js";
import { DROPPABLE_PRIORITIES, type ScheduleOptions, type WritePacer, type WritePriority } from "../github/pacing.js";
import { withSpan } from "./ops/tracing.js";
import { addReaction } from "../github/reactions.js";
import type { ReactionContent, ReactionTarget } from "../core/render/reactions.js";
import type { TaskReactionTarget, TaskThread } from "./store/types.js";

export type { CommentBody, WritePriority };

/**
 * What a person is waiting for decides which write goes first when an installation's writes queue up
 * (see github/pacing.ts): the acknowledgement (the tracking comment, a refusal), then results, then
 * courtesies (the 👀 on a trigger that a tracking comment follows), then progress edits, and last a
 * refusal to someone who may not trigger (`outsider`). Courtesies
 * and progress edits may be dropped once stale, progress edits also when a newer write to the same
 * comment supersedes them.
 */
interface WriteOptions extends ScheduleOptions {
  priority: WritePriority;
}

/**
 * The App's only way to write to GitHub, so that the engine and the delivery worker never see an
 * octokit or a Probot context, so that every write can be paced per installation, and so that
 * every body passes one door (createOctokitThreadWriter): its marker bound to the thread, secrets
 * redacted, then fitted to GitHub's limit.
 */
export interface ThreadWriter {
  createComment(thread: TaskThread, body: CommentBody, options: WriteOptions): Promise<number>;
  /** "missing" when the comment no longer exists (deleted by someone): the caller posts a new one. "dropped": a stale progress edit. */
  updateComment(thread: TaskThread, commentId: number, body: CommentBody, options: WriteOptions): Promise<"ok" | "missing" | "dropped">;
  /** False when the reaction was not added: nothing to react to (a review), or a courtesy dropped as stale. */
  react(thread: TaskThread, target: TaskReactionTarget, content: ReactionContent, options: WriteOptions): Promise<boolean>;
  /** A read: the bot's own comment in the thread whose marker carries `requestId` (what a step cut off by a crash may have posted). */
  findOwnComment(thread: TaskThread, requestId: string): Promise<number | null>;
  /** Posts one pull-request review; `rejected`: GitHub answered 422 (a line it could not resolve), with its message. */
  postReview(thread: TaskThread, review: ReviewDraft, options: WriteOptions): Promise<PostedReview>;
  /** A read: the bot's own review carrying `marker` (this run, this head), posted before a crash or redelivery. */
  findOwnReview(thread: TaskThread, marker: ReviewMarker): Promise<{ id: number; htmlUrl: string } | null>;
  /** A read: every file of the thread's pull request with its patch. */
  pullRequestFiles(thread: TaskThread): Promise<PullRequestFile[]>;
}

/** How many recent comments are searched for a comment posted by a step that was cut off. */
const OWN_COMMENT_SCAN = 100;

/**
 * A ThreadWriter over installation-scoped octokits (`probot.auth(installationId)` in the App); unpaced.
 * The door out: every comment body's kind marker is bound to the thread it is written in (a copy in
 * another thread is not believed there), then redacted by `redactor` (the built-in rules when none is
 * given) and fitted to GitHub's limit right before it is sent.
 */
export function createOctokitThreadWriter(
  octokitFor: (installationId: number | null) => Promise<GitHubClient>,
  self: { botLogins: string[] },
  redactor: Redactor = createRedactor(),
): ThreadWriter {
  const repoOf = (thread: TaskThread) => ({ owner: thread.owner, repo: thread.repo });
  const outgoing = (thread: TaskThread, body: CommentBody) =>
    redactToFit(bindCommentBody(body, markerPlaceOf(repoOf(thread), thread.issueNumber)), (text) => redactor.redact(text));
  return {
    async createComment(thread, body) {
      const comment = await createComment(
        await octokitFor(thread.installationId),
        repoOf(thread),
        thread.issueNumber,
        outgoing(thread, body),
      );
      return comment.id;
    },
    async updateComment(thread, commentId, body) {
      try {
        await updateComment(await octokitFor(thread.installationId), repoOf(thread), commentId, outgoing(thread, body));
        return "ok";
      } catch (error) {
        if (error instanceof GitHubNotFoundError) return "missing";
        throw error;
      }
    },
    async react(thread, target, content) {
      if (!canReactTo(target)) return false;
      await addReaction(await octokitFor(thread.installationId), repoOf(thread), { kind: target.kind, id: target.id }, content);
      return true;
    },
    async postReview(thread, review) {
      // The same door as a comment: secrets redacted in the body and every inline comment, each fitted to GitHub's limit.
      const outgoing = redactReviewToFit(review, (text) => redactor.redact(text));
      return createPullRequestReview(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber, outgoing);
    },
    async findOwnReview(thread, marker) {
      return findOwnPullRequestReview(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber, marker, self);
    },
    async pullRequestFiles(thread) {
      return listPullRequestFilesWithPatches(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber);
    },
    async findOwnComment(thread, requestId) {
      const { comments } = await listIssueComments(await octokitFor(thread.installationId), repoOf(thread), thread.issueNumber, {
        limit: OWN_COMMENT_SCAN,
      });
      return (
        findMarkerForRequest(asMarkerComments(comments), requestId, self, markerPlaceOf(repoOf(thread), thread.issueNumber))?.commentId ??
        null
      );
    },
  };
}

/** GitHub has no reactions on reviews themselves: reacting to one writes nothing (and needs no pacing). */
function canReactTo(target: TaskReactionTarget): target is ReactionTarget {
  return target.kind !== "review";
}

/** The key under which edits of one comment supersede each other. */
export function commentSupersedeKey(thread: TaskThread, commentId: number): string {
  return `comment:${thread.owner}/${thread.repo}:${commentId}`;
}

/**
 * Wraps `inner` (e.g. createOctokitThreadWriter) so that every write waits its turn in the
 * installation's lane of `pacer`. Only progress edits may be dropped: `updateComment` then answers
 * "dropped"; an acknowledgement or a result is never dropped (a drop would be a pacer bug, said plainly).
 */
export function createPacedThreadWriter(inner: ThreadWriter, pacer: WritePacer): ThreadWriter {
  async function paced<T>(thread: TaskThread, options: WriteOptions, write: () => Promise<T>, what: string): Promise<T | null> {
    const attributes = { "bridge.write": what, "bridge.write.priority": options.priority, "github.thread.number": thread.issueNumber };
    const outcome = await withSpan("github write", attributes, async (span) => {
      const scheduled = await pacer.schedule(thread.installationId, options.priority, write, options);
      span.setAttributes({ "bridge.write.outcome": scheduled.kind });
      return scheduled;
    });
    if (outcome.kind === "written") return outcome.value;
    if (!DROPPABLE_PRIORITIES.has(options.priority))
      throw new Error(
        `The write pacer dropped a ${options.priority} write (${outcome.reason}); only courtesies and progress edits may be dropped.`,
      );
    return null;
  }
  return {
    async createComment(thread, body, options) {
      const id = await paced(thread, options, () => inner.createComment(thread, body, options), "comment create");
      if (id === null) throw new Error("A new comment cannot be a droppable progress write: post it as an acknowledgement or a result.");
      return id;
    },
    async updateComment(thread, commentId, body, options) {
      const withKey = { ...options, supersedeKey: options.supersedeKey ?? commentSupersedeKey(thread, commentId) };
      return (await paced(thread, withKey, () => inner.updateComment(thread, commentId, body, withKey), "comment update")) ?? "dropped";
    },
    async react(thread, target, content, options) {
      if (!canReactTo(target)) return false;
      return (await paced(thread, options, () => inner.react(thread, target, content, options), "reaction")) ?? false;
    },
    async postReview(thread, review, options) {
      const posted = await paced(thread, options, () => inner.postReview(thread, review, options), "review create");
      if (posted === null) throw new Error("A review cannot be a droppable write: post it as a result.");
      return posted;
    },
    findOwnComment: (thread, requestId) => inner.findOwnComment(thread, requestId),
    findOwnReview: (thread, marker) => inner.findOwnReview(thread, marker),
    pullRequestFiles: (thread) => inner.pullRequestFiles(thread),
  };
}

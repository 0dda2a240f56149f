/**
 * Triggers from the conversation: a new comment (the phrase or a mention), an added label, a
 * submitted review and an inline review comment; and `/agent stop` in any of them.
 */
import type { RepoConfig } from "../../config/schema.js";
import { SOURCE } from "../../service/wire.js";
import type {
  Actor,
  IssueCommentBridgeEvent,
  IssuesBridgeEvent,
  PullRequestReviewBridgeEvent,
  PullRequestReviewCommentBridgeEvent,
} from "../events/types.js";
import { isBotActor, type BridgeSelf } from "../actors.js";
import { grammarOf, parseTriggerComment, type ParsedTrigger } from "../trigger.js";
import { byBot, ignore, isSelf, noTrigger, noTriggerReason, onlyAction, type TriggerDetection } from "./answers.js";
import type { ReviewTrigger, StopRequest } from "./triggers.js";

/** A new comment's run request (issue and review comments read alike); else its stop, or why it is neither. */
function readNewComment(
  event: IssueCommentBridgeEvent | PullRequestReviewCommentBridgeEvent,
  config: RepoConfig,
  self: BridgeSelf,
  what: "comment" | "review comment",
): { ok: true; parsed: ParsedTrigger } | { ok: false; answer: TriggerDetection } {
  const no = (answer: TriggerDetection) => ({ ok: false as const, answer });
  const capitalised = `${what[0]!.toUpperCase()}${what.slice(1)}`;
  if (event.action !== "created") return no(onlyAction(event, "created", `new ${what}s`));
  if (isBotActor(event.comment.author, self)) return no(byBot(event.comment.author, capitalised));
  if (isBotActor(event.sender, self)) return no(byBot(event.sender, capitalised));
  const parsed = parseTriggerComment(event.comment.body, grammarOf(config, self));
  if (!parsed) return no(noTrigger(config, self, `The ${what}`));
  if (parsed.kind === "stop") {
    const keyPrefix = what === "comment" ? "comment" : "review-comment";
    return no(
      stopOf(event, event.comment.author, {
        reaction: { kind: what === "comment" ? "issue_comment" : "review_comment", id: event.comment.id },
        url: event.comment.url,
        dedupeKey: `stop:${keyPrefix}:${event.comment.id}`,
      }),
    );
  }
  return { ok: true, parsed };
}

/** The stop intent of a new comment, review or review comment. */
function stopOf(
  event: IssueCommentBridgeEvent | PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent,
  actor: Actor,
  about: Pick<StopRequest, "reaction" | "url" | "dedupeKey">,
): TriggerDetection {
  return { kind: "stop", stop: { flow: "stop", repo: event.repo, thread: event.thread, actor, ...about } };
}

export function detectComment(event: IssueCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  const read = readNewComment(event, config, self, "comment");
  if (!read.ok) return read.answer;
  return {
    kind: "trigger",
    trigger: {
      flow: "comment",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.comment.author,
      dedupeKey: `comment:${event.comment.id}`,
      forceNew: read.parsed.forceNew,
      thread: event.thread,
      comment: event.comment,
      instruction: read.parsed.instruction,
      quoted: read.parsed.quoted,
    },
  };
}

export function detectLabel(event: IssuesBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "labeled" || !event.label) return onlyAction(event, "labeled", "added labels");
  if (!config.label.enabled) return ignore("label_disabled", "Label triggers are off (`label.enabled: false`).");
  if (event.label.name.toLowerCase() !== config.label.name.toLowerCase()) {
    return ignore("other_label", `The label "${event.label.name}" is not the configured one ("${config.label.name}").`);
  }
  // Other bots may label on a person's behalf (the permission check still applies); our own labels never start a run.
  if (isSelf(event.sender, self)) return byBot(event.sender, "Label added");
  return {
    kind: "trigger",
    trigger: {
      flow: "label",
      sourceType: SOURCE.gitHost,
      event,
      repo: event.repo,
      actor: event.sender,
      dedupeKey: `label:${event.thread.number}:${event.label.name.toLowerCase()}`,
      forceNew: false,
      thread: event.thread,
      label: event.label.name,
    },
  };
}

/** A review trigger, from a submitted review or one of its inline comments. */
function reviewTrigger(
  event: PullRequestReviewBridgeEvent | PullRequestReviewCommentBridgeEvent,
  fields: Pick<ReviewTrigger, "actor" | "dedupeKey" | "forceNew" | "review" | "reviewComment" | "reason" | "instruction" | "quoted">,
): TriggerDetection {
  const { actor, dedupeKey, forceNew, ...about } = fields;
  return {
    kind: "trigger",
    trigger: {
      flow: "review",
      sourceType: SOURCE.gitHostPrReview,
      event,
      repo: event.repo,
      actor,
      dedupeKey,
      forceNew,
      thread: event.thread,
      pullRequest: event.pullRequest,
      ...about,
    },
  };
}

export function detectReview(event: PullRequestReviewBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  if (event.action !== "submitted") return onlyAction(event, "submitted", "submitted reviews");
  const author = event.review.author ?? event.sender;
  if (isBotActor(author, self)) return byBot(author, "Review");
  if (isBotActor(event.sender, self)) return byBot(event.sender, "Review");
  const parsed = parseTriggerComment(event.review.body, grammarOf(config, self));
  if (parsed?.kind === "stop")
    return stopOf(event, author, { reaction: null, url: event.review.url, dedupeKey: `stop:review:${event.review.id}` });
  const changesRequested = event.review.state === "changes_requested";
  if (!parsed && !changesRequested) {
    const why = noTriggerReason(config, self, `The review (state ${event.review.state})`);
    return ignore("no_trigger", `${why} Only reviews requesting changes start runs without it.`);
  }
  if (!config.reviews.enabled) return ignore("reviews_disabled", "Review triggers are off (`reviews.enabled: false`).");
  // A fork's head is its author's to steer: a review there acts only when someone asks with the phrase.
  if (!parsed && event.pullRequest.isFork) {
    return ignore(
      "fork_without_trigger",
      `The review requests changes on a pull request from a fork (${event.pullRequest.headRepoFullName ?? "a deleted repository"}): on a fork's pull request only \`${config.trigger_phrase}\` starts or continues a run.`,
    );
  }
  return reviewTrigger(event, {
    actor: author,
    dedupeKey: `review:${event.review.id}`,
    forceNew: parsed?.forceNew ?? false,
    review: event.review,
    reviewComment: null,
    reason: parsed ? "trigger" : "changes_requested",
    instruction: parsed?.instruction ?? "",
    quoted: parsed?.quoted ?? "",
  });
}

export function detectReviewComment(event: PullRequestReviewCommentBridgeEvent, config: RepoConfig, self: BridgeSelf): TriggerDetection {
  const read = readNewComment(event, config, self, "review comment");
  if (!read.ok) return read.answer;
  if (!config.reviews.enabled) {
    return ignore("reviews_disabled", "The review comment has the trigger, but review triggers are off (`reviews.enabled: false`).");
  }
  return reviewTrigger(event, {
    actor: event.comment.author,
    // Inline comments submitted with a review share its key: one run per review.
    dedupeKey: event.comment.reviewId !== null ? `review:${event.comment.reviewId}` : `review-comment:${event.comment.id}`,
    forceNew: read.parsed.forceNew,
    review: null,
    reviewComment: event.comment,
    reason: "trigger",
    instruction: read.parsed.instruction,
    quoted: read.parsed.quoted,
  });
}

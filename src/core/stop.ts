/**
 * `/agent stop`: someone who may trigger the agent asks it to let go of the thread's run. The
 * service has no cancel call (spec §4), so "stop" means: stop watching the run, drop the
 * follow-ups held behind it, pause CI auto-fix on the pull request until the next human
 * `/agent`, turn the tracking comment into a final "stopped by @who" state, and say plainly that
 * the run itself may go on, with the link to its page where it can be stopped.
 *
 * Pure: the comment bodies, and whether CI auto-fix is paused. The request itself is one of
 * detectTrigger's answers (detect/), decided by planRun like any trigger (the permission); the
 * shell reads the thread (flows/stop.ts) and does the writes (the App's engine, the Action's step).
 */
import type { RepoConfig } from "../config/schema.js";
import { listTrustedKindMarkers, type BotIdentity, type MarkerComment } from "./markers/trust.js";
import { renderKindMarker, renderMarker } from "./markers/write.js";
import type { MarkerPlace, RunMarker } from "./markers/schema.js";
import { isBotActor, type BridgeSelf } from "./actors.js";
import { linkTarget, mentionOf, runLink } from "./render/pieces.js";
import { inlineCode } from "./sanitize-output/code.js";
import { md, type SafeMarkdown } from "./sanitize-output/safe-markdown.js";
import { renderLink } from "./sanitize-output/links.js";
import { grammarOf, parseTriggerComment } from "./trigger.js";

// ---------------------------------------------------------------------------------------------
// What the thread says

function runRef(runId: number | null, webUrl: string | null | undefined): SafeMarkdown {
  return runId === null ? md`the run` : runLink(runId, linkTarget(webUrl));
}

function cancelNote(webUrl: string | null | undefined): SafeMarkdown {
  const href = linkTarget(webUrl);
  const page = href ? renderLink("its page", href) : md`its page on the Agent Run Service`;
  return md`The Agent Run Service has no cancel call, so **the run itself may still be working**: stop it on ${page} if it should not finish.`;
}

export interface StoppedCommentInput {
  /** The tracking comment's marker; it becomes `done` with the outcome `stopped`. */
  marker: RunMarker;
  webUrl?: string | null;
  stoppedBy: string;
  /** A follow-up that was waiting for the run (its own tracking comment), rather than the run's. */
  role: "run" | "follow_up";
  triggerPhrase: string;
}

/** The final state of a tracking comment after `/agent stop`: the bridge's last word on that run here. */
export function renderStoppedComment(input: StoppedCommentInput): string {
  const { outcome: _previous, ...identity } = input.marker;
  const marker = renderMarker({ ...identity, state: "done", outcome: "stopped" });
  const link = runRef(input.marker.runId, input.webUrl);
  const again = inlineCode(`${input.triggerPhrase} <instructions>`, { maxLength: 100 });
  if (input.role === "follow_up") {
    return `${marker}\n${md`⏹️ **Dropped:** ${mentionOf(input.stoppedBy)} stopped agent run ${link} before this follow-up was sent. Reply with ${again} to ask again.`}`;
  }
  const lines = [
    md`### ⏹️ Agent run ${link} stopped by ${mentionOf(input.stoppedBy)}`,
    md`I stopped watching this run and will not post its result here. ${cancelNote(input.webUrl)}`,
    md`<sub>Reply with ${again} to continue this run.</sub>`,
  ];
  return `${marker}\n${lines.join("\n\n")}`;
}

/** The reply to the stop itself (a new comment, so that it follows the request in the thread). */
export function renderStopReply(input: {
  stoppedBy: string;
  /** The run that was being watched, or null when nothing was running. */
  stopped: { runId: number | null; webUrl?: string | null } | null;
  droppedFollowUps: number;
  /** Follow-ups that had already reached the working agent (`follow_up: interrupt`): the stop cannot take them back. */
  deliveredFollowUps?: number;
  pullRequest: boolean;
  triggerPhrase: string;
}): string {
  const phrase = inlineCode(input.triggerPhrase, { maxLength: 100 });
  const ci = input.pullRequest ? md` CI auto-fix is paused on this pull request until the next ${phrase} comment.` : md``;
  const dropped =
    input.droppedFollowUps > 0
      ? (` and dropped ${input.droppedFollowUps === 1 ? "the follow-up" : `${input.droppedFollowUps} follow-ups`} waiting for it` as SafeMarkdown)
      : md``;
  const delivered = input.deliveredFollowUps ?? 0;
  const reached =
    delivered > 0
      ? (` ${delivered === 1 ? "One follow-up had already" : `${delivered} follow-ups had already`} reached the agent.` as SafeMarkdown)
      : md``;
  const body = input.stopped
    ? md`⏹️ ${mentionOf(input.stoppedBy)}, I stopped watching agent run ${runRef(input.stopped.runId, input.stopped.webUrl)}${dropped}.${reached} ${cancelNote(input.stopped.webUrl)}${ci}`
    : md`⏹️ ${mentionOf(input.stoppedBy)}, nothing is running in this thread, so there was nothing to stop.${ci}`;
  return `${renderKindMarker("stop")}\n${body}`;
}

// ---------------------------------------------------------------------------------------------
// CI auto-fix after a stop

/**
 * Whether CI auto-fix is paused on the pull request at `place`: the bot answered a `/agent stop`
 * there (its trusted `stop` reply naming this thread; a legacy one naming none still counts) and no
 * person has written a `/agent` request since. Comment ids grow with time, so "since" is "with a larger id".
 */
export function isCiPausedByStop(
  comments: readonly MarkerComment[],
  config: Pick<RepoConfig, "trigger_phrase" | "mention">,
  self: BridgeSelf & BotIdentity,
  place: MarkerPlace,
): boolean {
  let lastStop = -1;
  for (const { comment } of listTrustedKindMarkers(comments, "stop", self, place)) lastStop = Math.max(lastStop, comment.id);
  if (lastStop === -1) return false;
  const grammar = grammarOf(config, self);
  return !comments.some((comment) => {
    if (comment.id <= lastStop || !comment.user) return false;
    if (isBotActor({ login: comment.user.login, type: comment.user.type ?? "User" }, self)) return false;
    return parseTriggerComment(comment.body, grammar)?.kind === "run";
  });
}

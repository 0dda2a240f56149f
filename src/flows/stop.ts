/**
 * `/agent stop`, the I/O half shared by the App and the Action: the stop detectTrigger answered is
 * planned by planRun like any trigger (it asks for the permission, the same as triggering's); then,
 * which of the bot's tracking comments in the thread are still open (`running` or `queued`
 * markers), and what each becomes. Reads GitHub and the run's page link; writes nothing: the shell
 * (the App's engine, the Action's step) edits the comments, posts the reply, reacts, and drops what it holds.
 *
 * A thread's open comments for one run: the oldest is the run's own (the one being watched), the
 * later ones are follow-ups waiting for it. Each becomes a final `done`/`stopped` state; a watcher
 * (an Action job, the App's engine) that finds its comment so ends without writing again.
 */
import type { RepoConfig } from "../config/schema.js";
import { botIdentityOf, listTrustedRunMarkers } from "../core/markers/trust.js";
import type { RunMarker } from "../core/markers/schema.js";
import type { BridgeSelf } from "../core/actors.js";
import { renderRefusal } from "../core/render/replies.js";
import type { StopRequest } from "../core/detect/triggers.js";
import { planRun, type RunFacts } from "../core/plan.js";
import { renderStoppedComment, renderStopReply } from "../core/stop.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments } from "../github/comments.js";
import { checkTriggerPermission } from "../github/permissions.js";
import type { ReactionTarget } from "../core/render/reactions.js";
import { asMarkerComments, factsFromConfig, markerPlaceOf } from "./facts.js";
import { THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";
import type { RunReader } from "./types.js";

interface StopEdit {
  commentId: number;
  /** The marker the comment had: which run, and that it was still open. */
  marker: RunMarker;
  role: "run" | "follow_up";
  body: string;
}

export type PreparedStop =
  | { action: "refuse"; reason: string; body: string }
  | {
      action: "stop";
      reason: string;
      /** 👍 on the stop comment (reviews take no reactions). */
      reaction: ReactionTarget | null;
      /** The open tracking comments and their final bodies, newest first. */
      edits: StopEdit[];
      /** The reply to post after the edits. */
      reply: string;
      /** The runs that were being watched (their own comments, not follow-ups). */
      stoppedRuns: number[];
    };

export async function prepareStop(input: {
  octokit: GitHubClient;
  request: StopRequest;
  config: RepoConfig;
  self: BridgeSelf;
  /** For each run's page link (the one place it can really be stopped); a failure only drops the link. */
  client?: RunReader;
}): Promise<PreparedStop> {
  const { octokit, request, config } = input;
  const repo: RepoRef = { owner: request.repo.owner, repo: request.repo.name };
  const facts: RunFacts = factsFromConfig(config);
  let plan = planRun(request, facts);
  // A stop needs one fact read: the permission.
  if (plan.action === "read") {
    facts.permission = await checkTriggerPermission(octokit, repo, request.actor, config.permissions);
    plan = planRun(request, facts);
  }
  if (plan.action === "refuse") {
    return { action: "refuse", reason: plan.reason, body: renderRefusal({ login: request.actor.login, reason: plan.reason }) };
  }
  if (plan.action !== "stop") throw new Error(`prepareStop: planRun answered "${plan.action}" to a stop (${plan.reason})`);

  const identity = botIdentityOf(input.self);
  const { comments } = await listIssueComments(octokit, repo, request.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT });
  // Legacy markers too: a stop only edits the bot's own comments in this thread, it sends nothing to their runs.
  const place = markerPlaceOf(repo, request.thread.number);
  const open = listTrustedRunMarkers(asMarkerComments(comments), identity, place).filter(({ marker }) => marker.state !== "done");
  // Oldest first within a run: the first open comment is the run's own, the others wait behind it.
  const ownerOf = new Map<string, number>();
  for (const found of [...open].reverse()) {
    const key = found.marker.runId === null ? `request:${found.commentId}` : `run:${found.marker.runId}`;
    if (!ownerOf.has(key)) ownerOf.set(key, found.commentId);
  }
  const webUrls = new Map<number, string | null>();
  for (const runId of new Set(open.map(({ marker }) => marker.runId).filter((id): id is number => id !== null))) {
    webUrls.set(runId, await pageOf(input.client, runId));
  }
  const edits: StopEdit[] = open.map(({ marker, commentId }) => {
    const key = marker.runId === null ? `request:${commentId}` : `run:${marker.runId}`;
    const role = ownerOf.get(key) === commentId ? "run" : "follow_up";
    const webUrl = marker.runId === null ? null : (webUrls.get(marker.runId) ?? null);
    return {
      commentId,
      marker,
      role,
      body: renderStoppedComment({ marker, webUrl, stoppedBy: request.actor.login, role, triggerPhrase: config.trigger_phrase }),
    };
  });

  const runs = edits.filter((edit) => edit.role === "run");
  const newest = runs.find((edit) => edit.marker.runId !== null) ?? runs[0] ?? null;
  const newestRunId = newest?.marker.runId ?? null;
  const reply = renderStopReply({
    stoppedBy: request.actor.login,
    stopped: newest ? { runId: newestRunId, webUrl: newestRunId === null ? null : (webUrls.get(newestRunId) ?? null) } : null,
    droppedFollowUps: edits.length - runs.length,
    pullRequest: request.thread.kind === "pull_request",
    triggerPhrase: config.trigger_phrase,
  });
  const stoppedRuns = runs.map((edit) => edit.marker.runId).filter((id): id is number => id !== null);
  const reason =
    edits.length === 0
      ? `@${request.actor.login} asked to stop, but nothing is running in this thread.`
      : `@${request.actor.login} stopped ${stoppedRuns.length === 0 ? "a queued request" : `run ${stoppedRuns.join(", ")}`}${edits.length > runs.length ? ` and dropped ${edits.length - runs.length} follow-up(s)` : ""}.`;
  return { action: "stop", reason, reaction: request.reaction, edits, reply, stoppedRuns };
}

async function pageOf(client: RunReader | undefined, runId: number): Promise<string | null> {
  if (!client) return null;
  try {
    return (await client.getRun(runId)).web_url ?? null;
  } catch {
    return null;
  }
}

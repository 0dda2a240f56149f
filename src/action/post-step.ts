/**
 * The post step: when the main step was killed before it could write its last word (SIGKILL, or a
 * cancel that outlasted the grace period), its tracking comment, found through the checkpoint the
 * main step saved (checkpoint.ts), is turned into the cancelled form, once. A comment already final
 * (a result, a stop, the main step's own cancelled form) is left alone; a main step that finished
 * saved that, and nothing is even read. Loads only GitHub's client and the renderer.
 */
import * as core from "@actions/core";
import { parseMarker } from "../core/markers/read.js";
import { isWorkingMarker, renderCancelledComment } from "../core/render/cancelled.js";
import { getComment } from "../github/comments.js";
import { editComment, log, openDoor, signMarkersWith, stepRedactor } from "./door.js";
import { createMarkerSigner } from "./marker-signer.js";
import { CHECKPOINT_STATE, readCheckpoint } from "./checkpoint.js";
import { ACTION_USER_AGENT } from "./head-start.js";
import { createActionOctokit } from "./octokit.js";
import { rawInput, type Env } from "./raw-inputs.js";
import { apiUrlOf } from "./runner-env.js";

export type PostStepOutcome = "nothing_saved" | "finished" | "comment_gone" | "already_final" | "finalised" | "failed";

/** Never fails the job: the post step's work is a courtesy to the thread. */
export async function runPostStep(env: Env): Promise<PostStepOutcome> {
  // The same door as the main step's: redacted, and the marker signed so that a later step trusts it.
  openDoor(stepRedactor(env));
  const apiToken = rawInput(env, "api-token");
  if (apiToken) {
    core.setSecret(apiToken);
    const previous = rawInput(env, "previous-api-token");
    if (previous) core.setSecret(previous);
    signMarkersWith(createMarkerSigner(apiToken, previous || undefined));
  }
  const saved = readCheckpoint(env[`STATE_${CHECKPOINT_STATE}`]);
  if (!saved) {
    log.info("The main step posted no tracking comment: nothing to finish.");
    return "nothing_saved";
  }
  if (saved.finished) {
    log.info("The main step finished its tracking comment: nothing to do.");
    return "finished";
  }
  const token = rawInput(env, "github-token");
  if (token) core.setSecret(token);
  try {
    const octokit = await createActionOctokit(token, apiUrlOf(env), ACTION_USER_AGENT);
    const comment = await getComment(octokit, saved.repo, saved.commentId);
    if (!comment) {
      log.info(`The tracking comment ${saved.commentId} is gone: nothing to finish.`);
      return "comment_gone";
    }
    const marker = parseMarker(comment.body);
    if (!isWorkingMarker(marker)) {
      log.info(`The tracking comment ${comment.htmlUrl} already has its last word.`);
      return "already_final";
    }
    // The comment may not show the run yet (the step died between the create's answer and the edit): the checkpoint does.
    const latest = marker.runId === null && saved.marker.runId !== null ? { ...marker, runId: saved.marker.runId } : marker;
    await editComment(
      octokit,
      saved.repo,
      latest.thread ?? null,
      comment.id,
      renderCancelledComment({ marker: latest, webUrl: saved.webUrl, triggerPhrase: saved.triggerPhrase }),
    );
    log.notice(`The main step was stopped before it finished; its tracking comment now says the job was cancelled: ${comment.htmlUrl}`, {
      title: "Agent run comment finished",
    });
    return "finalised";
  } catch (error) {
    log.warning(`Could not finish the tracking comment ${saved.commentId}: ${(error as Error).message}`);
    return "failed";
  }
}

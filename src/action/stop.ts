/**
 * `/agent stop` in the Action: this job is the stop's own workflow run. It checks the person may
 * trigger runs, turns every open tracking comment of the thread into its final stopped state
 * (the jobs watching them see that and end: see stop-watch.ts), reacts 👍 and replies, saying
 * that the service has no cancel call and linking the run's page.
 */
import type { RepoConfig } from "../config/schema.js";
import type { BridgeSelf } from "../core/actors.js";
import { reactionForPhase } from "../core/render/reactions.js";
import type { StopRequest } from "../core/detect/triggers.js";
import { prepareStop } from "../flows/stop.js";
import type { RunReader } from "../flows/types.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { editComment, log } from "./door.js";
import type { ActionOutcome } from "./report.js";
import type { ThreadReporter } from "./thread.js";

export async function stopFromThread(input: {
  octokit: GitHubClient;
  repo: RepoRef;
  request: StopRequest;
  config: RepoConfig;
  self: BridgeSelf;
  client: RunReader;
  /** Replies and reactions follow the `comment` input; the edits that stop other jobs are made regardless. */
  thread: ThreadReporter;
}): Promise<ActionOutcome> {
  const prepared = await prepareStop({
    octokit: input.octokit,
    request: input.request,
    config: input.config,
    self: input.self,
    client: input.client,
  });
  if (prepared.action === "refuse") {
    const comment = await input.thread.reply(prepared.body);
    log.notice(prepared.reason, { title: "Stop refused" });
    return { kind: "refused", reason: prepared.reason, comment };
  }
  for (const edit of prepared.edits) {
    try {
      await editComment(input.octokit, input.repo, input.thread.number, edit.commentId, edit.body);
    } catch (error) {
      log.warning(`Could not mark comment ${edit.commentId} as stopped: ${(error as Error).message}`);
    }
  }
  await input.thread.react(prepared.reaction, reactionForPhase("stop_accepted"));
  const comment = await input.thread.reply(prepared.reply);
  log.info(prepared.reason);
  return { kind: "stopped", reason: prepared.reason, comment };
}

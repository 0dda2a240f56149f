/**
 * `/agent stop` in the App's delivery worker: dedupe the request, let the shared flow decide
 * (planRun's permission, the thread's open tracking comments and their stopped bodies, the reply),
 * and hand it to the engine, which carries it out under the thread's lock (engine/stopping.ts).
 * Nothing is written here.
 */
import type { RepoConfig } from "../../config/schema.js";
import type { StopRequest } from "../../core/detect/triggers.js";
import { prepareStop } from "../../flows/stop.js";
import type { GitHubClient } from "../../github/client.js";
import type { TaskThread } from "../store/types.js";
import { selfOf, type AppDependencies } from "./types.js";

export async function handleStop(input: {
  request: StopRequest;
  config: RepoConfig;
  octokit: GitHubClient;
  installationId: number | null;
  deps: AppDependencies;
}): Promise<void> {
  const { request, deps } = input;
  const log = deps.log;
  const thread: TaskThread = {
    installationId: input.installationId,
    owner: request.repo.owner,
    repo: request.repo.name,
    issueNumber: request.thread.number,
    triggerPhrase: input.config.trigger_phrase,
  };
  const claimKey = `${request.repo.id}:${request.dedupeKey}`;
  if (!(await deps.store.claimTrigger(claimKey))) {
    log.info({ key: request.dedupeKey }, "this stop was already handled");
    deps.observer?.ignored("already_handled");
    return;
  }
  try {
    const prepared = await prepareStop({ octokit: input.octokit, request, config: input.config, self: selfOf(deps), client: deps.client });
    const outcome = await deps.engine.stopThread(thread, request, prepared);
    if (outcome.kind === "refused") {
      deps.observer?.refused("permission");
      return;
    }
    deps.observer?.accepted?.("stopped");
    log.info({ taskId: outcome.taskId, droppedFollowUps: outcome.droppedFollowUps, reason: prepared.reason }, "stopped");
  } catch (error) {
    await deps.store.releaseTrigger(claimKey);
    throw error;
  }
}

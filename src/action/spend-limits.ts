/**
 * The spend limits in the Action, right before anything is sent to the service: counted from the
 * bot's own comments (flows/spend-limits), since a step keeps no records. Over a limit: no call,
 * one short reply (once per thread per window), a notice, and the step succeeds.
 */
import type { RepoConfig } from "../config/schema.js";
import type { BotIdentity } from "../core/markers/trust.js";
import { checkSpendLimitsFromComments, REPOSITORY_COMMENT_PAGES, type RecentRepositoryComments } from "../flows/spend-limits.js";
import type { PreparedStart } from "../flows/types.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import type { ActionOutcome } from "./report.js";
import type { ThreadReporter } from "./thread.js";
import { log } from "./door.js";

/** The outcome when a limit holds the run back, or null to go on. */
export async function holdBySpendLimits(input: {
  octokit: GitHubClient;
  repo: RepoRef | null;
  prepared: PreparedStart;
  config: RepoConfig;
  self: BotIdentity;
  now: number;
  thread: ThreadReporter;
  /** The repository's recent comments, when `decideAhead` started listing them. */
  recent?: Promise<RecentRepositoryComments>;
}): Promise<ActionOutcome | null> {
  if (!input.repo) return null;
  let checked;
  try {
    checked = await checkSpendLimitsFromComments({ ...input, repo: input.repo });
  } catch (error) {
    // The limits are a backstop: GitHub failing to list comments must not stop every run.
    log.warning(`Could not count the recent runs for the spend limits, so they were not applied: ${(error as Error).message}`);
    return null;
  }
  if (!checked.complete) {
    log.warning(
      `More than ${REPOSITORY_COMMENT_PAGES * 100} comments in this repository in the last day: the repository's run counts are lower bounds.`,
    );
  }
  const { verdict } = checked;
  if (verdict.allowed) return null;
  const comment = verdict.reply === null ? null : await input.thread.reply(verdict.reply);
  if (verdict.reply === null) log.info("The thread was already told about this limit in its window; no second reply.");
  log.notice(verdict.reason, { title: "Agent run held back by a spend limit" });
  return { kind: "over_limit", reason: verdict.reason, comment };
}

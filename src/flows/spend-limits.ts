/**
 * Spend limits for shells that keep no records (the Action): the facts are the bot's own comments.
 * Each tracking comment is one run started (created or resumed); the thread's comments give the
 * thread's count and its earlier over-limit replies, the repository's comments of the last day
 * (`GET /repos/{owner}/{repo}/issues/comments?since=…`) the repository's counts. The decision is
 * core's (`judgeSpendLimits`); a shell with a store passes its own counts to it instead.
 */
import type { RepoConfig } from "../config/schema.js";
import { judgeSpendLimits, overLimitRepliesFromComments, runStartsFromComments, type SpendVerdict } from "../core/limits.js";
import type { BotIdentity } from "../core/markers/trust.js";
import { isCheckFailureTrigger } from "../core/detect/triggers.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments } from "../github/comments.js";
import { asMarkerComments, markerPlaceOf } from "./facts.js";
import { listRecentRepositoryComments, type RecentRepositoryComments } from "./recent-comments.js";
import { THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";
import type { PreparedStart } from "./types.js";

export { listRecentRepositoryComments, REPOSITORY_COMMENT_PAGES, type RecentRepositoryComments } from "./recent-comments.js";

export interface SpendLimitCheck {
  verdict: SpendVerdict;
  /** False when the repository had more recent comments than were read: the counts are lower bounds. */
  complete: boolean;
}

export async function checkSpendLimitsFromComments(input: {
  octokit: GitHubClient;
  repo: RepoRef;
  prepared: PreparedStart;
  config: RepoConfig;
  self: BotIdentity;
  now: number;
  /** The repository's recent comments when a caller started listing them earlier (from a moment at or before `now`). */
  recent?: Promise<RecentRepositoryComments>;
}): Promise<SpendLimitCheck> {
  const { octokit, repo, prepared, self, now } = input;
  const [threadComments, recent] = await Promise.all([
    prepared.thread
      ? listIssueComments(octokit, repo, prepared.thread.number, { limit: THREAD_COMMENT_SCAN_LIMIT }).then((listed) =>
          asMarkerComments(listed.comments),
        )
      : Promise.resolve([]),
    input.recent ?? listRecentRepositoryComments(octokit, repo, now),
  ]);
  const repoStarts = runStartsFromComments(asMarkerComments(recent.comments), self, { repository: `${repo.owner}/${repo.repo}` });
  const place = prepared.thread ? markerPlaceOf(repo, prepared.thread.number) : null;
  const verdict = judgeSpendLimits({
    starts: {
      thread: place ? runStartsFromComments(threadComments, self, place).map((start) => start.at) : [],
      repo: repoStarts.map((start) => start.at),
      ciFixes: repoStarts.filter((start) => start.ciFix).map((start) => start.at),
    },
    earlierReplies: place ? overLimitRepliesFromComments(threadComments, self, place) : [],
    limits: input.config.limits,
    isCiFix: isCheckFailureTrigger(prepared.trigger),
    now,
    threadKind: prepared.thread?.kind ?? null,
  });
  return { verdict, complete: recent.complete };
}

/**
 * The Action keeps no records, so a pull request a run opened only "remembers" its run if the
 * thread of that pull request says so. After a run, the Action leaves one short comment on each
 * pull request it produced in this repository, carrying the run's marker with the head branch:
 * a later review, follow-up comment or failing CI on that pull request then resumes the same run
 * (the App finds the same link in its store).
 */
import { findLatestMarkerForRun, type BotIdentity } from "../core/markers/trust.js";
import { newRunMarker, renderMarker } from "../core/markers/write.js";
import type { MarkerPlace, RunOutcome } from "../core/markers/schema.js";
import { inlineCode } from "../core/sanitize-output/code.js";
import { md, type SafeMarkdown } from "../core/sanitize-output/safe-markdown.js";
import { renderLink } from "../core/sanitize-output/links.js";
import { asMarkerComments, markerPlaceOf } from "../flows/facts.js";
import type { GitHubClient, RepoRef } from "../github/client.js";
import { listIssueComments } from "../github/comments.js";
import { postComment } from "./door.js";
import { findPullRequestsForBranch } from "../github/pulls.js";
import type { AgentRun, SourceType } from "../service/wire.js";

/** Pull requests of one run that get a link comment: a run rarely opens more. */
const MAX_LINKED_PULL_REQUESTS = 5;

export interface LinkLog {
  warning(message: string): void;
}

/** The link comment's body: the run's marker (done, with the branch), and what a person can do. */
function renderPullRequestLink(input: {
  run: AgentRun;
  orgId: number;
  sourceType: SourceType;
  branch: string;
  outcome: RunOutcome;
  triggerPhrase: string;
  /** The pull request's thread, which the marker names. */
  place: MarkerPlace;
}): string {
  const marker = renderMarker({
    ...newRunMarker({
      place: input.place,
      runId: input.run.id,
      orgId: input.orgId,
      sourceType: input.sourceType,
      branches: [input.branch],
    }),
    state: "done",
    outcome: input.outcome,
  });
  const run = input.run.web_url ? renderLink(`#${input.run.id}`, input.run.web_url) : (`#${input.run.id}` as SafeMarkdown);
  const hint = inlineCode(`${input.triggerPhrase} <instructions>`, { maxLength: 100 });
  return `${marker}\n${md`🤖 This pull request comes from agent run ${run}. Comment ${hint} here, or request changes in a review, to continue that run.`}`;
}

/**
 * Posts the link comment on every open pull request of this repository whose head is one of the
 * run's branches, unless the bot already linked this run there. Failures are warnings.
 */
export async function linkPullRequests(
  octokit: GitHubClient,
  repo: RepoRef,
  input: {
    run: AgentRun;
    orgId: number;
    sourceType: SourceType;
    outcome: RunOutcome;
    triggerPhrase: string;
    self: BotIdentity;
    log: LinkLog;
    skipThread?: number | null;
  },
): Promise<number[]> {
  const branches = [...new Set((input.run.git_host_pull_requests ?? []).map((pr) => pr.head_branch_name).filter((b): b is string => !!b))];
  const linked: number[] = [];
  for (const branch of branches.slice(0, MAX_LINKED_PULL_REQUESTS)) {
    try {
      for (const pull of await findPullRequestsForBranch(octokit, repo, branch, { limit: 3 })) {
        if (pull.number === input.skipThread || pull.fromFork) continue;
        const { comments } = await listIssueComments(octokit, repo, pull.number, { limit: 100 });
        const place = markerPlaceOf(repo, pull.number);
        if (findLatestMarkerForRun(asMarkerComments(comments), input.run.id, input.self, place)) continue;
        await postComment(octokit, repo, pull.number, renderPullRequestLink({ ...input, branch, place }));
        linked.push(pull.number);
      }
    } catch (error) {
      input.log.warning(`Could not link the pull request of branch ${branch} to run ${input.run.id}: ${(error as Error).message}`);
    }
  }
  return linked;
}

/**
 * Review mode in the Action: at the end of a review run that succeeded, one pull-request review
 * through flows/review.ts (shared with the App), its write through the door. Part of the step's end
 * (step-end.ts, loaded with `import()`), so that no step's start path carries the review code.
 */
import type { ReviewOutcome } from "../core/review/render.js";
import type { ReviewRequest } from "../core/review/trigger.js";
import type { ImageHosts } from "../core/sanitize-output/image-hosts.js";
import { markerPlaceOf } from "../flows/facts.js";
import { postReviewOfRun } from "../flows/review.js";
import type { RepoRef } from "../github/client.js";
import { listPullRequestFilesWithPatches } from "../github/pulls.js";
import { createPullRequestReview, findOwnPullRequestReview } from "../github/reviews.js";
import type { AgentRun } from "../service/wire.js";
import { log, postReview } from "./door.js";
import { identify, type Step } from "./steps/step.js";

export { renderReviewNotice } from "../core/review/render.js";

export interface ActionReviewInput {
  asked: ReviewRequest;
  run: AgentRun;
  repo: RepoRef;
  pullNumber: number;
  triggerPhrase: string;
  imageHosts: ImageHosts;
}

const fieldsOf = (fields: object) => {
  const text = Object.entries(fields)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(", ");
  return text === "" ? "" : ` (${text})`;
};

/** Posts the run's review (or finds it posted by an earlier attempt of this job); what became of it. */
export async function postActionReview(step: Step, input: ActionReviewInput): Promise<ReviewOutcome> {
  const { repo, pullNumber } = input;
  // Only the bot's own reviews (its logins) count as posted already.
  const self = await identify(step);
  return postReviewOfRun({
    asked: input.asked,
    runId: input.run.id,
    result: input.run.result,
    runUrl: input.run.web_url ?? null,
    place: markerPlaceOf(repo, pullNumber),
    sanitize: { triggerPhrase: input.triggerPhrase, imageHosts: input.imageHosts },
    io: {
      findOwnReview: (marker) => findOwnPullRequestReview(step.octokit, repo, pullNumber, marker, self),
      pullRequestFiles: () => listPullRequestFilesWithPatches(step.octokit, repo, pullNumber),
      postReview: (draft) => postReview(draft, (outgoing) => createPullRequestReview(step.octokit, repo, pullNumber, outgoing)),
    },
    log: {
      info: (fields, message) => log.info(`${message}${fieldsOf(fields)}`),
      warn: (fields, message) => log.warning(`${message}${fieldsOf(fields)}`),
    },
  });
}

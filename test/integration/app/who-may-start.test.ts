/**
 * Who can start a run from a pull request: a review without the trigger acts only on a branch the
 * bridge produced (or any branch of the repository, when configured), never on a fork's pull
 * request; a fork's branch named like the bot's is not the bot's branch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { reviewSubmittedPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, PR_HEAD_SHA, baseSeed, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
/** A person's pull request, its branch in the repository itself. */
const HUMAN_PR = { number: 4, headRef: "fix/dates", headSha: PR_HEAD_SHA, title: "Fix dates by hand", body: "Pins the clock." };
/** A fork's pull request whose branch is named like the one the bot's run produced. */
const BOT_BRANCH = "agent-run/1001-fix-dates";
const FORK = "forker/widgets";
const FORK_PR = {
  number: 3,
  headRef: BOT_BRANCH,
  headSha: "f".repeat(40),
  title: "Improve dates",
  body: "Ignore the tests.",
  headRepoFullName: FORK,
};

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function seedWithPulls() {
  const seed = baseSeed();
  seed.pulls = [
    ...(seed.pulls ?? []),
    {
      number: 3,
      title: FORK_PR.title,
      body: FORK_PR.body,
      head: { ref: BOT_BRANCH, sha: FORK_PR.headSha, repo: { full_name: FORK, fork: true } },
      user: "forker",
    },
    { number: 4, title: HUMAN_PR.title, body: HUMAN_PR.body, head: { ref: HUMAN_PR.headRef, sha: PR_HEAD_SHA }, user: "maintainer" },
  ];
  // The reviews the tests submit exist on GitHub (their inline comments are read for the prompt).
  seed.reviews = [9301, 9302, 9303, 9304, 9305].map((id) => ({
    pull_number: id === 9305 ? 2 : id < 9303 ? 4 : 3,
    id,
    user: id === 9305 ? "reader" : "maintainer",
    state: "CHANGES_REQUESTED",
    body: "",
    comments: [],
  }));
  return seed;
}

const changesRequested = (pr: typeof HUMAN_PR | typeof FORK_PR, id: number, body = "Please use a fixed date.") =>
  reviewSubmittedPayload({ pr, review: { id, state: "changes_requested", body, login: "maintainer" } });

describe("a review requesting changes without the trigger", () => {
  it("on a pull request no run of the bridge produced does nothing: no run, no comment", async () => {
    harness = await startAppHarness({ seed: seedWithPulls() });
    const { status } = await harness.deliver("pull_request_review", changesRequested(HUMAN_PR, 9301));
    expect(status).toBe(200);
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
    expect(harness.github.writes).toEqual([]);
  });

  it("starts a run on any pull request of the repository with `reviews.changes_requested: base_repository`", async () => {
    harness = await startAppHarness({ seed: seedWithPulls(), config: "reviews:\n  changes_requested: base_repository\n" });
    await harness.deliver("pull_request_review", changesRequested(HUMAN_PR, 9302));
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.creates()[0]!.metadata).toMatchObject({ trigger_flow: "review", pull_request_number: 4 });
  });

  it("on a fork's pull request does nothing even with `base_repository`; the trigger phrase from a maintainer still works", async () => {
    harness = await startAppHarness({ seed: seedWithPulls(), config: "reviews:\n  changes_requested: base_repository\n" });
    await harness.deliver("pull_request_review", changesRequested(FORK_PR, 9303));
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
    expect(harness.github.writes).toEqual([]);

    await harness.deliver("pull_request_review", changesRequested(FORK_PR, 9304, "/agent pin the timezone"));
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.creates()[0]!.prompt).toContain("pin the timezone");
  });

  it("by someone without write access on the bot's own branch is not answered: no run, no refusal", async () => {
    harness = await startAppHarness({ seed: seedWithPulls() });
    harness.emulator.control.script({ pullRequests: [{ title: "Fix the flaky date test", head_branch_name: "agent/fix-dates" }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix the flaky test").payload);
    await harness.idle();
    const writesBefore = harness.github.writes.length;

    const review = reviewSubmittedPayload({
      pr: { number: 2, headRef: "agent/fix-dates", headSha: PR_HEAD_SHA },
      review: { id: 9305, state: "changes_requested", body: "Revert all of it.", login: "reader" },
    });
    await harness.deliver("pull_request_review", review);
    await harness.idle();
    expect(harness.service.resumes()).toEqual([]);
    expect(harness.github.writes.slice(writesBefore)).toEqual([]);
  });
});

describe("a fork's branch named like the bot's", () => {
  it("`/agent continue` on it starts a new run: the run that produced the bot's branch of that name is not continued", async () => {
    harness = await startAppHarness({ seed: seedWithPulls() });
    // The bot's run produced `agent-run/1001-fix-dates` in octo-org/widgets.
    harness.emulator.control.script({ pullRequests: [{ title: "Fix the flaky date test", head_branch_name: BOT_BRANCH }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix the flaky test").payload);
    await harness.idle();
    const [producer] = harness.emulator.control.runs();

    const onFork = harness.humanComment({ number: 3, pullRequest: true, title: FORK_PR.title }, "/agent continue");
    await harness.deliver("issue_comment", onFork.payload);
    await harness.idle();

    expect(harness.service.resumes()).toEqual([]);
    const creates = harness.service.creates();
    expect(creates).toHaveLength(2);
    const [, onForkRun] = harness.emulator.control.runs();
    expect(onForkRun!.id).not.toBe(producer!.id);
    expect(harness.botComments(3)).toHaveLength(1);
    expect(harness.botComments(3)[0]!.user.login).toBe(BOT_LOGIN);
  });
});

/** The label flow and the review flows (a submitted review, an inline review comment). */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { issuesLabeledPayload, reviewCommentPayload, reviewSubmittedPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, PR_HEAD_SHA, baseSeed, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const PR = { number: 2, headRef: "agent/fix-dates", headSha: PR_HEAD_SHA, title: "Fix the flaky date test", body: "Pins the clock." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function reactions(h: AppHarness): string[] {
  return h.github.state.reactions.map((r) => `${r.content} ${r.target.kind} ${r.target.id}`);
}

describe("the label flow", () => {
  it("an issue labeled `agent` by a maintainer starts a run from its title and body", async () => {
    harness = await startAppHarness();
    await harness.deliver("issues", issuesLabeledPayload({ thread: ISSUE, label: "agent", sender: "maintainer" }));
    await harness.idle();

    const [create] = harness.service.creates();
    expect(harness.service.creates()).toHaveLength(1);
    expect(create!.prompt).toContain("@maintainer added a label to issue octo-org/widgets#1");
    expect(create!.prompt).toContain("label name (access unknown):\n```text\nagent\n```");
    expect(create!.prompt).toContain("`dates.test.ts` fails on Tuesdays.");
    expect(create!.metadata).toMatchObject({
      source_type: "GIT_HOST",
      trigger_flow: "label",
      label: "agent",
      github_event: "issues",
      github_action: "labeled",
    });
    expect(reactions(harness)).toEqual(["eyes issue 1", "rocket issue 1"]);
    expect(harness.botComments(1).map((c) => parseMarker(c.body)?.state)).toEqual(["done"]);
  });

  it("another label, or the label added by the bot itself, does nothing", async () => {
    harness = await startAppHarness({ config: "label:\n  name: ai-fix\n" });
    await harness.deliver("issues", issuesLabeledPayload({ thread: ISSUE, label: "agent", sender: "maintainer" }));
    await harness.deliver("issues", issuesLabeledPayload({ thread: ISSUE, label: "ai-fix", sender: BOT_LOGIN }));
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    expect(harness.service.requests).toEqual([]);
  });
});

describe("the review flow", () => {
  it("changes requested on a pull request produced by a known run resume that run with the review and its inline comments", async () => {
    const seed = baseSeed();
    seed.reviews = [
      {
        pull_number: 2,
        id: 9001,
        user: "maintainer",
        state: "CHANGES_REQUESTED",
        body: "Please use a fixed date instead of mocking the clock.",
        comments: [
          {
            id: 9101,
            path: "src/dates.test.ts",
            line: 14,
            body: "Use 2024-01-02 here.",
            diff_hunk: "@@ -10,5 +10,6 @@\n-  vi.useFakeTimers()\n+  vi.setSystemTime(now)",
          },
        ],
      },
    ];
    harness = await startAppHarness({ seed });
    // The first run opened the pull request whose head branch is PR #2's.
    harness.emulator.control.script({ pullRequests: [{ title: "Fix the flaky date test", head_branch_name: "agent/fix-dates" }] });
    const comment = harness.humanComment(ISSUE, "/agent fix the flaky test");
    await harness.deliver("issue_comment", comment.payload);
    await harness.idle();
    const [run] = harness.emulator.control.runs();

    const { status } = await harness.deliver(
      "pull_request_review",
      reviewSubmittedPayload({
        pr: PR,
        review: {
          id: 9001,
          state: "changes_requested",
          body: "Please use a fixed date instead of mocking the clock.",
          login: "maintainer",
        },
      }),
    );
    expect(status).toBe(200);
    await harness.idle();

    expect(harness.service.creates()).toHaveLength(1);
    const resumes = harness.service.resumes();
    expect(resumes).toHaveLength(1);
    expect(resumes[0]!.agent_run_id).toBe(run!.id);
    const prompt = resumes[0]!.prompt;
    expect(prompt).toContain("Follow-up review from @maintainer on https://github.com/octo-org/widgets/pull/2#pullrequestreview-9001");
    expect(prompt).toContain("Please use a fixed date instead of mocking the clock.");
    expect(prompt).toContain("### Inline comment 1, line 14");
    expect(prompt).toContain("file path (access unknown):\n```text\nsrc/dates.test.ts\n```");
    expect(prompt).toContain("+  vi.setSystemTime(now)");
    expect(prompt).toContain("Use 2024-01-02 here.");

    // The resume is tracked on the pull request, tagged as a review; reviews get no reaction.
    const onPr = harness.botComments(2);
    expect(onPr).toHaveLength(1);
    expect(parseMarker(onPr[0]!.body)).toMatchObject({ runId: run!.id, sourceType: "GIT_HOST_PR_REVIEW", state: "done" });
    expect(reactions(harness)).toEqual([`eyes issue_comment ${comment.id}`, `rocket issue_comment ${comment.id}`]);
  });

  it("an inline review comment with the trigger on an unknown pull request creates a GIT_HOST_PR_REVIEW run", async () => {
    const seed = baseSeed();
    seed.reviews = [
      {
        pull_number: 2,
        id: 9002,
        user: "maintainer",
        state: "COMMENTED",
        body: "",
        comments: [{ id: 9102, path: "src/dates.ts", line: 3, body: "/agent rename this to `today`" }],
      },
    ];
    harness = await startAppHarness({ seed });
    const payload = reviewCommentPayload({
      pr: PR,
      comment: {
        id: 9102,
        body: "/agent rename this to `today`",
        login: "maintainer",
        path: "src/dates.ts",
        line: 3,
        diffHunk: "@@ -1,3 +1,3 @@\n-const d = new Date()",
        reviewId: 9002,
      },
    });
    await harness.deliver("pull_request_review_comment", payload);
    // The review itself (state commented, no trigger in its body) arrives too and is ignored.
    await harness.deliver(
      "pull_request_review",
      reviewSubmittedPayload({ pr: PR, review: { id: 9002, state: "commented", body: "", login: "maintainer" } }),
    );
    await harness.idle();

    const creates = harness.service.creates();
    expect(creates).toHaveLength(1);
    expect(creates[0]!.metadata).toMatchObject({
      source_type: "GIT_HOST_PR_REVIEW",
      trigger_flow: "review",
      pull_request_number: 2,
      comment_id: 9102,
      review_id: 9002,
      head_sha: PR_HEAD_SHA,
      head_branch: "agent/fix-dates",
    });
    expect(creates[0]!.prompt).toContain("rename this to `today`");
    expect(creates[0]!.prompt).toContain("### Inline comment 1, line 3");
    expect(creates[0]!.prompt).toContain("file path (access unknown):\n```text\nsrc/dates.ts\n```");
    expect(creates[0]!.prompt).toMatch(
      /head branch name by @\S+ \([^)]+\):\n```text\nagent\/fix-dates\n```\nbase branch name \(write access\):\n```text\nmain\n```/,
    );
    expect(reactions(harness)).toEqual(["eyes review_comment 9102", "rocket review_comment 9102"]);
    expect(harness.botComments(2)).toHaveLength(1);
  });
});

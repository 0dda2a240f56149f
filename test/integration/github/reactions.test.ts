import { describe, expect, it } from "vitest";
import type { ReactionContent } from "../../../src/core/render/reactions.js";
import { GitHubInputError, GitHubNotFoundError, addReaction } from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const seed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  pulls: [{ number: 12, title: "Add widget", head: { ref: "feature/widget" } }],
  issueComments: [{ id: 5001, issue_number: 12, body: "@agent fix the tests", user: "alice" }],
  reviews: [
    {
      id: 6001,
      pull_number: 12,
      user: "bob",
      state: "CHANGES_REQUESTED" as const,
      comments: [{ id: 7001, body: "rename this", path: "src/a.ts", line: 3 }],
    },
  ],
};

describe("addReaction", () => {
  it("reacts to an issue comment, a review comment and the issue itself, each on its own route", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect(await addReaction(octokit, REPO, { kind: "issue_comment", id: 5001 }, "eyes")).toMatchObject({ content: "eyes", created: true });
    expect(await addReaction(octokit, REPO, { kind: "review_comment", id: 7001 }, "rocket")).toMatchObject({ created: true });
    expect(await addReaction(octokit, REPO, { kind: "issue", id: 12 }, "+1")).toMatchObject({ created: true });

    expect(callSummary(fake)).toEqual([
      "POST /repos/acme/widgets/issues/comments/5001/reactions → 201",
      "POST /repos/acme/widgets/pulls/comments/7001/reactions → 201",
      "POST /repos/acme/widgets/issues/12/reactions → 201",
    ]);
    expect(fake.state.reactions.map((r) => [r.target.kind, r.target.id, r.content, r.user.login])).toEqual([
      ["issue_comment", 5001, "eyes", "agent-run-bridge[bot]"],
      ["review_comment", 7001, "rocket", "agent-run-bridge[bot]"],
      ["issue", 12, "+1", "agent-run-bridge[bot]"],
    ]);
    expect(fake.writes.map((w) => w.kind)).toEqual(["reaction_added", "reaction_added", "reaction_added"]);
  });

  it("is idempotent: the same reaction twice answers 200 with the same reaction and stores one", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    const first = await addReaction(octokit, REPO, { kind: "issue_comment", id: 5001 }, "eyes");
    const second = await addReaction(octokit, REPO, { kind: "issue_comment", id: 5001 }, "eyes");
    expect(second).toEqual({ id: first.id, content: "eyes", created: false });
    expect(fake.requests.map((r) => r.status)).toEqual([201, 200]);
    expect(fake.state.reactions).toHaveLength(1);
    expect(fake.writes).toHaveLength(1);
    // The comment's reaction rollup counts it once.
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...REPO, comment_id: 5001 });
    expect(data.reactions).toMatchObject({ total_count: 1, eyes: 1, rocket: 0 });
  });

  it("throws GitHubNotFoundError for a comment that is gone", async () => {
    const fake = await startFake(seed);
    const error = await addReaction(octokitFor(fake), REPO, { kind: "issue_comment", id: 1 }, "eyes").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubNotFoundError);
    expect(callSummary(fake)).toEqual(["POST /repos/acme/widgets/issues/comments/1/reactions → 404"]);
  });

  it("refuses an unknown reaction without sending it", async () => {
    const fake = await startFake(seed);
    await expect(addReaction(octokitFor(fake), REPO, { kind: "issue", id: 12 }, "thumbsup" as ReactionContent)).rejects.toBeInstanceOf(
      GitHubInputError,
    );
    expect(fake.requests).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { fakeSha, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { GitHubNotFoundError, findPullRequestsForBranch, getPullRequest, listReviewComments } from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const seed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets", default_branch: "trunk" }],
  issues: [{ number: 1, title: "Plain issue" }],
  pulls: [
    {
      number: 2,
      title: "Same-repo fix",
      body: "Fixes #1",
      user: "alice",
      labels: ["bug", "agent:off"],
      head: { ref: "fix/crash", sha: "a".repeat(40) },
    },
    {
      number: 3,
      title: "From a fork",
      user: "eve",
      head: { ref: "fix/crash", repo: { full_name: "eve/widgets", fork: true } },
      draft: true,
    },
    { number: 4, title: "Old attempt", state: "closed", merged: true, head: { ref: "fix/crash" } },
    { number: 5, title: "Deleted fork", head: { ref: "patch-1", repo: null } },
  ],
  reviews: [
    {
      id: 900,
      pull_number: 2,
      user: "bob",
      state: "CHANGES_REQUESTED",
      body: "Please fix",
      comments: [
        { id: 901, body: "Use a constant", path: "src/a.ts", line: 10 },
        { id: 902, body: "Typo", path: "README.md", line: 2, user: "carol" },
      ],
    },
    { id: 910, pull_number: 2, user: "dan", comments: [{ id: 911, body: "nit" }] },
  ],
};

describe("getPullRequest", () => {
  it("reads branches, shas and fork status", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect(await getPullRequest(octokit, REPO, 2)).toEqual({
      number: 2,
      title: "Same-repo fix",
      body: "Fixes #1",
      state: "open",
      draft: false,
      merged: false,
      author: { login: "alice", type: "User", isBot: false },
      head: { ref: "fix/crash", sha: "a".repeat(40), repoFullName: "acme/widgets", fork: false },
      base: { ref: "trunk", sha: fakeSha("acme/widgets#2:base"), repoFullName: "acme/widgets" },
      fromFork: false,
      htmlUrl: "https://github.com/acme/widgets/pull/2",
      labels: ["bug", "agent:off"],
    });
    expect(await getPullRequest(octokit, REPO, 3)).toMatchObject({
      draft: true,
      fromFork: true,
      head: { repoFullName: "eve/widgets", fork: true },
    });
    expect(await getPullRequest(octokit, REPO, 5)).toMatchObject({ fromFork: true, head: { repoFullName: null, fork: false } });
    // An issue is not a pull request.
    await expect(getPullRequest(octokit, REPO, 1)).rejects.toBeInstanceOf(GitHubNotFoundError);
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/pulls/2 → 200",
      "GET /repos/acme/widgets/pulls/3 → 200",
      "GET /repos/acme/widgets/pulls/5 → 200",
      "GET /repos/acme/widgets/pulls/1 → 404",
    ]);
  });
});

describe("findPullRequestsForBranch", () => {
  it("matches owner:branch, open by default, newest first", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    expect((await findPullRequestsForBranch(octokit, REPO, "fix/crash")).map((p) => p.number)).toEqual([2]);
    expect((await findPullRequestsForBranch(octokit, REPO, "fix/crash", { state: "all" })).map((p) => p.number)).toEqual([4, 2]);
    const closed = await findPullRequestsForBranch(octokit, REPO, "fix/crash", { state: "closed" });
    expect(closed.map((p) => [p.number, p.merged])).toEqual([[4, true]]);
    expect((await findPullRequestsForBranch(octokit, REPO, "fix/crash", { headOwner: "eve" })).map((p) => p.number)).toEqual([3]);
    expect(await findPullRequestsForBranch(octokit, REPO, "nothing-here")).toEqual([]);
    expect(fake.requests.map((r) => r.query)).toEqual([
      { head: "acme:fix/crash", state: "open", per_page: "100", page: "1" },
      { head: "acme:fix/crash", state: "all", per_page: "100", page: "1" },
      { head: "acme:fix/crash", state: "closed", per_page: "100", page: "1" },
      { head: "eve:fix/crash", state: "open", per_page: "100", page: "1" },
      { head: "acme:nothing-here", state: "open", per_page: "100", page: "1" },
    ]);
    expect(fake.unexpectedCalls([["GET", "/repos/acme/widgets/pulls"]])).toEqual([]);
  });
});

describe("listReviewComments", () => {
  it("lists one review's comments with path, line and author", async () => {
    const fake = await startFake(seed);
    const comments = await listReviewComments(octokitFor(fake), REPO, 2, 900);
    expect(comments.map((c) => [c.id, c.reviewId, c.path, c.line, c.author.login, c.body])).toEqual([
      [901, 900, "src/a.ts", 10, "bob", "Use a constant"],
      [902, 900, "README.md", 2, "carol", "Typo"],
    ]);
    expect(comments[0]!.htmlUrl).toBe("https://github.com/acme/widgets/pull/2#discussion_r901");
    expect(callSummary(fake)).toEqual(["GET /repos/acme/widgets/pulls/2/reviews/900/comments?per_page=100&page=1 → 200"]);
  });

  it("throws GitHubNotFoundError for a review of another pull request", async () => {
    const fake = await startFake(seed);
    await expect(listReviewComments(octokitFor(fake), REPO, 3, 900)).rejects.toBeInstanceOf(GitHubNotFoundError);
  });
});

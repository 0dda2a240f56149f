import { describe, expect, it } from "vitest";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { GitHubNotFoundError, listThreadContext } from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const seed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  issues: [{ number: 7, title: "Crash on start", body: "Steps: run it", user: "alice", labels: ["bug", "agent"] }],
  pulls: [
    {
      number: 8,
      title: "Fix crash",
      body: "Closes #7",
      user: "bob",
      head: { ref: "fix/crash", repo: { full_name: "bob/widgets", fork: true } },
    },
  ],
  issueComments: [
    { id: 101, issue_number: 7, body: "Me too", user: "carol" },
    { id: 102, issue_number: 7, body: "Working on it", performed_via_github_app: true },
    { id: 103, issue_number: 7, body: "Renovate update", user: "renovate[bot]" },
    { id: 104, issue_number: 7, body: "It happens on Linux only", user: "alice" },
    { id: 105, issue_number: 7, body: "@agent please fix", user: "alice" },
    { id: 106, issue_number: 8, body: "LGTM", user: "dave" },
  ],
};

describe("listThreadContext", () => {
  it("gathers the issue and its recent human comments, leaving out bots and the excluded comment", async () => {
    const fake = await startFake(seed);
    const context = await listThreadContext(octokitFor(fake), REPO, 7, { excludeCommentIds: [105] });
    expect(context.issue).toEqual({
      number: 7,
      title: "Crash on start",
      body: "Steps: run it",
      state: "open",
      author: { login: "alice", type: "User", isBot: false },
      labels: ["bug", "agent"],
      isPullRequest: false,
      htmlUrl: "https://github.com/acme/widgets/issues/7",
    });
    expect(context.pullRequest).toBeNull();
    expect(context.comments.map((c) => [c.id, c.author.login])).toEqual([
      [101, "carol"],
      [104, "alice"],
    ]);
    expect(context.omittedComments).toBe(3);
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/issues/7 → 200",
      "GET /repos/acme/widgets/issues/7/comments?per_page=100&page=1 → 200",
    ]);
  });

  it("keeps only the most recent maxComments human comments", async () => {
    const fake = await startFake(seed);
    const context = await listThreadContext(octokitFor(fake), REPO, 7, { maxComments: 1 });
    expect(context.comments.map((c) => c.id)).toEqual([105]);
    expect(context.omittedComments).toBe(4);
  });

  it("adds the pull request's branches for a pull request thread", async () => {
    const fake = await startFake(seed);
    const context = await listThreadContext(octokitFor(fake), REPO, 8);
    expect(context.issue.isPullRequest).toBe(true);
    expect(context.pullRequest).toMatchObject({ number: 8, fromFork: true, head: { ref: "fix/crash", repoFullName: "bob/widgets" } });
    expect(context.comments.map((c) => c.body)).toEqual(["LGTM"]);
    expect(fake.callsTo("GET", "/repos/acme/widgets/pulls/8")).toHaveLength(1);
    expect(fake.requests).toHaveLength(3);
  });

  it("throws GitHubNotFoundError for a thread that does not exist", async () => {
    const fake = await startFake(seed);
    await expect(listThreadContext(octokitFor(fake), REPO, 999)).rejects.toBeInstanceOf(GitHubNotFoundError);
  });
});

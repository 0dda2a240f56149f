import { describe, expect, it } from "vitest";
import { GITHUB_COMMENT_MAX_LENGTH } from "../../../src/core/render/fit.js";
import { secondaryRateLimitFault } from "../../helpers/fake-github/index.js";
import {
  GitHubInputError,
  GitHubNotFoundError,
  GitHubRateLimitError,
  GitHubValidationError,
  createComment,
  getComment,
  listIssueComments,
  listRepositoryCommentsSince,
  toGitHubError,
  updateComment,
} from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const thread = {
  repositories: [{ owner: "acme", name: "widgets" }],
  issues: [{ number: 7, title: "Crash on start", body: "It crashes", user: "alice" }],
};

describe("createComment / updateComment / getComment", () => {
  it("creates a comment as the app's bot, updates it, reads it back, and reports each write", async () => {
    const fake = await startFake(thread);
    const octokit = octokitFor(fake);
    const writes: string[] = [];
    fake.onWrite((w) => writes.push(`${w.kind} ${w.repo}#${"issueNumber" in w ? w.issueNumber : "-"}`));

    const created = await createComment(octokit, REPO, 7, "Working on it…");
    expect(created).toMatchObject({
      body: "Working on it…",
      author: { login: "agent-run-bridge[bot]", type: "Bot", isBot: true },
      viaApp: { id: 1001, slug: "agent-run-bridge" },
      htmlUrl: `https://github.com/acme/widgets/issues/7#issuecomment-${created.id}`,
    });

    const updated = await updateComment(octokit, REPO, created.id, "Done ✅");
    expect(updated.id).toBe(created.id);
    expect(updated.body).toBe("Done ✅");
    expect(await getComment(octokit, REPO, created.id)).toMatchObject({ id: created.id, body: "Done ✅" });

    expect(fake.commentsOn("acme/widgets", 7).map((c) => c.body)).toEqual(["Done ✅"]);
    expect(writes).toEqual(["comment_created acme/widgets#7", "comment_updated acme/widgets#7"]);
    expect(fake.writes[1]).toMatchObject({ kind: "comment_updated", previousBody: "Working on it…" });
    expect(callSummary(fake)).toEqual([
      "POST /repos/acme/widgets/issues/7/comments → 201",
      `PATCH /repos/acme/widgets/issues/comments/${created.id} → 200`,
      `GET /repos/acme/widgets/issues/comments/${created.id} → 200`,
    ]);
    expect(fake.requests[0]!.body).toEqual({ body: "Working on it…" });
    // The token is never recorded; only its kind is.
    expect(fake.requests.every((r) => r.auth === "other" && !("authorization" in r.headers))).toBe(true);
  });

  it("returns null for a comment that does not exist and throws GitHubNotFoundError for a missing issue", async () => {
    const fake = await startFake(thread);
    const octokit = octokitFor(fake);
    expect(await getComment(octokit, REPO, 424242)).toBeNull();
    const error = await createComment(octokit, REPO, 99, "hello").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubNotFoundError);
    expect((error as Error).message).toContain("creating a comment on acme/widgets#99 (404)");
    expect((error as Error).message).toContain("[POST /repos/acme/widgets/issues/99/comments]");
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/issues/comments/424242 → 404",
      "POST /repos/acme/widgets/issues/99/comments → 404",
    ]);
  });

  it("refuses empty and oversized bodies before sending anything", async () => {
    const fake = await startFake(thread);
    const octokit = octokitFor(fake);
    await expect(createComment(octokit, REPO, 7, "  ")).rejects.toBeInstanceOf(GitHubInputError);
    await expect(updateComment(octokit, REPO, 1, "x".repeat(GITHUB_COMMENT_MAX_LENGTH + 1))).rejects.toThrow(/at most 65536/);
    expect(fake.requests).toEqual([]);
  });

  it("maps GitHub's own 422 for an oversized body sent around the check", async () => {
    const fake = await startFake(thread);
    const octokit = octokitFor(fake);
    const error = await octokit
      .request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...REPO,
        issue_number: 7,
        body: "y".repeat(GITHUB_COMMENT_MAX_LENGTH + 1),
      })
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(422);
    const mapped = toGitHubError(error, "posting");
    expect(mapped).toBeInstanceOf(GitHubValidationError);
    expect(mapped.message).toContain("body: body is too long (maximum is 65536 characters)");
  });

  it("turns a secondary rate limit (403 + retry-after) into GitHubRateLimitError, then succeeds", async () => {
    const fake = await startFake(thread);
    const octokit = octokitFor(fake);
    const fault = fake.injectFault(secondaryRateLimitFault("POST", "/repos/{owner}/{repo}/issues/{n}/comments", 1, 7));

    const error = await createComment(octokit, REPO, 7, "first try").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubRateLimitError);
    expect((error as GitHubRateLimitError).retryAfterSeconds).toBe(7);
    expect(fault.remaining).toBe(0);
    expect(fake.commentsOn("acme/widgets", 7)).toEqual([]);

    await createComment(octokit, REPO, 7, "second try");
    expect(fake.commentsOn("acme/widgets", 7).map((c) => c.body)).toEqual(["second try"]);
    expect(fake.requests.map((r) => [r.status, r.fault])).toEqual([
      [403, true],
      [201, false],
    ]);
  });
});

describe("listIssueComments", () => {
  const manyComments = (count: number) => ({
    ...thread,
    issueComments: Array.from({ length: count }, (_, i) => ({ issue_number: 7, body: `comment ${i + 1}`, user: i % 2 ? "bob" : "alice" })),
  });

  it("reads all 250 comments of a thread in three pages of 100, oldest first", async () => {
    const fake = await startFake(manyComments(250));
    const { comments, total } = await listIssueComments(octokitFor(fake), REPO, 7);
    expect(total).toBe(250);
    expect(comments).toHaveLength(250);
    expect(comments[0]!.body).toBe("comment 1");
    expect(comments[249]!.body).toBe("comment 250");
    expect(comments[1]!.author).toEqual({ login: "bob", type: "User", isBot: false });
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/issues/7/comments?per_page=100&page=1 → 200",
      "GET /repos/acme/widgets/issues/7/comments?per_page=100&page=2 → 200",
      "GET /repos/acme/widgets/issues/7/comments?per_page=100&page=3 → 200",
    ]);
  });

  it("keeps only the most recent `limit` comments and reads only the pages that hold them", async () => {
    const fake = await startFake(manyComments(1050));
    const { comments, total } = await listIssueComments(octokitFor(fake), REPO, 7, { limit: 300 });
    expect(total).toBe(1050);
    expect(comments).toHaveLength(300);
    expect(comments[0]!.body).toBe("comment 751");
    expect(comments[299]!.body).toBe("comment 1050");
    // Page 1 names the last page (11); pages 8–11 hold the last 300 (page 11 has only 50).
    expect(fake.requests.map((r) => r.query.page)).toEqual(["1", "8", "9", "10", "11"]);
  });

  it("reads a single short page once", async () => {
    const fake = await startFake(manyComments(3));
    const { comments, total } = await listIssueComments(octokitFor(fake), REPO, 7, { limit: 2 });
    expect(total).toBe(3);
    expect(comments.map((c) => c.body)).toEqual(["comment 2", "comment 3"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("rejects a limit that is not a positive integer", async () => {
    const fake = await startFake(thread);
    await expect(listIssueComments(octokitFor(fake), REPO, 7, { limit: 0 })).rejects.toBeInstanceOf(GitHubInputError);
    expect(fake.requests).toEqual([]);
  });
});

describe("listRepositoryCommentsSince", () => {
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const seed = (count: number) => ({
    repositories: [
      { owner: "acme", name: "widgets" },
      { owner: "acme", name: "other" },
    ],
    issues: [
      { number: 7, title: "Crash" },
      { number: 8, title: "Slow" },
      { repo: "acme/other", number: 1, title: "Elsewhere" },
    ],
    issueComments: [
      // Written two days ago but edited now: GitHub's `since` returns it, the creation time drops it.
      { id: 10, issue_number: 7, body: "old, edited", created_at: at(48 * 60), updated_at: at(1) },
      { id: 11, issue_number: 7, body: "old", created_at: at(48 * 60), updated_at: at(48 * 60) },
      { id: 12, repo: "acme/other", issue_number: 1, body: "other repository", created_at: at(5), updated_at: at(5) },
      ...Array.from({ length: count }, (_, i) => ({
        id: 100 + i,
        issue_number: 7 + (i % 2),
        body: `recent ${i}`,
        created_at: at(60 - i / 10),
        updated_at: at(60 - i / 10),
      })),
    ],
  });

  it("every issue's and pull request's comments of the repository created since the time, oldest first, page by page", async () => {
    const fake = await startFake(seed(150));
    const since = new Date(Date.now() - 24 * 3_600_000);
    const { comments, complete } = await listRepositoryCommentsSince(octokitFor(fake), REPO, since);
    expect(complete).toBe(true);
    expect(comments.map((c) => c.body)).toEqual(Array.from({ length: 150 }, (_, i) => `recent ${i}`));
    const query = `since=${encodeURIComponent(since.toISOString())}&sort=created&direction=asc&per_page=100`;
    expect(callSummary(fake)).toEqual([
      `GET /repos/acme/widgets/issues/comments?${query}&page=1 → 200`,
      `GET /repos/acme/widgets/issues/comments?${query}&page=2 → 200`,
    ]);
  });

  it("stops at the page cap and says the list is incomplete", async () => {
    const fake = await startFake(seed(150));
    const { comments, complete } = await listRepositoryCommentsSince(octokitFor(fake), REPO, new Date(Date.now() - 24 * 3_600_000), {
      maxPages: 1,
    });
    expect(complete).toBe(false);
    expect(comments).toHaveLength(99);
  });
});

import { describe, expect, it } from "vitest";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";
import {
  GitHubAuthenticationError,
  GitHubNetworkError,
  GitHubPermissionError,
  GitHubRateLimitError,
  GitHubServerError,
  getPullRequest,
  listIssueComments,
  retryAfterSeconds,
} from "../../../src/github/index.js";
import { REPO, octokitFor, startFake } from "./setup.js";

const seed = { repositories: [{ owner: "acme", name: "widgets" }], pulls: [{ number: 2, head: { ref: "x" } }] };

describe("GitHub errors", () => {
  it("maps 401, 403, 429, 5xx and no answer to their own classes with what to do next, never the token", async () => {
    const fake = await startFake(seed);
    const anonymous = octokitFor(fake, null);
    const unauthenticated = await getPullRequest(anonymous, REPO, 2).catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(GitHubAuthenticationError);
    expect((unauthenticated as Error).message).toBe(
      "GitHub rejected the credentials while reading pull request acme/widgets#2 (401): check the App's ID and private key, or the token you passed, and that it has not expired. [GET /repos/acme/widgets/pulls/2] GitHub said: Requires authentication",
    );

    const octokit = octokitFor(fake, "ghs_very_secret_value");
    fake.injectFault({
      method: "GET",
      path: "/repos/acme/widgets/pulls/2",
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    const forbidden = await getPullRequest(octokit, REPO, 2).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(GitHubPermissionError);
    expect((forbidden as Error).message).toContain("GitHub said: Resource not accessible by integration");

    fake.injectFault({ method: "GET", path: "/repos/acme/widgets/pulls/2", status: 429, headers: { "retry-after": "30" } });
    const limited = await getPullRequest(octokit, REPO, 2).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(GitHubRateLimitError);
    expect((limited as GitHubRateLimitError).retryAfterSeconds).toBe(30);

    fake.injectFault({ method: "GET", path: "/repos/{o}/{r}/issues/{n}/comments", status: 502, body: { message: "Server Error" } });
    await expect(listIssueComments(octokit, REPO, 2)).rejects.toBeInstanceOf(GitHubServerError);

    for (const error of [forbidden, limited]) {
      expect(String((error as Error).message)).not.toContain("very_secret");
      expect(JSON.stringify(error)).not.toContain("very_secret");
      // The Octokit error kept as `cause` has its authorization header redacted by Octokit.
      expect(JSON.stringify((error as Error).cause)).toContain("[REDACTED]");
      expect(JSON.stringify((error as Error).cause)).not.toContain("very_secret");
    }
  });

  it("reports a GitHub that does not answer as GitHubNetworkError", async () => {
    const gone = await startFakeGitHub();
    await gone.close();
    const error = await getPullRequest(octokitFor(gone), REPO, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitHubNetworkError);
    expect((error as Error).message).toContain("Could not reach GitHub while reading pull request acme/widgets#2");
  });

  it("computes the wait from retry-after, else from the rate-limit reset", () => {
    expect(retryAfterSeconds({ "retry-after": "5" })).toBe(5);
    expect(retryAfterSeconds({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1100" }, 1_000_000)).toBe(100);
    expect(retryAfterSeconds({ "x-ratelimit-remaining": "12", "x-ratelimit-reset": "1100" }, 1_000_000)).toBeUndefined();
  });
});

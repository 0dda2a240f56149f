/**
 * The Action's client: @actions/github reads GITHUB_API_URL when it is first imported, so this
 * file starts the fake, sets the variable, then imports it (vitest isolates modules per file).
 */
import { describe, expect, it } from "vitest";
import { createActionOctokit, proxyFor } from "../../../src/action/octokit.js";
import { createComment, listFailedJobs, type GitHubClient } from "../../../src/github/index.js";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { startFake } from "./setup.js";

const SEED: FakeGitHubSeed = {
  app: { slug: "github-actions", name: "GitHub Actions" },
  repositories: [{ owner: "acme", name: "widgets" }],
  issues: [{ number: 3 }],
  workflowRuns: [
    { id: 9, head_branch: "b", head_sha: "9".repeat(40), jobs: [{ id: 10, name: "test", conclusion: "failure", log: "boom\n" }] },
  ],
};

/** What the Action does with its client: a comment as the job's bot, then failed jobs with their logs (behind a redirect). */
async function commentAndReadJobLogs(octokit: GitHubClient, fake: Awaited<ReturnType<typeof startFake>>): Promise<void> {
  const comment = await createComment(octokit, { owner: "acme", repo: "widgets" }, 3, "From the workflow");
  expect(comment.author.login).toBe("github-actions[bot]");
  const jobs = await listFailedJobs(octokit, { owner: "acme", repo: "widgets" }, 9);
  expect(jobs.map((j) => [j.name, j.logTail])).toEqual([["test", "boom\n"]]);
  expect(fake.requests.map((r) => `${r.method} ${r.route} ${r.auth} ${r.status}`)).toEqual([
    "POST /repos/:owner/:repo/issues/:issue_number/comments installation 201",
    "GET /repos/:owner/:repo/actions/runs/:run_id/jobs installation 200",
    "GET /repos/:owner/:repo/actions/jobs/:job_id/logs installation 302",
    // The reader follows the redirect itself, without the token: the download's size, then its tail.
    "GET /_fake/job-logs/:job_id none 206",
    "GET /_fake/job-logs/:job_id none 206",
  ]);
}

describe("@actions/github's getOctokit against the fake (GITHUB_API_URL)", () => {
  it("writes comments and follows the job-log redirect with the installation token kind recorded", async () => {
    const fake = await startFake(SEED);
    process.env.GITHUB_API_URL = fake.url;
    try {
      const { getOctokit } = await import("@actions/github");
      const octokit: GitHubClient = getOctokit("ghs_job_token");
      await commentAndReadJobLogs(octokit, fake);
    } finally {
      delete process.env.GITHUB_API_URL;
    }
  });
});

describe("the Action's own client (createActionOctokit)", () => {
  it("without a proxy: the same requests over node:http, the job-log redirect followed, the user agent named", async () => {
    const fake = await startFake(SEED);
    const octokit = await createActionOctokit("ghs_job_token", fake.url, "agent-run-bridge/action/1.2.3");
    await commentAndReadJobLogs(octokit, fake);
    expect(fake.requests[0]!.headers["user-agent"]).toMatch(/^agent-run-bridge\/action\/1\.2\.3 octokit-core\.js\//);
  });

  it("takes the proxy-aware client exactly when https_proxy / http_proxy applies to the API, less no_proxy", () => {
    const saved = { https_proxy: process.env.https_proxy, no_proxy: process.env.no_proxy };
    try {
      delete process.env.https_proxy;
      delete process.env.no_proxy;
      expect(proxyFor("https://api.github.com")).toBe(false);
      process.env.https_proxy = "http://proxy.internal:3128";
      expect(proxyFor("https://api.github.com")).toBe(true);
      expect(proxyFor("not a url")).toBe(false);
      process.env.no_proxy = "api.github.com";
      expect(proxyFor("https://api.github.com")).toBe(false);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

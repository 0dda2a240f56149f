/** The fake itself: GitHub's conventions that the bridge (and Probot under it) rely on. */
import { generateKeyPairSync } from "node:crypto";
import { Probot } from "probot";
import { describe, expect, it } from "vitest";
import { describeWrite, startFakeGitHub, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { addReaction, createComment, updateComment } from "../../../src/github/index.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const seed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  issues: [{ number: 7, title: "Crash" }],
  files: [
    { path: ".github/agent-run.yml", content: "trigger_phrase: '@agent'\n" },
    { path: ".github/agent-run.yml", content: "trigger_phrase: '@beta'\n", ref: "beta" },
    { path: "docs/guide.md", content: "# Guide\n" },
  ],
};

describe("authentication and bookkeeping", () => {
  it("answers 401 without credentials, like GitHub, and records every call with rate-limit headers", async () => {
    const fake = await startFake(seed);
    const anonymous = await fetch(`${fake.url}/repos/acme/widgets`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ message: "Requires authentication" });
    expect(anonymous.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);

    const octokit = octokitFor(fake);
    const first = await octokit.request("GET /repos/{owner}/{repo}", REPO);
    const second = await octokit.request("GET /repos/{owner}/{repo}", REPO);
    expect(first.data).toMatchObject({ full_name: "acme/widgets", default_branch: "main", private: false, fork: false });
    expect(Number(first.headers["x-ratelimit-remaining"]) - Number(second.headers["x-ratelimit-remaining"])).toBe(1);
    expect(first.headers["x-ratelimit-limit"]).toBe("5000");
    expect(Number(first.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    expect(fake.requests.map((r) => `${r.auth} ${r.status}`)).toEqual(["none 401", "other 200", "other 200"]);
  });

  it("answers unknown routes 404 and lists them as unexpected", async () => {
    const fake = await startFake(seed);
    const error = await octokitFor(fake)
      .request("GET /repos/{owner}/{repo}/branches", REPO)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, response: { data: { message: "Not Found" } } });
    expect(fake.unknownRouteCalls().map((r) => r.path)).toEqual(["/repos/acme/widgets/branches"]);
    expect(fake.unexpectedCalls([["GET", "/repos/{owner}/{repo}"]])).toHaveLength(1);
  });

  it("serves GitHub Enterprise style under /api/v3 too", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor({ ...fake, url: `${fake.url}/api/v3` });
    const { data } = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}", { ...REPO, issue_number: 7 });
    expect(data.title).toBe("Crash");
    expect(callSummary(fake)).toEqual(["GET /repos/acme/widgets/issues/7 → 200"]);
  });

  it("plays a Probot app's installation flow: JWT for the token, installation token for the work", async () => {
    const fake = await startFake(seed);
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const probot = new Probot({ appId: 1001, privateKey, baseUrl: fake.url, logLevel: "fatal" });

    const appOctokit = await probot.auth();
    const { data: app } = await appOctokit.request("GET /app");
    expect(app).toMatchObject({ id: 1001, slug: "agent-run-bridge" });
    const { data: installation } = await appOctokit.request("GET /repos/{owner}/{repo}/installation", REPO);
    expect(installation.id).toBe(2002);

    const octokit = await probot.auth(installation.id);
    await createComment(octokit, REPO, 7, "hello from the app");
    expect(fake.requests.map((r) => `${r.method} ${r.route} ${r.auth} ${r.status}`)).toEqual([
      "GET /app app_jwt 200",
      "GET /repos/:owner/:repo/installation app_jwt 200",
      "POST /app/installations/:installation_id/access_tokens app_jwt 201",
      "POST /repos/:owner/:repo/issues/:issue_number/comments installation 201",
    ]);
  });

  it("serves further installations of the app (other organizations), each with its own token, and no others", async () => {
    const fake = await startFake({ ...seed, otherInstallations: [{ id: 3003, account: "other-org" }] });
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const probot = new Probot({ appId: 1001, privateKey, baseUrl: fake.url, logLevel: "fatal" });
    const appOctokit = await probot.auth();
    const { data: installations } = await appOctokit.request("GET /app/installations");
    expect(installations.map((i) => [i.id, i.account?.login])).toEqual([
      [2002, "acme"],
      [3003, "other-org"],
    ]);

    await createComment(await probot.auth(3003), REPO, 7, "from the other installation");
    const unknown = await appOctokit
      .request("POST /app/installations/{installation_id}/access_tokens", { installation_id: 4004 })
      .catch((e: { status: number }) => e);
    expect(unknown).toMatchObject({ status: 404 });
  });

  it("injects faults for the next N matching requests only", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    const fault = fake.injectFault({
      method: "GET",
      path: "/repos/{o}/{r}",
      times: 2,
      status: 502,
      headers: { "x-ratelimit-remaining": "0" },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        await octokit.request("GET /repos/{owner}/{repo}", REPO).then(
          (r) => r.status,
          (e: { status: number }) => e.status,
        ),
      );
    }
    expect(statuses).toEqual([502, 502, 200]);
    expect(fault.remaining).toBe(0);
    expect(fake.requests.map((r) => r.fault)).toEqual([true, true, false]);
  });

  it("paginates with absolute Link URLs that Octokit's paginate follows", async () => {
    const fake = await startFake({
      ...seed,
      issueComments: Array.from({ length: 250 }, (_, i) => ({ issue_number: 7, body: `c${i}` })),
    });
    const octokit = octokitFor(fake);
    const page = await octokit.request("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      ...REPO,
      issue_number: 7,
      per_page: 100,
      page: 2,
    });
    const base = `${fake.url}/repos/acme/widgets/issues/7/comments`;
    expect(page.headers.link).toBe(
      `<${base}?per_page=100&page=1>; rel="prev", <${base}?per_page=100&page=3>; rel="next", <${base}?per_page=100&page=3>; rel="last", <${base}?per_page=100&page=1>; rel="first"`,
    );
    const all = await octokit.paginate("GET /repos/{owner}/{repo}/issues/{issue_number}/comments", {
      ...REPO,
      issue_number: 7,
      per_page: 100,
    });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`));
  });

  it("validates writes like GitHub: 422 for a missing body or an unknown reaction", async () => {
    const fake = await startFake({ ...seed, issueComments: [{ id: 5000, issue_number: 7, body: "hi" }] });
    const octokit = octokitFor(fake);
    const noBody = await octokit
      .request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...REPO, issue_number: 7 } as never)
      .catch((e: unknown) => e);
    expect(noBody).toMatchObject({
      status: 422,
      response: { data: { message: "Validation Failed", errors: [{ field: "body", code: "missing_field" }] } },
    });
    const badReaction = await octokit
      .request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
        ...REPO,
        comment_id: 5000,
        content: "party" as never,
      })
      .catch((e: unknown) => e);
    expect(badReaction).toMatchObject({ status: 422 });
    expect(fake.writes).toEqual([]);
  });
});

describe("the write feed", () => {
  it("reports every write as it happens, in one line each for the demo", async () => {
    const fake = await startFake({ ...seed, issueComments: [{ id: 5000, issue_number: 7, body: "@agent go", user: "alice" }] });
    const octokit = octokitFor(fake);
    const lines: string[] = [];
    const stop = fake.onWrite((write) => lines.push(describeWrite(write, 20)));
    await addReaction(octokit, REPO, { kind: "issue_comment", id: 5000 }, "eyes");
    const comment = await createComment(octokit, REPO, 7, "Started run 42.\nWatching it for you.");
    await updateComment(octokit, REPO, comment.id, "Run 42 finished");
    await octokit.request("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", { ...REPO, comment_id: comment.id });
    stop();
    await addReaction(octokit, REPO, { kind: "issue", id: 7 }, "rocket");
    expect(lines).toEqual([
      "acme/widgets issue comment 5000 reaction eyes by agent-run-bridge[bot]",
      `acme/widgets#7 comment ${comment.id} created by agent-run-bridge[bot]: Started run 42. Wat…`,
      `acme/widgets#7 comment ${comment.id} updated: Run 42 finished`,
      `acme/widgets#7 comment ${comment.id} deleted`,
    ]);
    expect(fake.writes.map((w) => w.kind)).toEqual([
      "reaction_added",
      "comment_created",
      "comment_updated",
      "comment_deleted",
      "reaction_added",
    ]);
    expect(fake.commentsOn("acme/widgets", 7).map((c) => c.id)).toEqual([5000]);
  });
});

describe("file contents", () => {
  it("serves JSON (base64) and raw forms, per ref, and 404 for absent files", async () => {
    const fake = await startFake(seed);
    const octokit = octokitFor(fake);
    const json = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...REPO, path: ".github/agent-run.yml" });
    const file = json.data as { type: string; encoding: string; content: string; path: string; size: number };
    expect(file).toMatchObject({ type: "file", encoding: "base64", path: ".github/agent-run.yml", size: 25 });
    expect(Buffer.from(file.content, "base64").toString()).toBe("trigger_phrase: '@agent'\n");
    expect(json.headers["content-type"]).toBe("application/json; charset=utf-8");

    const raw = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...REPO,
      path: ".github/agent-run.yml",
      mediaType: { format: "raw" },
    });
    expect(raw.data).toBe("trigger_phrase: '@agent'\n");
    const rawBeta = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
      ...REPO,
      path: ".github/agent-run.yml",
      ref: "beta",
      mediaType: { format: "raw" },
    });
    expect(rawBeta.data).toBe("trigger_phrase: '@beta'\n");

    const dir = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...REPO, path: "docs" });
    expect((dir.data as { name: string; type: string }[]).map((e) => [e.name, e.type])).toEqual([["guide.md", "file"]]);
    const root = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...REPO, path: "" });
    expect((root.data as { name: string; type: string }[]).map((e) => [e.name, e.type])).toEqual([
      [".github", "dir"],
      ["docs", "dir"],
    ]);

    await expect(octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { ...REPO, path: "nope.yml" })).rejects.toMatchObject({
      status: 404,
    });
    expect(fake.requests.map((r) => `${r.path} ${r.headers.accept} ${r.status}`)).toEqual([
      "/repos/acme/widgets/contents/.github/agent-run.yml application/vnd.github.v3+json 200",
      "/repos/acme/widgets/contents/.github/agent-run.yml application/vnd.github.v3.raw 200",
      "/repos/acme/widgets/contents/.github/agent-run.yml application/vnd.github.v3.raw 200",
      "/repos/acme/widgets/contents/docs application/vnd.github.v3+json 200",
      "/repos/acme/widgets/contents application/vnd.github.v3+json 200",
      "/repos/acme/widgets/contents/nope.yml application/vnd.github.v3+json 404",
    ]);
  });

  it("works with Probot's config loader, including the fallback to the owner's .github repository", async () => {
    const fake = await startFake({
      repositories: [
        { owner: "acme", name: "widgets" },
        { owner: "acme", name: "gadgets" },
      ],
      files: [
        { repo: "acme/.github", path: ".github/agent-run.yml", content: "model: org-wide\n" },
        { repo: "acme/gadgets", path: ".github/agent-run.yml", content: "_extends: .github\nagent_type: native\n" },
      ],
    });
    const octokit = octokitFor(fake);
    const widgets = await octokit.config.get({ owner: "acme", repo: "widgets", path: ".github/agent-run.yml" });
    expect(widgets.config).toEqual({ model: "org-wide" });
    const gadgets = await octokit.config.get({ owner: "acme", repo: "gadgets", path: ".github/agent-run.yml" });
    expect(gadgets.config).toEqual({ model: "org-wide", agent_type: "native" });
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/contents/.github/agent-run.yml → 404",
      "GET /repos/acme/.github/contents/.github/agent-run.yml → 200",
      "GET /repos/acme/gadgets/contents/.github/agent-run.yml → 200",
      "GET /repos/acme/.github/contents/.github/agent-run.yml → 200",
    ]);
  });
});

describe("checks and workflow runs", () => {
  it("lists check runs by commit sha or branch, and workflow runs with their pull requests", async () => {
    const fake = await startFake({
      repositories: [{ owner: "acme", name: "widgets" }],
      pulls: [{ number: 2, head: { ref: "fix/crash", sha: "f".repeat(40) } }],
      checkSuites: [
        { id: 10, head_sha: "f".repeat(40), head_branch: "fix/crash", check_runs: [{ id: 11, name: "build", conclusion: "failure" }] },
      ],
      workflowRuns: [
        {
          id: 20,
          head_branch: "fix/crash",
          head_sha: "f".repeat(40),
          pull_requests: [2],
          jobs: [{ name: "build", conclusion: "failure" }],
        },
      ],
    });
    const octokit = octokitFor(fake);
    for (const ref of ["f".repeat(40), "fix/crash"]) {
      const { data } = await octokit.request("GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...REPO, ref });
      expect(data.check_runs.map((r) => [r.id, r.name, r.conclusion, r.check_suite?.id])).toEqual([[11, "build", "failure", 10]]);
    }
    const { data: run } = await octokit.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}", { ...REPO, run_id: 20 });
    expect(run).toMatchObject({
      id: 20,
      conclusion: "failure",
      head_branch: "fix/crash",
      pull_requests: [{ number: 2, head: { ref: "fix/crash" } }],
    });
    expect(fake.unknownRouteCalls()).toEqual([]);
  });
});

describe("job-log downloads", () => {
  it("serve byte ranges as blob storage does (206, 416 past the end), or ignore them when told to", async () => {
    const fake = await startFake({
      repositories: [{ owner: "acme", name: "widgets" }],
      workflowRuns: [
        { id: 9, head_branch: "b", head_sha: "9".repeat(40), jobs: [{ id: 10, name: "t", conclusion: "failure", log: "0123456789" }] },
      ],
    });
    const redirect = await octokitFor(fake).request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
      ...REPO,
      job_id: 10,
      request: { redirect: "manual" },
    });
    const download = String(redirect.headers.location);
    const get = async (range?: string) => {
      const response = await fetch(download, range ? { headers: { range } } : {});
      return [response.status, response.headers.get("content-range"), await response.text()];
    };

    expect(await get("bytes=-4")).toEqual([206, "bytes 6-9/10", "6789"]);
    expect(await get("bytes=-40")).toEqual([206, "bytes 0-9/10", "0123456789"]);
    expect(await get("bytes=2-4")).toEqual([206, "bytes 2-4/10", "234"]);
    expect(await get("bytes=7-")).toEqual([206, "bytes 7-9/10", "789"]);
    expect(await get("bytes=10-")).toEqual([416, "bytes */10", ""]);
    expect(await get()).toEqual([200, null, "0123456789"]);
    fake.state.jobLogRanges = false;
    expect(await get("bytes=-4")).toEqual([200, null, "0123456789"]);
    expect(fake.state.jobLogDownloads.map((d) => d.bytesSent)).toEqual([4, 10, 3, 3, 0, 10, 10]);
  });
});

describe("startFakeGitHub", () => {
  it("listens on the port asked for and stops on close", async () => {
    const probe = await startFakeGitHub();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const fake = await startFakeGitHub({ port });
    expect(fake.url).toBe(`http://127.0.0.1:${port}`);
    await fake.close();
    await expect(fetch(`${fake.url}/app`)).rejects.toThrow();
  });
});

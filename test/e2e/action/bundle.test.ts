/**
 * The shipped artifact, run as a GitHub runner runs it: the COMMITTED `dist/index.js` under Node 24
 * (`runs.using: node24`), in a child process with only the INPUT_* and GITHUB_* environment, a real
 * webhook payload at GITHUB_EVENT_PATH, the fake GitHub as GITHUB_API_URL and the emulator as the
 * service. Asserts what a workflow sees: the exit code, the outputs file, the job summary, and the
 * comment left in the thread.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { createPng, startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import {
  ACTIONS_BOT,
  PR_BRANCH,
  PR_HEAD_SHA,
  SCALE,
  TEST_POLL_INTERVAL,
  actionSeed,
  createRunnerFiles,
  ensureNode24,
  readOutputs,
  readSummary,
  runBundledAction,
  stepEnv,
  workflowDispatchPayload,
  workflowRunCompletedPayload,
} from "../../helpers/action-runner.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { startConnectProxy } from "../../helpers/connect-proxy.js";
import { preloadAtCreate } from "../../helpers/create-preload.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

const run = promisify(execFile);

let node24: string;
let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;

beforeAll(async () => {
  node24 = await ensureNode24();
  const seed = actionSeed();
  // Review mode anchors its findings in the pull request's diff: right side 1 (context), 2 (added), 3 (context).
  seed.pulls = seed.pulls!.map((pull) => ({
    ...pull,
    patches: { "src/dates.ts": "@@ -1,2 +1,3 @@\n import x;\n+const day = now();\n export { day };" },
  }));
  seed.workflowRuns = [
    {
      id: 700,
      name: "CI",
      head_branch: PR_BRANCH,
      head_sha: PR_HEAD_SHA,
      pull_requests: [2],
      jobs: [
        { id: 701, name: "lint", conclusion: "success", log: "all good\n" },
        {
          id: 702,
          name: "test",
          conclusion: "failure",
          steps: [{ name: "Checkout" }, { name: "Run the tests", conclusion: "failure" }],
          log: "PASS src/a.test.ts\nFAIL src/dates.test.ts\n  expected Tuesday, got Wednesday\n",
        },
      ],
    },
  ];
  [github, emulator] = await Promise.all([startFakeGitHub({ seed }), startEmulator({ timeScale: SCALE })]);
  service = await startServiceRecorder(emulator.url);
}, 180_000);

afterAll(async () => {
  await Promise.all([github?.close(), emulator?.close(), service?.close()]);
});

function envFor(eventName: string, payload: object, inputs: Record<string, string>) {
  const files = createRunnerFiles();
  const env = stepEnv({
    eventName,
    payload,
    inputs: { "api-url": service.url, "api-token": emulator.token, "org-id": String(emulator.orgId), ...inputs },
    githubApiUrl: github.url,
    files,
    extra: { AGENT_RUN_POLL_INTERVAL: TEST_POLL_INTERVAL },
  });
  return { files, env };
}

/** A dispatch with a prompt that does not wait for its run, as the cold-start benchmark starts one. */
function dispatchEnv(githubApiUrl: string, files: ReturnType<typeof createRunnerFiles>, extra: Record<string, string> = {}) {
  return stepEnv({
    eventName: "workflow_dispatch",
    payload: workflowDispatchPayload(),
    inputs: {
      "api-url": service.url,
      "api-token": emulator.token,
      "org-id": String(emulator.orgId),
      prompt: "Upgrade the test runner",
      wait: "false",
    },
    githubApiUrl,
    files,
    extra,
  });
}

/** A person's comment on issue 1, numbered by the fake as GitHub would (after every comment so far), and its delivery payload. */
function humanComment(body: string) {
  github.seed({ issueComments: [{ issue_number: 1, body, user: "maintainer" }] });
  const id = Math.max(...github.commentsOn(FULL_NAME, 1).map((c) => c.id));
  return issueCommentPayload({
    thread: { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." },
    comment: { id, body, login: "maintainer" },
  });
}

describe("dist/index.js on Node 24, as a runner starts it", () => {
  it("runs on Node 24", async () => {
    const { stdout } = await run(node24, ["--version"]);
    expect(stdout).toMatch(/^v24\./);
  });

  it("turns a /agent comment into a run and reports it in the outputs, the job summary and the thread", async () => {
    const trigger = humanComment("/agent fix the flaky date test");
    const { files, env } = envFor("issue_comment", trigger, {
      metadata: '{"ticket":"ENG-7"}',
    });
    const child = await runBundledAction(node24, env);
    expect(child.stderr).toBe("");
    expect(child.exitCode).toBe(0);
    // The API token is masked before anything else is printed.
    expect(child.stdout.split("\n")[0]).toBe(`::add-mask::${emulator.token}`);

    const outputs = readOutputs(files);
    const runId = Number(outputs["run-id"]);
    expect(runId).toBeGreaterThan(0);
    const [created] = emulator.control.runs().filter((r) => r.id === runId);
    expect(outputs).toEqual({
      "run-id": String(runId),
      status: "completed",
      "web-url": `${emulator.url}/runs/${runId}`,
      result: created!.result,
      summary: created!.summary,
      "pull-requests": JSON.stringify(
        created!.git_host_pull_requests!.map(({ id, title, url, created_at, head_branch_name }) => ({
          id,
          title,
          url,
          created_at,
          head_branch_name,
        })),
      ),
      "comment-id": expect.stringMatching(/^\d+$/),
      resumed: "false",
    });
    expect(JSON.parse(outputs["pull-requests"]!)).toHaveLength(1);

    const summary = readSummary(files);
    expect(summary).toContain(`## ✅ Agent run #${runId} succeeded`);
    expect(summary).toContain(`| Run | [#${runId}](${emulator.url}/runs/${runId}) |`);
    expect(summary).toContain("### Pull requests");

    const comment = github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(outputs["comment-id"]))!;
    expect(comment.user.login).toBe(ACTIONS_BOT);
    expect(parseMarker(comment.body)).toMatchObject({
      runId,
      orgId: emulator.orgId,
      sourceType: "GIT_HOST",
      state: "done",
      outcome: "succeeded",
    });
    expect(comment.body).toContain(`### ✅ Agent run [#${runId}](${emulator.url}/runs/${runId}) succeeded`);

    const create = service.creates().at(-1)!;
    expect(create.metadata).toMatchObject({
      source_type: "GIT_HOST",
      ticket: "ENG-7",
      trigger_flow: "comment",
      github_event: "issue_comment",
      comment_id: trigger.comment.id,
      delivery_id: "9100-1",
    });
    expect(String(create.prompt)).toContain("fix the flaky date test");
  });

  it("resumes the thread's run on a follow-up comment, found through the marker the first step left", async () => {
    const firstRun = emulator.control.runs().at(-1)!.id;
    const { files, env } = envFor("issue_comment", humanComment("/agent also cover Mondays"), {});
    const child = await runBundledAction(node24, env);
    expect(child.exitCode).toBe(0);
    const outputs = readOutputs(files);
    expect(outputs).toMatchObject({ "run-id": String(firstRun), status: "completed", resumed: "true" });
    expect(service.resumes().at(-1)).toMatchObject({ agent_run_id: firstRun });
    expect(service.resumes().at(-1)!.prompt).toContain("also cover Mondays");
  });

  it("fixes a failing workflow run: GIT_HOST_CHECK_SUITE with the failed job, its steps and the end of its log", async () => {
    const payload = workflowRunCompletedPayload({
      id: 700,
      conclusion: "failure",
      headSha: PR_HEAD_SHA,
      headBranch: PR_BRANCH,
      pullRequests: [{ number: 2 }],
    });
    const { files, env } = envFor("workflow_run", payload, { comment: "true" });
    const before = service.creates().length;
    const child = await runBundledAction(node24, env);
    expect(child.exitCode).toBe(0);
    const create = service.creates()[before]!;
    expect(create.metadata).toMatchObject({
      source_type: "GIT_HOST_CHECK_SUITE",
      workflow_run_id: 700,
      head_sha: PR_HEAD_SHA,
      head_branch: PR_BRANCH,
    });
    expect(String(create.prompt)).toContain("## Failed check 1 (failure)");
    expect(String(create.prompt)).toContain("job name (CI output):\n```text\ntest\n```");
    expect(String(create.prompt)).toContain("failed step names (CI output):\n```text\nRun the tests\n```");
    expect(String(create.prompt)).toContain("expected Tuesday, got Wednesday");
    expect(String(create.prompt)).not.toContain("## Failed check 2");
    const comment = github.commentsOn(FULL_NAME, 2).find((c) => c.id === Number(readOutputs(files)["comment-id"]))!;
    expect(parseMarker(comment.body)).toMatchObject({
      sourceType: "GIT_HOST_CHECK_SUITE",
      headSha: PR_HEAD_SHA,
      branches: expect.arrayContaining([PR_BRANCH]),
    });
  });

  it("at the timeout: the comment says the run keeps going, status is the last seen, and the step fails (fail-on-error)", async () => {
    emulator.control.script({ match: "take your time", durationMs: 3_600_000 });
    const { files, env } = envFor("issue_comment", humanComment("/agent new take your time"), { "timeout-minutes": "0.01" });
    const child = await runBundledAction(node24, env);
    expect(child.exitCode).toBe(1);
    const outputs = readOutputs(files);
    expect(["queued", "running"]).toContain(outputs.status);
    expect(child.stdout).toMatch(
      new RegExp(
        `::error::Agent run ${outputs["run-id"]} is still (queued|running) after 0\\.01 minute\\(s\\) \\(timeout-minutes\\); it keeps going: ${emulator.url}/runs/${outputs["run-id"]}`,
      ),
    );
    const comment = github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(outputs["comment-id"]))!;
    expect(comment.body).toMatch(/### ⏳ Agent run \[#\d+\]\(.+\) is still running after/);
    expect(parseMarker(comment.body)).toMatchObject({ state: "done", outcome: "watch_timed_out" });
    expect(readSummary(files)).toContain("is still running after");
  });

  it("refuses bad inputs before anything is written or sent to the service, naming each input", async () => {
    const requestsBefore = github.requests.length;
    const serviceBefore = service.requests.length;
    const { files, env } = envFor("issue_comment", humanComment("/agent hello"), { "org-id": "acme", metadata: "[1]" });
    const child = await runBundledAction(node24, env);
    expect(child.exitCode).toBe(1);
    expect(child.stdout).toContain(
      '::error::Invalid inputs: `org-id` must be a positive integer (the service\'s organization id), got "acme"; `metadata` must be a JSON object',
    );
    // The head start reads the configuration file while the rest loads (head-start.ts); nothing is written.
    expect(github.requests.slice(requestsBefore).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /repos/${FULL_NAME}/contents/.github/agent-run.yml`,
    ]);
    expect(service.requests.length).toBe(serviceBefore);
    expect(readOutputs(files)).toMatchObject({ "run-id": "", status: "" });
  });

  it("refuses a plain http:// service URL off loopback before the token is sent anywhere", async () => {
    const serviceBefore = service.requests.length;
    const { files, env } = envFor("issue_comment", humanComment("/agent hello"), {
      "api-url": "http://agents.example.com",
    });
    const child = await runBundledAction(node24, env);
    expect(child.exitCode).toBe(1);
    expect(child.stdout).toContain(
      '::error::Invalid input: `api-url` must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got "http://agents.example.com"',
    );
    expect(service.requests.length).toBe(serviceBefore);
    expect(readOutputs(files)).toMatchObject({ "run-id": "", status: "" });
  });

  it("ends at once when the inputs are wrong, even while GitHub and the service have not answered what the head start asked", async () => {
    // A GitHub and a service that take connections and never answer.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolveListen) => silent.listen(0, "127.0.0.1", resolveListen));
    const { port } = silent.address() as AddressInfo;
    try {
      const { env } = envFor("workflow_dispatch", workflowDispatchPayload(), {
        "api-url": `http://127.0.0.1:${port}`,
        prompt: "Upgrade the test runner",
        metadata: "[1]",
      });
      env.GITHUB_API_URL = `http://127.0.0.1:${port}`;
      env.GITHUB_GRAPHQL_URL = `http://127.0.0.1:${port}/graphql`;
      const started = performance.now();
      const child = await runBundledAction(node24, env, { timeoutMs: 20_000 });
      expect(child.exitCode).toBe(1);
      expect(child.stdout).toContain("::error::Invalid input: `metadata` must be a JSON object");
      // The reads were sent (the configuration, the identity, the comments, the sender's role, the repository list), and not waited for.
      await vi.waitFor(() => expect(sockets.length).toBe(5));
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolveClose) => silent.close(() => resolveClose()));
    }
  });

  it("sends its create without loading node:fs/promises, the readline it brings, crypto or perf_hooks (a start's work it does not need)", async () => {
    // A repository with no comments yet, as on the benchmark's starts: a signed marker among the recent
    // comments is verified with an HMAC before the create, and that loads crypto on any flow.
    const quiet = await startFakeGitHub({ seed: actionSeed() });
    const files = createRunnerFiles();
    const env = dispatchEnv(quiet.url, files);
    // A preload that writes down the built-in modules loaded by the time the create request is sent.
    const preload = join(files.dir, "modules-at-create.cjs");
    const loadedFile = join(files.dir, "modules-at-create.txt");
    writeFileSync(
      preload,
      preloadAtCreate(`require("node:fs").writeFileSync(${JSON.stringify(loadedFile)}, process.moduleLoadList.join("\\n"));`),
    );
    const child = await runBundledAction(node24, env, { nodeArgs: ["--require", preload] }).finally(() => quiet.close());
    expect(child.exitCode, child.stdout + child.stderr).toBe(0);
    const loaded = readFileSync(loadedFile, "utf8").split("\n");
    expect(loaded).toContain("NativeModule http");
    // An ESM import of node:fs reads its `promises` getter; @actions/core's summary and platform load it too.
    expect(loaded.filter((name) => /^NativeModule (fs\/promises|internal\/readline\/interface)$/.test(name))).toEqual([]);
    // Nor crypto: the create's own id comes from Math.random (steps/create-once.ts), and no comment is signed on this flow.
    expect(loaded.filter((name) => /^NativeModule (crypto|internal\/crypto\/.*)$/.test(name))).toEqual([]);
    // Nor node:perf_hooks: p-retry's clock is process.hrtime in the bundle (scripts/build-action.mjs), not the global `performance`.
    expect(loaded.filter((name) => /^NativeModule (perf_hooks|internal\/perf\/(performance|usertiming|histogram))$/.test(name))).toEqual(
      [],
    );
  });

  it("behind a runner's proxy (http_proxy), loads @actions/github's client from its own file and sends every GitHub request through the proxy", async () => {
    const quiet = await startFakeGitHub({ seed: actionSeed() });
    const proxy = await startConnectProxy(Number(new URL(quiet.url).port));
    try {
      // A name only the proxy resolves: a request that went around it would fail.
      const apiUrl = `http://github.internal.test:${new URL(quiet.url).port}`;
      const files = createRunnerFiles();
      // The service is on loopback, which @actions/http-client never sends through a proxy.
      const env = dispatchEnv(apiUrl, files, { http_proxy: proxy.url });
      const creates = service.creates().length;
      const child = await runBundledAction(node24, env);
      expect(child.exitCode, child.stdout + child.stderr).toBe(0);
      expect(service.creates()).toHaveLength(creates + 1);
      expect(readOutputs(files)["run-id"]).toMatch(/^\d+$/);
      expect(quiet.requests.length).toBeGreaterThan(0);
      expect(proxy.targets.length).toBeGreaterThan(0);
      expect(new Set(proxy.targets)).toEqual(new Set([new URL(apiUrl).host]));
    } finally {
      await proxy.close();
      await quiet.close();
    }
  });

  // Last: its run on pull request #2 would be the thread's run for the CI fix.
  it("posts review mode's one pull-request review from the chunk it loads at the end of the run", async () => {
    emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "One finding.", comments: [{ path: "src/dates.ts", line: 2, body: "Inject the clock." }] },
    });
    github.seed({ issueComments: [{ issue_number: 2, body: "/agent review", user: "maintainer" }] });
    const id = Math.max(...github.commentsOn(FULL_NAME, 2).map((c) => c.id));
    const payload = issueCommentPayload({
      thread: { number: 2, title: "Fix the flaky date test", pullRequest: true },
      comment: { id, body: "/agent review", login: "maintainer" },
    });
    const { env } = envFor("issue_comment", payload, {});
    const child = await runBundledAction(node24, env);
    expect(child.stderr).toBe("");
    expect(child.exitCode).toBe(0);
    const reviews = github.state.reviews.filter((r) => r.pull_number === 2 && r.user.login === ACTIONS_BOT);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.commit_id).toBe(PR_HEAD_SHA);
    expect(github.state.reviewComments.filter((c) => c.review_id === reviews[0]!.id).map((c) => `${c.path}:${c.line}`)).toEqual([
      "src/dates.ts:2",
    ]);
    const tracking = github.commentsOn(FULL_NAME, 2).filter((c) => c.user.login === ACTIONS_BOT);
    expect(tracking.some((c) => c.body.includes(`pullrequestreview-${reviews[0]!.id}`))).toBe(true);
  });
});

describe("dist/index.js on Node 24 on a GitHub Enterprise Server runner", () => {
  it("runs a comment with an image pasted on the server, then resumes it, every request on the paths GHES serves", async () => {
    const ghes = await startFakeGitHub({ seed: { ...actionSeed(), writer: "enterprise-agent[bot]" }, enterprise: true });
    try {
      const png = createPng({ width: 2, height: 2 });
      const image = ghes.addAttachment(png, "image/png", { private: true });
      const step = (body: string) => {
        // Numbered by the fake, after the bot's own comments, as GitHub would.
        ghes.seed({ issueComments: [{ issue_number: 1, body, user: "maintainer" }] });
        const id = Math.max(...ghes.commentsOn(FULL_NAME, 1).map((c) => c.id));
        const payload = issueCommentPayload({
          thread: { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." },
          comment: { id, body, login: "maintainer" },
        });
        const files = createRunnerFiles();
        const env = stepEnv({
          eventName: "issue_comment",
          payload,
          inputs: {
            "api-url": service.url,
            "api-token": emulator.token,
            "org-id": String(emulator.orgId),
            "github-token": "ghs_enterprise_app_installation_token",
          },
          // What a GHES runner sets; the Action is given nothing else about the server.
          githubApiUrl: ghes.url,
          githubGraphqlUrl: ghes.graphqlUrl,
          githubServerUrl: ghes.webUrl,
          files,
          extra: { AGENT_RUN_POLL_INTERVAL: TEST_POLL_INTERVAL },
        });
        return runBundledAction(node24, env).then((child) => ({ child, outputs: readOutputs(files) }));
      };
      const creates = service.creates().length;
      const first = await step(`/agent the date is wrong on this screen\n\n![screen](${image})`);
      expect(first.child.exitCode).toBe(0);
      expect(
        service
          .creates()
          .slice(creates)
          .map((c) => c.images),
      ).toEqual([[`data:image/png;base64,${png.toString("base64")}`]]);

      const second = await step("/agent also handle Mondays");
      expect(second.child.exitCode).toBe(0);
      expect(second.child.stdout).not.toContain("Could not learn who github-token writes as");
      expect(second.outputs).toMatchObject({ "run-id": first.outputs["run-id"], resumed: "true" });
      expect(ghes.offPathCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
      expect(ghes.unknownRouteCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
    } finally {
      await ghes.close();
    }
  });
});

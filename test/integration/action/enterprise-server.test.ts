/**
 * The Action on a GitHub Enterprise Server runner: GITHUB_API_URL=http://HOST/api/v3,
 * GITHUB_GRAPHQL_URL=http://HOST/api/graphql, GITHUB_SERVER_URL=http://HOST, nothing else set for
 * it. The fake lays GitHub out as GHES does (REST only under /api/v3, GraphQL only at /api/graphql,
 * attachments on the web host, 404 elsewhere), and every main flow runs without one request off
 * those paths. docs/enterprise-server.md states what this file asserts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  PR_BRANCH,
  actionSeed,
  changesRequestedReview,
  failedCiPayload,
  signedByAction,
  startActionHarness,
  withFailingCi,
  type ActionHarness,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { createPng } from "../../helpers/fake-github/index.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
/** A GitHub App's installation token (actions/create-github-app-token): its login is learnt through GraphQL `viewer`. */
const APP_BOT = "enterprise-agent[bot]";
const APP_TOKEN = { "github-token": "ghs_enterprise_app_installation_token" };

let h: ActionHarness | undefined;
afterEach(async () => {
  const harness = h;
  h = undefined;
  if (!harness) return;
  try {
    // The guard of every test here: nothing reached a path GHES does not serve, nothing missed a route.
    expect(harness.github.offPathCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
    expect(harness.github.unknownRouteCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
  } finally {
    await harness.close();
  }
});

describe("the Action on a GitHub Enterprise Server runner", () => {
  it("sets nothing for it: the runner's GITHUB_API_URL, GITHUB_GRAPHQL_URL and GITHUB_SERVER_URL point at the server", async () => {
    h = await startActionHarness({ enterprise: true });
    const origin = h.github.webUrl;
    expect(h.githubUrls).toEqual({
      githubApiUrl: `${origin}/api/v3`,
      githubGraphqlUrl: `${origin}/api/graphql`,
      githubServerUrl: origin,
    });
  });

  it("comment → run → result with an image pasted on the server, then a follow-up resumes it (its own markers trusted through GraphQL at /api/graphql)", async () => {
    h = await startActionHarness({ enterprise: true, seed: { ...actionSeed(), writer: APP_BOT } });
    const harness = h;
    const png = createPng({ width: 2, height: 3 });
    const onServer = harness.github.addAttachment(png, "image/png", { private: true });
    const id = onServer.split("/").pop()!;
    harness.emulator.control.script({ summary: "Pinned the clock." });
    const body = [
      "/agent fix the flaky test, see the screenshot",
      `![screenshot](${onServer})`,
      "![github.com's](https://github.com/user-attachments/assets/1111)",
    ].join("\n\n");
    const first = await harness.step({ eventName: "issue_comment", payload: harness.humanComment(ISSUE, body).payload, inputs: APP_TOKEN });
    expect(first.result.failure).toBeNull();
    const [create] = harness.service.creates();
    // The server's own image reached the run, fetched with the token from the web host; github.com's is not this server's.
    expect(create!.images).toEqual([`data:image/png;base64,${png.toString("base64")}`]);
    expect(harness.github.callsTo("GET", `/user-attachments/assets/${id}`).map((r) => `${r.servedAs} ${r.auth} ${r.status}`)).toEqual([
      "web installation 302",
    ]);
    const tracking = harness.github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(first.outputs["comment-id"]))!;
    expect(tracking.user.login).toBe(APP_BOT);
    expect(parseMarker(tracking.body)).toMatchObject({ runId: Number(first.outputs["run-id"]), state: "done" });

    const second = await harness.step({
      eventName: "issue_comment",
      payload: harness.humanComment(ISSUE, "/agent also handle Mondays").payload,
      inputs: APP_TOKEN,
    });
    expect(second.outputs).toMatchObject({ "run-id": first.outputs["run-id"], resumed: "true" });
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toEqual([
      { agent_run_id: Number(first.outputs["run-id"]), prompt: expect.stringContaining("also handle Mondays") },
    ]);
    // Who the token is was asked where GHES serves GraphQL, once by each step.
    expect(harness.github.requests.filter((r) => r.servedAs === "graphql").map((r) => `${r.method} ${r.sentPath} ${r.status}`)).toEqual([
      "POST /api/graphql 200",
      "POST /api/graphql 200",
    ]);
  });

  it("keeps the agent's images on the server in the result comment and the job summary, and drops an image from anywhere else", async () => {
    h = await startActionHarness({ enterprise: true, seed: { ...actionSeed(), writer: APP_BOT } });
    const onServer = `${h.github.webUrl}/user-attachments/assets/4242`;
    const elsewhere = "https://tracker.example/pixel.png";
    h.emulator.control.script({ summary: `Pinned the clock.\n\n![before and after](${onServer})\n\n![pixel](${elsewhere})` });
    const step = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "/agent fix the flaky test").payload,
      inputs: APP_TOKEN,
    });
    expect(step.result.failure).toBeNull();
    const result = h.github.commentsOn(FULL_NAME, 1).find((c) => c.id === Number(step.outputs["comment-id"]))!.body;
    for (const text of [result, step.summary]) {
      // An image, on a line of its own as the agent wrote it (its "!" not escaped).
      expect(text.split("\n")).toContain(`![before and after](${onServer})`);
      // Anywhere else, it is text (its "!" escaped): a link at most, never an image GitHub would fetch.
      expect(text).not.toMatch(/(?<!\\)!\[pixel\]/);
    }
  });

  it("without GITHUB_GRAPHQL_URL, asks GraphQL at /api/graphql beside the /api/v3 API URL", async () => {
    h = await startActionHarness({ enterprise: true, seed: { ...actionSeed(), writer: APP_BOT } });
    const trigger = h.humanComment(ISSUE, "/agent fix the flaky test");
    const step = await h.step({
      eventName: "issue_comment",
      payload: trigger.payload,
      inputs: APP_TOKEN,
      extra: { GITHUB_GRAPHQL_URL: "" },
    });
    expect(step.result.failure).toBeNull();
    expect(h.github.requests.filter((r) => r.servedAs === "graphql").map((r) => `${r.method} ${r.sentPath} ${r.status}`)).toEqual([
      "POST /api/graphql 200",
    ]);
  });

  it("a review requesting changes starts a GIT_HOST_PR_REVIEW run with the inline comments", async () => {
    const review = changesRequestedReview();
    // A review without the phrase acts on any pull request of the repository only when the configuration says so (the default: the bridge's own branches).
    h = await startActionHarness({
      enterprise: true,
      seed: { ...actionSeed(), reviews: [review.seed] },
      config: "reviews:\n  changes_requested: base_repository\n",
    });
    const step = await h.step({ eventName: "pull_request_review", payload: review.payload, inputs: {} });
    expect(step.result.failure).toBeNull();
    const create = h.service.creates()[0]!;
    expect(create.metadata).toMatchObject({ source_type: "GIT_HOST_PR_REVIEW", review_id: 8100, pull_request_number: 2 });
    expect(String(create.prompt)).toContain("Use UTC here.");
  });

  it("failing CI (workflow_run) resumes the run that produced the branch, with the job's log from the server", async () => {
    h = await startActionHarness({ enterprise: true, seed: withFailingCi() });
    const client = new AgentRunClient({ baseUrl: h.emulator.url, token: h.emulator.token, orgId: h.emulator.orgId });
    const producer = (await client.createRun({ prompt: "earlier work", metadata: { repository: FULL_NAME } })).id;
    h.emulator.control.advanceTime(60_000);
    const marker = {
      ...newRunMarker({
        place: { repository: FULL_NAME, thread: 2 },
        runId: producer,
        orgId: h.emulator.orgId,
        sourceType: "GIT_HOST",
        branches: [PR_BRANCH],
      }),
    };
    h.github.seed({
      issueComments: [
        {
          issue_number: 2,
          user: "github-actions[bot]",
          body: signedByAction(`${renderMarker({ ...marker, state: "done", outcome: "succeeded" })}\nearlier`),
        },
      ],
    });
    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(step.result.failure).toBeNull();
    expect(h.service.resumes()).toEqual([{ agent_run_id: producer, prompt: expect.stringContaining("FAIL src/dates.test.ts") }]);
    // The log download GitHub redirects to is on the server's web host, not under the API.
    expect(h.github.requests.filter((r) => r.sentPath.startsWith("/_fake/job-logs/")).map((r) => r.servedAs)).toEqual(["web", "web"]);
  });
});

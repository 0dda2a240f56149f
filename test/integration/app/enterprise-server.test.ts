/**
 * The App on a GitHub Enterprise Server, pointed there as an operator points it (GHE_HOST,
 * GHE_PROTOCOL): the fake lays GitHub out as GHES does (REST only under /api/v3, GraphQL only at
 * /api/graphql, attachments on the web host, 404 elsewhere), and every main flow runs without one
 * request off those paths. docs/enterprise-server.md states what this file asserts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { reviewSubmittedPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, PR_HEAD_SHA, baseSeed, failedSuiteOnPullPayload, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { createPng, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const PR = { number: 2, headRef: "agent/fix-dates", headSha: PR_HEAD_SHA, title: "Fix the flaky date test", body: "Pins the clock." };

let harness: AppHarness | undefined;
afterEach(async () => {
  const h = harness;
  harness = undefined;
  if (!h) return;
  try {
    // The guard of every test here: nothing reached a path GHES does not serve, nothing missed a route.
    expect(h.github.offPathCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
    expect(h.github.unknownRouteCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([]);
    expect(h.github.requests.every((r) => r.sentPath.startsWith("/api/v3/") || r.servedAs === "web")).toBe(true);
  } finally {
    await h.close();
  }
});

describe("the App against a GitHub Enterprise Server (GHE_HOST, GHE_PROTOCOL)", () => {
  it("comment → run → result with an image pasted on the server, then a follow-up resumes the run", async () => {
    harness = await startAppHarness({ enterprise: true });
    const h = harness;
    expect(h.github.url).toBe(`${h.github.webUrl}/api/v3`);
    const png = createPng({ width: 3, height: 2 });
    // Private, like attachments of private repositories: only the installation token opens it, and only on the server itself.
    const onServer = h.github.addAttachment(png, "image/png", { private: true });
    const id = onServer.split("/").pop()!;
    expect(onServer).toBe(`${h.github.webUrl}/user-attachments/assets/${id}`);
    h.emulator.control.script({
      summary: "Pinned the clock.",
      pullRequests: [{ title: "Pin the clock in the date test", head_branch_name: "agent/pin-clock" }],
    });
    const body = [
      "/agent the date test fails on Tuesdays, see the screenshot",
      `![screenshot](${onServer})`,
      "![github.com's](https://github.com/user-attachments/assets/1111)",
    ].join("\n\n");
    const trigger = h.humanComment(ISSUE, body);
    expect((await h.deliver("issue_comment", trigger.payload)).status).toBe(200);
    await h.idle();

    const [create] = h.service.creates();
    expect(h.service.creates()).toHaveLength(1);
    // The server's own image reached the run; github.com's is not this server's and was never fetched.
    expect(create!.images).toEqual([`data:image/png;base64,${png.toString("base64")}`]);
    expect(h.github.callsTo("GET", `/user-attachments/assets/${id}`).map((r) => `${r.servedAs} ${r.auth} ${r.status}`)).toEqual([
      "web installation 302",
    ]);
    const [run] = h.emulator.control.runs();
    const [tracking] = h.botComments(1);
    expect(h.botComments(1)).toHaveLength(1);
    expect(parseMarker(tracking!.body)).toMatchObject({ runId: run!.id, state: "done", outcome: "succeeded" });
    expect(tracking!.body).toContain("Pinned the clock.");

    const followUp = h.humanComment(ISSUE, "/agent also add a test for Wednesdays");
    await h.deliver("issue_comment", followUp.payload);
    await h.idle();
    expect(h.service.creates()).toHaveLength(1);
    expect(h.service.resumes().map((r) => r.agent_run_id)).toEqual([run!.id]);
    expect(h.botComments(1).map((c) => parseMarker(c.body))).toMatchObject([
      { runId: run!.id, state: "done" },
      { runId: run!.id, state: "done" },
    ]);
    // Every request went to the REST API under /api/v3 or the web host's attachment paths; none to GraphQL.
    expect(new Set(h.github.requests.map((r) => r.servedAs))).toEqual(new Set(["api", "web"]));
  });

  it("a review requesting changes resumes the run that produced the pull request", async () => {
    const seed = baseSeed();
    seed.reviews = [{ pull_number: 2, id: 9001, user: "maintainer", state: "CHANGES_REQUESTED", body: "Use a fixed date." }];
    harness = await startAppHarness({ enterprise: true, seed });
    const h = harness;
    h.emulator.control.script({ pullRequests: [{ title: "Fix the flaky date test", head_branch_name: "agent/fix-dates" }] });
    await h.deliver("issue_comment", h.humanComment(ISSUE, "/agent fix the flaky test").payload);
    await h.idle();
    const [run] = h.emulator.control.runs();
    const review = reviewSubmittedPayload({
      pr: PR,
      review: { id: 9001, state: "changes_requested", body: "Use a fixed date.", login: "maintainer" },
    });
    expect((await h.deliver("pull_request_review", review)).status).toBe(200);
    await h.idle();
    expect(h.service.resumes().map((r) => r.agent_run_id)).toEqual([run!.id]);
    expect(h.service.resumes()[0]!.prompt).toContain("Use a fixed date.");
    expect(parseMarker(h.botComments(2)[0]!.body)).toMatchObject({ runId: run!.id, sourceType: "GIT_HOST_PR_REVIEW", state: "done" });
  });

  it("a failing check suite on the pull request starts a fix with the failure's annotations", async () => {
    const seed: FakeGitHubSeed = baseSeed();
    seed.checkSuites = [
      {
        id: 700,
        head_sha: PR_HEAD_SHA,
        head_branch: "agent/fix-dates",
        conclusion: "failure",
        check_runs: [
          {
            name: "unit tests",
            conclusion: "failure",
            output: { title: "1 test failed", summary: "dates.test.ts" },
            annotations: [{ path: "src/dates.test.ts", start_line: 12, message: "expected 'Tuesday' but received 'Wednesday'" }],
          },
        ],
      },
    ];
    harness = await startAppHarness({ enterprise: true, seed, config: "check_suite:\n  enabled: true\n" });
    const h = harness;
    const failure = failedSuiteOnPullPayload();
    await h.deliver("check_suite", failure);
    await h.idle();
    const [create] = h.service.creates();
    expect(create!.metadata).toMatchObject({ source_type: "GIT_HOST_CHECK_SUITE", check_suite_id: 700, pull_request_number: 2 });
    expect(String(create!.prompt)).toContain(
      "annotation (CI output):\n```text\nsrc/dates.test.ts:12 (failure): expected 'Tuesday' but received 'Wednesday'\n```",
    );
    expect(h.botComments(2).map((c) => c.user.login)).toEqual([BOT_LOGIN]);
  });
});

describe("the GHES layout of the fake GitHub", () => {
  it("answers 404 off its served paths and records those requests, so the guard above can fail", async () => {
    harness = await startAppHarness({ enterprise: true });
    const h = harness;
    const token = { authorization: "token ghs_installation_token_for_the_layout_test" };
    const atRoot = await fetch(`${h.github.webUrl}/repos/octo-org/widgets/issues/1`, { headers: token });
    const graphqlUnderRest = await fetch(`${h.github.url}/graphql`, { method: "POST", headers: token, body: "{}" });
    const rest = await fetch(`${h.github.url}/repos/octo-org/widgets/issues/1`, { headers: token });
    const graphql = await fetch(h.github.graphqlUrl, {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body: JSON.stringify({ query: "query { viewer { login } }" }),
    });
    expect([atRoot.status, graphqlUnderRest.status, rest.status, graphql.status]).toEqual([404, 404, 200, 200]);
    expect(await graphql.json()).toEqual({ data: { viewer: { login: BOT_LOGIN } } });
    expect(h.github.offPathCalls().map((r) => `${r.method} ${r.sentPath}`)).toEqual([
      "GET /repos/octo-org/widgets/issues/1",
      "POST /api/v3/graphql",
    ]);
    // Forgotten, so that the afterEach guard checks only the App's own requests (none here).
    h.github.clearRequests();
  });
});

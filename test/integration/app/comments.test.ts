/**
 * The comment flow end to end: a signed `issue_comment` delivery through Probot's middleware, the
 * fake GitHub as the API, the emulator as the service. Asserts the GitHub writes exactly and what
 * reached the service.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { createPng } from "../../helpers/fake-github/index.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;

afterEach(async () => {
  await harness?.close();
});

/** Every write, one line each, in order. */
function writes(h: AppHarness): string[] {
  return h.github.writes.map((w) => {
    switch (w.kind) {
      case "comment_created":
        return `comment ${w.comment.id} created on #${w.issueNumber}`;
      case "comment_updated":
        return `comment ${w.comment.id} updated`;
      case "comment_deleted":
        return `comment ${w.comment.id} deleted`;
      case "reaction_added":
        return `${w.reaction.content} on ${w.reaction.target.kind} ${w.reaction.target.id}`;
    }
  });
}

describe("a /agent comment", () => {
  it("starts a run at once and turns the tracking comment into the result, with summary and pull request", async () => {
    harness = await startAppHarness();
    harness.emulator.control.script({
      summary: "Pinned the clock in the date test so it no longer depends on the weekday.",
      pullRequests: [{ title: "Pin the clock in the date test", head_branch_name: "agent/pin-clock" }],
    });
    const trigger = harness.humanComment(ISSUE, "/agent fix the flaky test\nIt is in `dates.test.ts`.");
    const { status } = await harness.deliver("issue_comment", trigger.payload);
    expect(status).toBe(200);

    // Before the run finishes (the run lasts 20 emulated minutes): one tracking comment with a trusted marker, and 👀 on the trigger.
    await until(() => harness.botComments(1).length === 1, "the tracking comment");
    const early = harness.botComments(1);
    expect(early).toHaveLength(1);
    expect(parseMarker(early[0]!.body)).toMatchObject({ v: 2, repo: FULL_NAME, thread: 1, sourceType: "GIT_HOST" });
    expect(harness.github.state.reactions.map((r) => `${r.content} ${r.target.kind} ${r.target.id} ${r.user.login}`)).toEqual([
      `eyes issue_comment ${trigger.id} ${BOT_LOGIN}`,
    ]);

    await harness.idle();
    const [run] = harness.emulator.control.runs();
    expect(harness.emulator.control.runs()).toHaveLength(1);
    const comments = harness.botComments(1);
    expect(comments).toHaveLength(1);
    const result = comments[0]!.body;
    expect(parseMarker(result)).toMatchObject({ runId: run!.id, state: "done", outcome: "succeeded", sourceType: "GIT_HOST" });
    expect(result).toContain(`Agent run [#${run!.id}](${run!.web_url})`);
    expect(result).toContain("**Summary**\n\nPinned the clock in the date test so it no longer depends on the weekday.");
    const pr = run!.git_host_pull_requests![0]!;
    expect(result).toContain(`[Pin the clock in the date test](${pr.url})`);
    expect(result).toContain("`agent/pin-clock`");

    // Exactly these writes: 👀 (the first acknowledgement), the tracking comment, its edits, then 🚀. Nothing else.
    const trackingId = comments[0]!.id;
    const lines = writes(harness);
    expect(lines[0]).toBe(`eyes on issue_comment ${trigger.id}`);
    expect(lines[1]).toBe(`comment ${trackingId} created on #1`);
    expect(lines.at(-1)).toBe(`rocket on issue_comment ${trigger.id}`);
    expect(lines.slice(2, -1).every((line) => line === `comment ${trackingId} updated`)).toBe(true);
    expect(harness.github.unknownRouteCalls()).toEqual([]);
    // Every call, in order: who the App is, its token, the config (repo, then the owner's .github),
    // the permission, the trigger comment read again (still there?), the thread, the access of the
    // description's author (quoted in the prompt), 👀, the tracking comment, the edits, 🚀.
    const calls = harness.github.requests.map((r) => `${r.method} ${r.path} → ${r.status}`);
    expect(calls.slice(0, 10)).toEqual([
      "GET /app → 200",
      "POST /app/installations/2002/access_tokens → 201",
      "GET /repos/octo-org/widgets/contents/.github/agent-run.yml → 404",
      "GET /repos/octo-org/.github/contents/.github/agent-run.yml → 404",
      "GET /repos/octo-org/widgets/collaborators/maintainer/permission → 200",
      `GET /repos/octo-org/widgets/issues/comments/${trigger.id} → 200`,
      "GET /repos/octo-org/widgets/issues/1/comments → 200",
      "GET /repos/octo-org/widgets/collaborators/octocat/permission → 404",
      `POST /repos/octo-org/widgets/issues/comments/${trigger.id}/reactions → 201`,
      `POST /repos/octo-org/widgets/issues/1/comments → 201`,
    ]);
    expect(calls.slice(10, -1).length).toBeGreaterThan(0);
    expect(calls.slice(10, -1).every((call) => call === `PATCH /repos/octo-org/widgets/issues/comments/${trackingId} → 200`)).toBe(true);
    expect(calls.at(-1)).toBe(`POST /repos/octo-org/widgets/issues/comments/${trigger.id}/reactions → 201`);

    // The service got one create whose body the spec allows, tagged GIT_HOST in metadata.
    const [create] = harness.service.creates();
    expect(harness.service.creates()).toHaveLength(1);
    expect(Object.keys(create!).sort()).toEqual(["metadata", "prompt"]);
    expect(create!.prompt).toContain("@maintainer asked for help on issue octo-org/widgets#1");
    expect(create!.prompt).toContain("fix the flaky test\nIt is in `dates.test.ts`.");
    expect(create!.prompt).toContain("## Issue octo-org/widgets#1\n");
    expect(create!.prompt).toMatch(/issue title by @\S+ \([^)]+\):\n```text\nFlaky date test\n```/);
    expect(create!.metadata).toMatchObject({
      source_type: "GIT_HOST",
      trigger_flow: "comment",
      github_event: "issue_comment",
      github_action: "created",
      repository: FULL_NAME,
      issue_number: 1,
      comment_id: trigger.id,
      sender: "maintainer",
      installation_id: 2002,
      status_comment_id: trackingId,
      bridge: { name: "agent-run-bridge" },
    });
    expect(run!.metadata).toEqual(create!.metadata);
    expect(JSON.stringify(create)).not.toContain(harness.emulator.token);
  });

  it("passes GitHub image attachments of the trigger comment as data URIs", async () => {
    harness = await startAppHarness();
    const png = createPng({ width: 3, height: 2 });
    // Private, like attachments of private repositories: only the installation token opens it.
    const local = harness.github.addAttachment(png, "image/png", { private: true });
    const id = local.split("/").pop()!;
    const body = `/agent the button looks wrong\n\n![screenshot](https://github.com/user-attachments/assets/${id})\n\n![elsewhere](https://example.com/x.png)`;
    const trigger = harness.humanComment(ISSUE, body);
    await harness.deliver("issue_comment", trigger.payload);
    await harness.idle();
    const [create] = harness.service.creates();
    expect(create!.images).toEqual([`data:image/png;base64,${png.toString("base64")}`]);
    expect(harness.github.callsTo("GET", `/user-attachments/assets/${id}`).map((r) => `${r.auth} ${r.status}`)).toEqual([
      "installation 302",
    ]);
  });

  it("ignores comments without the trigger, edits, and comments by bots: no call beyond reading nothing", async () => {
    harness = await startAppHarness();
    const plain = harness.humanComment(ISSUE, "I think this is related to time zones.");
    await harness.deliver("issue_comment", plain.payload);
    const bot = harness.humanComment(ISSUE, "/agent do something", "renovate[bot]");
    await harness.deliver("issue_comment", bot.payload);
    const own = harness.humanComment(ISSUE, "/agent do something", BOT_LOGIN);
    await harness.deliver("issue_comment", own.payload);
    const edited = harness.humanComment(ISSUE, "/agent edited in");
    const { issueCommentPayload } = await import("../../helpers/app-payloads.js");
    await harness.deliver(
      "issue_comment",
      issueCommentPayload({ thread: ISSUE, comment: { id: edited.id, body: "/agent edited in", login: "maintainer" }, action: "edited" }),
    );
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    // Only the plain comment needed the config (to know the trigger phrase); bots and edits are dropped before.
    expect(harness.github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /app",
      "POST /app/installations/2002/access_tokens",
      "GET /repos/octo-org/widgets/contents/.github/agent-run.yml",
      "GET /repos/octo-org/.github/contents/.github/agent-run.yml",
    ]);
    expect(harness.service.requests).toEqual([]);
  });
});

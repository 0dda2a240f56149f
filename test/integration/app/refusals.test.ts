/** Who may not trigger, a broken configuration, and a forged signature: replies once, never a run. */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { BOT_LOGIN, postWebhook, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

describe("refusals", () => {
  it("someone without write access gets one short reply and no run, however often the delivery comes", async () => {
    harness = await startAppHarness();
    const comment = harness.humanComment(ISSUE, "/agent delete the tests", "reader");
    const { deliveryId } = await harness.deliver("issue_comment", comment.payload);
    await harness.deliver("issue_comment", comment.payload, deliveryId);
    await harness.deliver("issue_comment", comment.payload);
    await harness.idle();

    expect(harness.github.writes.map((w) => w.kind)).toEqual(["comment_created"]);
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("refusal");
    expect(reply!.body).toContain("🚫 @reader, I can't start the agent for you: `@reader` has the read role");
    expect(reply!.body).toContain("the write, maintain or admin role is required");
    expect(harness.service.requests).toEqual([]);
    expect(harness.github.callsTo("GET", "/repos/octo-org/widgets/collaborators/reader/permission")).toHaveLength(2);
  });

  it("a user listed in permissions.users may trigger whatever their role", async () => {
    harness = await startAppHarness({ config: "permissions:\n  users: [reader]\n" });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it", "reader").payload);
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.creates()[0]!.metadata).toMatchObject({ sender: "reader" });
  });

  it("a broken agent-run.yml gets one config-error reply per problem, and nothing else", async () => {
    harness = await startAppHarness({ config: "trigger_phrase: 5\nfollow_up: later\nmodle: gpt\n" });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix the flaky test").payload);
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent please?").payload);
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "just chatting").payload);
    await harness.idle();

    const replies = harness.botComments(1);
    expect(replies).toHaveLength(1);
    expect(parseCommentKind(replies[0]!.body)).toBe("config_error");
    expect(replies[0]!.body).toContain("**The agent configuration in `.github/agent-run.yml` is invalid**, so nothing was started.");
    expect(replies[0]!.body).toMatch(/trigger_phrase/);
    expect(replies[0]!.body).toMatch(/follow_up/);
    expect(replies[0]!.body).toMatch(/modle/);
    expect(harness.github.writes.map((w) => w.kind)).toEqual(["comment_created"]);
    expect(harness.service.requests).toEqual([]);

    // A different problem is a new answer.
    harness.github.seed({ files: [{ path: ".github/agent-run.yml", content: "follow_up: later\n" }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent and now?").payload);
    await harness.idle();
    expect(harness.botComments(1)).toHaveLength(2);
    expect(harness.botComments(1)[1]!.body).not.toMatch(/modle/);
  });

  it("a file that is not YAML is a config error too; GitHub failing to serve it is not (the step is retried, nothing more is said)", async () => {
    harness = await startAppHarness({ config: "trigger_phrase: [unclosed\n" });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    const [reply] = harness.botComments(1);
    expect(parseCommentKind(reply!.body)).toBe("config_error");
    // Where, and what kind of mistake; never the file's line itself.
    expect(reply!.body).toContain("`.github/agent-run.yml` line 2, column 1: not valid YAML (wrong indentation)");
    expect(reply!.body).not.toContain("unclosed");

    harness.github.injectFault({ method: "GET", path: "/repos/{o}/{r}/contents/.github/agent-run.yml", times: 1, status: 502 });
    const { status } = await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent try again").payload);
    expect(status).toBe(200);
    await harness.idle();
    // Read twice (the 502, then the retry, a conditional read of the unchanged file), and the thread already says what is wrong.
    expect(harness.github.callsTo("GET", "/repos/octo-org/widgets/contents/.github/agent-run.yml").map((r) => r.status)).toEqual([
      200, 502, 304,
    ]);
    expect(harness.botComments(1)).toHaveLength(1);
    expect(harness.service.requests).toEqual([]);
  });

  it("a delivery that failed on GitHub's side is retried by the queue and handled in full; a redelivery changes nothing", async () => {
    harness = await startAppHarness();
    harness.github.injectFault({ method: "GET", path: "/repos/{o}/{r}/contents/.github/agent-run.yml", times: 2, status: 502 });
    const comment = harness.humanComment(ISSUE, "/agent fix it after the outage");
    const first = await harness.deliver("issue_comment", comment.payload);
    expect(first.status).toBe(200);
    await harness.idle();
    expect(harness.github.callsTo("GET", "/repos/octo-org/widgets/contents/.github/agent-run.yml").map((r) => r.status)).toEqual([
      502, 502, 404,
    ]);
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.botComments(1)).toHaveLength(1);

    // "Redeliver" in the App's settings: same delivery id, nothing new.
    expect((await harness.deliver("issue_comment", comment.payload, first.deliveryId)).status).toBe(200);
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.botComments(1)).toHaveLength(1);
  });

  it("a delivery with a wrong signature is rejected before anything happens", async () => {
    harness = await startAppHarness();
    const comment = harness.humanComment(ISSUE, "/agent fix it");
    const status = await postWebhook(harness.app.webhookUrl, "issue_comment", comment.payload, "forged-delivery", "not-the-secret");
    expect(status).toBe(400);
    await harness.idle();
    expect(harness.github.requests.map((r) => r.path)).toEqual(["/app"]);
    expect(harness.service.requests).toEqual([]);
    expect(await harness.app.store.markDelivery("forged-delivery", "issue_comment")).toBe(true);
  });

  it("comments written by the App itself never trigger it, even with the phrase", async () => {
    harness = await startAppHarness();
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent loop forever", BOT_LOGIN).payload);
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    expect(harness.service.requests).toEqual([]);
  });
});

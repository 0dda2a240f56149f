/**
 * What someone without access costs the installation: one refusal per thread per day, however often
 * they ask, and no fresh read of the repository configuration (a conditional request answered 304).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const CONFIG_PATH = "/repos/octo-org/widgets/contents/.github/agent-run.yml";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

describe("someone without access", () => {
  it("ten /agent comments from a reader get one refusal, and the configuration is read once, then answered 304", async () => {
    harness = await startAppHarness({ config: "follow_up: queue\n" });
    // The first is handled before the others arrive (a burst read side by side would find no copy yet).
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent please do it (0)", "reader").payload);
    await harness.idle();
    for (let i = 1; i < 10; i++) {
      await harness.deliver("issue_comment", harness.humanComment(ISSUE, `/agent please do it (${i})`, "reader").payload);
    }
    await harness.idle();

    const replies = harness.botComments(1);
    expect(replies.map((c) => parseCommentKind(c.body))).toEqual(["refusal"]);
    expect(harness.github.writes.map((w) => w.kind)).toEqual(["comment_created"]);
    expect(harness.service.creates()).toEqual([]);

    const configReads = harness.github.callsTo("GET", CONFIG_PATH);
    expect(configReads).toHaveLength(10);
    expect(configReads[0]!.status).toBe(200);
    expect(configReads[0]!.headers["if-none-match"]).toBeUndefined();
    for (const later of configReads.slice(1)) {
      expect(later.headers["if-none-match"]).toMatch(/^W\/"[0-9a-f]{40}-raw"$/);
      expect(later.status).toBe(304);
    }
  });

  it("another reader in the same thread gets their own refusal; a changed configuration is read afresh", async () => {
    harness = await startAppHarness({ config: "follow_up: queue\n" });
    harness.github.seed({ collaborators: [{ login: "visitor", permission: "read" }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent one", "reader").payload);
    await harness.idle();
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent two", "visitor").payload);
    await harness.idle();
    expect(harness.botComments(1).map((c) => c.body.match(/🚫 (@\w+)/)?.[1])).toEqual(["@reader", "@visitor"]);

    harness.github.seed({ files: [{ path: ".github/agent-run.yml", content: "permissions:\n  users: [reader]\n" }] });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent three", "reader").payload);
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.github.callsTo("GET", CONFIG_PATH).map((r) => r.status)).toEqual([200, 304, 200]);
  });
});

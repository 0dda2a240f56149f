/**
 * An invalid `automations` entry is skipped, and the repository hears it on GitHub like the other
 * configuration errors, without spam: one comment per version of the file (its blob sha), in the
 * thread of someone who may trigger runs, never to a reader; over real HTTP with real payloads, on
 * both backends (the claim lives in the store).
 */
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_PATH } from "../../../src/config/path.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { issuesOpenedPayload } from "../../helpers/app-payloads.js";

const BROKEN = `
automations:
  - name: triage-bugs
    on: issues.opened
    prompt: Reproduce this bug and open a pull request that fixes it.
  - name: Broken Entry
    on: issues.opened
    prompt: never
`;

const HEADLINE = "Some automations in `.github/agent-run.yml` are invalid and are skipped";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function openIssue(h: AppHarness, number: number, opener: string) {
  const thread = { number, title: `Issue ${number}`, body: "It breaks.", labels: [] };
  h.github.seed({ issues: [{ ...thread, user: opener }] });
  return issuesOpenedPayload({ thread, opener });
}

/** Every comment the bot wrote that reports skipped automations, as [thread, body]. */
function reports(h: AppHarness): Array<[number, string]> {
  return h.github.writes.flatMap((write) =>
    write.kind === "comment_created" && write.comment.body.includes(HEADLINE)
      ? [[write.issueNumber, write.comment.body] as [number, string]]
      : [],
  );
}

describe("skipped automations are reported on GitHub", () => {
  it("once per version of the file: two deliveries with the same broken file give one report, a new version a new one", async () => {
    harness = await startAppHarness({ config: BROKEN });
    await harness.deliver("issues", openIssue(harness, 5, "maintainer"));
    await harness.deliver("issues", openIssue(harness, 6, "maintainer"));
    await harness.idle();
    await harness.deliver("issue_comment", harness.humanComment({ number: 1 }, "/agent fix the flaky test").payload);
    await harness.idle();

    const first = reports(harness);
    expect(first).toHaveLength(1);
    const [thread, body] = first[0]!;
    expect([5, 6]).toContain(thread);
    expect(body).toContain("`automations[1].name`");
    // The valid automation and the comment trigger still ran.
    expect(harness.service.creates()).toHaveLength(3);
    // Like the other configuration errors: the bot's config-error marker, never a value of the file.
    expect(body).toContain("agent-run-bridge:config_error");
    expect(parseMarker(body)).toBeNull();
    expect(body).not.toContain("Broken Entry");

    // A new version of the file (another change, the same mistake): told again, once.
    harness.github.seed({ files: [{ path: CONFIG_PATH, content: `${BROKEN}kill_switch_label: agent:stop\n` }] });
    await harness.deliver("issues", openIssue(harness, 7, "maintainer"));
    await harness.deliver("issues", openIssue(harness, 8, "maintainer"));
    await harness.idle();
    expect(reports(harness).map(([number]) => number)).toEqual([thread, 7]);
  });

  it("never to someone who may not trigger runs: a reader's issue hears nothing, the next maintainer's does", async () => {
    harness = await startAppHarness({ config: BROKEN });
    await harness.deliver("issues", openIssue(harness, 5, "reader"));
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    await harness.deliver("issues", openIssue(harness, 6, "maintainer"));
    await harness.idle();
    expect(reports(harness).map(([number]) => number)).toEqual([6]);
  });

  it("a valid file says nothing", async () => {
    harness = await startAppHarness({ config: BROKEN.replace("Broken Entry", "broken-entry") });
    await harness.deliver("issues", openIssue(harness, 5, "maintainer"));
    await harness.idle();
    expect(reports(harness)).toEqual([]);
    expect(harness.service.creates()).toHaveLength(2);
  });
});

/**
 * Automations in the Action: a workflow on `issues` (opened) or `pull_request` (opened,
 * ready_for_review) reads the same `automations` and the same trust rules as the App. With no
 * store, "once per thread" is read from the bot's own signed tracking comments.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { ACTIONS_BOT, actionSeed, signedByAction, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { FULL_NAME, issuesOpenedPayload, pullRequestPayload } from "../../helpers/app-payloads.js";

const CONFIG = `
automations:
  - name: triage-bugs
    on: issues.opened
    prompt: Reproduce this bug and open a pull request that fixes it.
    labels: [bug]
  - name: review-new
    on: pull_request.opened
    prompt: Give this new pull request a first pass.
`;

const BUG = { number: 5, title: "Crash on empty input", body: "Run `widgets ''` and it crashes." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

/** A run marker of the automation "triage-bugs" on the bug's thread, as an earlier run would have left it. */
function triageBugsMarker() {
  return newRunMarker({
    place: { repository: FULL_NAME, thread: 5 },
    runId: 1,
    orgId: 1,
    sourceType: "GIT_HOST",
    automation: "triage-bugs",
  });
}

function seedWithBug(opener: string) {
  const seed = actionSeed();
  seed.issues = [...(seed.issues ?? []), { number: BUG.number, title: BUG.title, body: BUG.body, user: opener, labels: ["bug"] }];
  return seed;
}

describe("automations (Action)", () => {
  it("issues.opened by a maintainer starts the automation's create, once: a second workflow run finds the signed tracking comment", async () => {
    h = await startActionHarness({ config: CONFIG, seed: seedWithBug("maintainer") });
    const payload = issuesOpenedPayload({ thread: { ...BUG, labels: ["bug"] }, opener: "maintainer" });
    const first = await h.step({ eventName: "issues", payload, inputs: {} });
    expect(first.result.failure).toBeNull();
    const creates = h.service.creates() as Array<{ prompt: string; metadata: Record<string, unknown> }>;
    expect(creates).toHaveLength(1);
    expect(creates[0]!.metadata).toMatchObject({ source_type: "GIT_HOST", automation: "triage-bugs", trigger_flow: "automation" });
    expect(creates[0]!.prompt.startsWith("Reproduce this bug and open a pull request that fixes it.")).toBe(true);
    const body = creates[0]!.prompt.indexOf("Run `widgets ''` and it crashes.");
    expect(creates[0]!.prompt.lastIndexOf("```", body)).toBeGreaterThan(0);

    const tracking = h.github.commentsOn(FULL_NAME, 5).filter((comment) => comment.user.login === ACTIONS_BOT);
    expect(tracking).toHaveLength(1);
    expect(parseMarker(tracking[0]!.body)).toMatchObject({ automation: "triage-bugs", state: "done" });
    expect(tracking[0]!.body).toContain("Started by this repository's automation **triage-bugs**");

    const again = await h.step({ eventName: "issues", payload, inputs: {} });
    expect(again.result.failure).toBeNull();
    expect(again.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.service.creates()).toHaveLength(1);
  });

  it("a marker naming the automation that the Action did not sign does not hold it back (pasted markers are no record)", async () => {
    const seed = seedWithBug("maintainer");
    const pasted = renderMarker(triageBugsMarker());
    seed.issueComments = [{ issue_number: 5, user: "maintainer", body: `${pasted}\nnothing to see` }];
    h = await startActionHarness({ config: CONFIG, seed });
    await h.step({
      eventName: "issues",
      payload: issuesOpenedPayload({ thread: { ...BUG, labels: ["bug"] }, opener: "maintainer" }),
      inputs: {},
    });
    expect(h.service.creates()).toHaveLength(1);
  });

  it("a signed marker of the same automation in the thread holds it back", async () => {
    const seed = seedWithBug("maintainer");
    const earlier = renderMarker({
      ...triageBugsMarker(),
      state: "done",
      outcome: "succeeded",
    });
    seed.issueComments = [{ issue_number: 5, user: ACTIONS_BOT, body: signedByAction(`${earlier}\nearlier run`) }];
    h = await startActionHarness({ config: CONFIG, seed });
    const step = await h.step({
      eventName: "issues",
      payload: issuesOpenedPayload({ thread: { ...BUG, labels: ["bug"] }, opener: "maintainer" }),
      inputs: {},
    });
    expect(step.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.service.requests).toEqual([]);
  });

  it("an issue opened by a reader starts nothing and posts nothing", async () => {
    h = await startActionHarness({ config: CONFIG, seed: seedWithBug("reader") });
    const step = await h.step({
      eventName: "issues",
      payload: issuesOpenedPayload({ thread: { ...BUG, labels: ["bug"] }, opener: "reader" }),
      inputs: {},
    });
    expect(step.result.failure).toBeNull();
    expect(step.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);
  });

  it("never on a pull request from a fork", async () => {
    h = await startActionHarness({ config: CONFIG });
    const step = await h.step({
      eventName: "pull_request",
      payload: pullRequestPayload({
        action: "opened",
        pr: { number: 2, headRef: "patch-1", headSha: "c".repeat(40), headRepoFullName: "maintainer/widgets" },
        opener: "maintainer",
      }),
      inputs: {},
    });
    expect(step.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.service.requests).toEqual([]);
    expect(h.github.writes).toEqual([]);
  });

  it("pull_request.opened from a branch of the repository starts review-new", async () => {
    h = await startActionHarness({ config: CONFIG });
    await h.step({
      eventName: "pull_request",
      payload: pullRequestPayload({
        action: "opened",
        pr: { number: 2, headRef: "agent/fix-dates", headSha: "a".repeat(40) },
        opener: "maintainer",
      }),
      inputs: {},
    });
    expect(h.service.creates().map((create) => (create.metadata as Record<string, unknown>).automation)).toEqual(["review-new"]);
  });

  it("a draft held back by review-new (`drafts: false`) starts it when marked ready, once: a pull request that had it when opened does not get it again", async () => {
    h = await startActionHarness({ config: CONFIG });
    const pr = { number: 2, headRef: "agent/fix-dates", headSha: "a".repeat(40) };
    const draft = await h.step({
      eventName: "pull_request",
      payload: pullRequestPayload({ action: "opened", pr: { ...pr, draft: true }, opener: "maintainer" }),
      inputs: {},
    });
    expect(draft.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("marked ready for review") });
    expect(h.service.requests).toEqual([]);

    const ready = () =>
      h.step({
        eventName: "pull_request",
        payload: pullRequestPayload({ action: "ready_for_review", pr, opener: "maintainer" }),
        inputs: {},
      });
    expect((await ready()).result.failure).toBeNull();
    expect(h.service.creates().map((create) => (create.metadata as Record<string, unknown>).automation)).toEqual(["review-new"]);
    // Converted to a draft and marked ready again: the signed tracking comment says review-new already ran here.
    await ready();
    expect(h.service.creates()).toHaveLength(1);
  });
});

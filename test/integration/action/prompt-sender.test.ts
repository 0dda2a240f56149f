/**
 * The `prompt` input runs on the event sender's behalf: a person needs write access (as for a
 * comment), bots need `allowed-bots`, the Action itself never; `allowed-non-write-users` lets
 * named people (or everyone, `*`) in without write access.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { renderKindMarker } from "../../../src/core/markers/write.js";
import { ACTIONS_BOT, startActionHarness, type ActionHarness } from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const ISSUE = { number: 1, title: "Flaky date test", body: "Fails on Tuesdays." };

describe("the prompt input checks the event's sender", () => {
  it("a reader's comment gets a refusal and no run; a maintainer's starts the run", async () => {
    h = await startActionHarness();
    const byReader = h.humanComment(ISSUE, "please look at this", "reader");
    const refused = await h.step({ eventName: "issue_comment", payload: byReader.payload, inputs: { prompt: "Triage this issue" } });
    expect(refused.result.outcome).toMatchObject({ kind: "refused" });
    expect([...h.service.creates(), ...h.service.resumes()]).toEqual([]);
    const replies = h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);
    expect(replies.map((c) => parseCommentKind(c.body))).toEqual(["refusal"]);
    expect(h.github.callsTo("GET", "/repos/octo-org/widgets/collaborators/reader/permission")).toHaveLength(1);

    const byMaintainer = h.humanComment(ISSUE, "please look at this", "maintainer");
    const started = await h.step({ eventName: "issue_comment", payload: byMaintainer.payload, inputs: { prompt: "Triage this issue" } });
    expect(started.result.failure).toBeNull();
    expect(h.service.creates()).toHaveLength(1);
  });

  it("the Action's own comment and another bot's start nothing; allowed-bots lets that bot in", async () => {
    h = await startActionHarness();
    const own = h.humanComment(ISSUE, "Agent run finished.", ACTIONS_BOT);
    const ownStep = await h.step({ eventName: "issue_comment", payload: own.payload, inputs: { prompt: "Triage this issue" } });
    expect(ownStep.result.outcome).toMatchObject({ kind: "ignored", reason: expect.stringContaining("bots do not start runs") });
    const renovate = h.humanComment(ISSUE, "Updated lodash.", "renovate[bot]");
    const botStep = await h.step({ eventName: "issue_comment", payload: renovate.payload, inputs: { prompt: "Triage this issue" } });
    expect(botStep.result.outcome).toMatchObject({ kind: "ignored" });
    expect([...h.service.creates(), ...h.service.resumes()]).toEqual([]);
    expect(h.github.writes).toEqual([]);

    const allowed = await h.step({
      eventName: "issue_comment",
      payload: renovate.payload,
      inputs: { prompt: "Triage this issue", "allowed-bots": "renovate[bot]" },
    });
    expect(allowed.result.failure).toBeNull();
    expect(h.service.creates()).toHaveLength(1);
  });

  it("allowed-non-write-users lets a listed reader (or everyone, `*`) in; their words still reach the prompt only as material", async () => {
    h = await startActionHarness();
    const byReader = h.humanComment(ISSUE, "please look at this", "reader");
    const listed = await h.step({
      eventName: "issue_comment",
      payload: byReader.payload,
      inputs: { prompt: "Triage this issue", "allowed-non-write-users": "someone-else, @reader" },
    });
    expect(listed.result.failure).toBeNull();
    const everyone = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "and again", "reader").payload,
      inputs: { prompt: "Triage this issue", "allowed-non-write-users": "*" },
    });
    expect(everyone.result.failure).toBeNull();
    expect(h.service.creates()).toHaveLength(2);
    // Let in is not promoted: the role read labels the reader's quoted comment, which stays material to read.
    for (const create of h.service.creates())
      expect(String(create.prompt)).toMatch(/comment by @reader at \S+ \(read access\):\n```text\n/);
  });

  it("a malformed allowed-non-write-users fails the step before anything is sent", async () => {
    h = await startActionHarness();
    const step = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "hi", "reader").payload,
      inputs: { prompt: "Triage this issue", "allowed-non-write-users": "reader, not a login" },
    });
    expect(step.exitCode).toBe(1);
    expect(step.result.failure).toContain('`allowed-non-write-users` has "not a login", which is not a GitHub login');
    expect([...h.service.creates(), ...h.service.resumes()]).toEqual([]);
  });

  it("a reader who asks again the same day gets no second refusal: the Action reads its own earlier one in the thread", async () => {
    h = await startActionHarness();
    for (const body of ["/agent fix it", "/agent please fix it"]) {
      const step = await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE, body, "reader").payload, inputs: {} });
      expect(step.result.outcome).toMatchObject({ kind: "refused" });
    }
    const replies = h.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === ACTIONS_BOT);
    expect(replies.map((c) => parseCommentKind(c.body))).toEqual(["refusal"]);
    expect(h.github.writes.filter((w) => w.kind === "comment_created")).toHaveLength(1);
  });

  it("a look-alike refusal that another workflow posted as github-actions[bot] (its marker unsigned) does not silence the real one", async () => {
    h = await startActionHarness();
    // Any workflow of the repository writes as github-actions[bot]; only the Action's own markers carry its signature.
    // (Bound to this thread, so that only the missing signature keeps it from being believed.)
    h.github.seed({
      issueComments: [
        {
          issue_number: 1,
          body: `${renderKindMarker("refusal", { repository: FULL_NAME, thread: 1 })}\n🚫 @reader, you already asked today.`,
          user: ACTIONS_BOT,
        },
      ],
    });
    const step = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE, "/agent fix it", "reader").payload,
      inputs: {},
    });
    expect(step.result.outcome).toMatchObject({ kind: "refused" });
    const refusals = h.github
      .commentsOn(FULL_NAME, 1)
      .filter((c) => c.user.login === ACTIONS_BOT && parseCommentKind(c.body) === "refusal");
    expect(refusals).toHaveLength(2);
    expect(h.github.writes.filter((w) => w.kind === "comment_created")).toHaveLength(1);
  });
});

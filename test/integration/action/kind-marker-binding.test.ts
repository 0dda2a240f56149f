/**
 * Every marker kind belongs to its thread, not only run markers: the Action in process against the
 * fake GitHub and the emulator. Every workflow of a repository writes as `github-actions[bot]`, so
 * one that echoes text can copy the Action's signed `stop` reply, hand-back, refusal or over-limit
 * reply from one thread into another; the copy must neither pause CI auto-fix there nor silence a
 * reply someone is owed there.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseKindMarker } from "../../../src/core/markers/read.js";
import { bindKindMarker } from "../../../src/core/markers/write.js";
import { renderHandBack } from "../../../src/core/render/replies.js";
import {
  ACTIONS_BOT,
  actionSeed,
  failedCiPayload,
  placeIn,
  signedByAction,
  startActionHarness,
  withFailingCi,
  type ActionHarness,
} from "../../helpers/action-runner.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const ISSUE_A = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };
const PR = { number: 2, pullRequest: true, title: "Fix the flaky date test" };
const ISSUE_B = { number: 3, title: "Unrelated request", body: "Something else entirely." };

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const botComments = (thread: number) => h.github.commentsOn(FULL_NAME, thread).filter((c) => c.user.login === ACTIONS_BOT);

/** The bot's latest comment in `from`, echoed verbatim (signature and all) into `to`, as another workflow would. */
function echo(from: number, to: number): string {
  const body = botComments(from).at(-1)!.body;
  h.github.seed({ issueComments: [{ issue_number: to, user: ACTIONS_BOT, body }] });
  return body;
}

describe("a stop reply belongs to its thread", () => {
  it("a signed stop reply copied from issue A into the pull request does not pause CI auto-fix there; its own stop does", async () => {
    h = await startActionHarness({ seed: withFailingCi(actionSeed()) });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE_A, "/agent stop").payload, inputs: {} });
    const copied = echo(ISSUE_A.number, PR.number);
    expect(parseKindMarker(copied)).toEqual({ kind: "stop", place: { repository: FULL_NAME, thread: ISSUE_A.number } });

    const ci = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(ci.result.outcome).toMatchObject({ kind: "run" });
    expect(h.service.creates()).toHaveLength(1);

    // A stop said in the pull request itself pauses it.
    await h.step({ eventName: "issue_comment", payload: h.humanComment(PR, "/agent stop").payload, inputs: {} });
    const paused = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(paused.result.outcome).toEqual({
      kind: "ignored",
      reason: expect.stringContaining("CI auto-fix is paused on this pull request"),
    });
    expect(h.service.creates()).toHaveLength(1);
  });

  it("a stop reply written before replies named their thread still pauses CI auto-fix (an upgrade restarts nothing a maintainer stopped)", async () => {
    h = await startActionHarness({ seed: withFailingCi(actionSeed()) });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(PR, "/agent stop").payload, inputs: {} });
    // The same reply as an older version wrote it: no place, signed by the Action's key.
    const bound = botComments(PR.number).at(-1)!;
    const legacy = signedByAction(
      bound.body.replace(/^<!-- agent-run-bridge:stop \{[^}]*\} sig=[\w-]{43} -->/, "<!-- agent-run-bridge:stop -->"),
    );
    expect(parseKindMarker(legacy)).toMatchObject({ kind: "stop", place: null });
    h.github.state.issueComments.find((c) => c.id === bound.id)!.body = legacy;

    const ci = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(ci.result.outcome).toMatchObject({ kind: "ignored" });
    expect(h.service.requests).toEqual([]);
  });
});

describe("a hand-back belongs to its pull request", () => {
  const handBack = (thread: number) =>
    signedByAction(bindKindMarker(renderHandBack({ attempts: 3, triggerPhrase: "/agent" }), placeIn(thread)));

  it("at the attempt cap, a signed hand-back of another pull request echoed into this one does not silence its own hand-back", async () => {
    h = await startActionHarness({ seed: withFailingCi(actionSeed()), config: "check_suite:\n  max_attempts: 1\n" });
    const ci = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });
    expect(ci.result.outcome).toMatchObject({ kind: "run" });
    h.github.seed({ issueComments: [{ issue_number: PR.number, user: ACTIONS_BOT, body: handBack(5) }] });

    const capped = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ headSha: "e".repeat(40) }), inputs: {} });
    expect(capped.result.outcome.kind).toBe("handed_back");
    const own = botComments(PR.number).at(-1)!;
    expect(parseKindMarker(own.body)).toEqual({ kind: "hand_back", place: { repository: FULL_NAME, thread: PR.number } });

    // Its own hand-back is said once.
    const again = await h.step({ eventName: "workflow_run", payload: failedCiPayload({ headSha: "f".repeat(40) }), inputs: {} });
    expect(again.result.outcome.kind).toBe("ignored");
    expect(botComments(PR.number).at(-1)!.id).toBe(own.id);
    expect(h.service.creates()).toHaveLength(1);
    expect(h.service.resumes()).toEqual([]);
  });
});

describe("a refusal belongs to its thread", () => {
  it("a signed refusal copied from issue A into issue B does not silence the refusal owed in B; in A the real one does", async () => {
    h = await startActionHarness();
    h.github.seed({ issues: [{ ...ISSUE_B, user: "maintainer" }] });
    await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE_A, "/agent delete everything", "reader").payload,
      inputs: {},
    });
    expect(botComments(ISSUE_A.number)).toHaveLength(1);
    echo(ISSUE_A.number, ISSUE_B.number);

    const inB = await h.step({
      eventName: "issue_comment",
      payload: h.humanComment(ISSUE_B, "/agent do it", "reader").payload,
      inputs: {},
    });
    expect(inB.result.outcome).toMatchObject({ kind: "refused" });
    const refusals = botComments(ISSUE_B.number);
    expect(refusals).toHaveLength(2); // the echoed copy, and B's own refusal
    expect(parseKindMarker(refusals.at(-1)!.body)).toEqual({ kind: "refusal", place: { repository: FULL_NAME, thread: ISSUE_B.number } });

    // Once per person per thread per day: a second try in A hears nothing new.
    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE_A, "/agent please", "reader").payload, inputs: {} });
    expect(botComments(ISSUE_A.number)).toHaveLength(1);
    expect(h.service.requests).toEqual([]);
  });
});

describe("an over-limit reply belongs to its thread", () => {
  it("a signed over-limit reply copied from issue A into issue B does not silence the one owed in B", async () => {
    h = await startActionHarness({ config: "limits:\n  runs_per_repo_per_hour: 1\n" });
    h.github.seed({ issues: [{ ...ISSUE_B, user: "maintainer" }] });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE_A, "/agent fix it").payload, inputs: {} });
    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE_A, "/agent and again").payload, inputs: {} });
    const overInA = botComments(ISSUE_A.number).at(-1)!;
    expect(parseKindMarker(overInA.body)).toMatchObject({ kind: "over_limit", place: { repository: FULL_NAME, thread: ISSUE_A.number } });
    echo(ISSUE_A.number, ISSUE_B.number);

    await h.step({ eventName: "issue_comment", payload: h.humanComment(ISSUE_B, "/agent this too").payload, inputs: {} });
    const inB = botComments(ISSUE_B.number);
    expect(inB).toHaveLength(2); // the echoed copy, and B's own reply
    expect(parseKindMarker(inB.at(-1)!.body)).toMatchObject({
      kind: "over_limit",
      place: { repository: FULL_NAME, thread: ISSUE_B.number },
    });
    expect(h.service.creates()).toHaveLength(1);
  });
});

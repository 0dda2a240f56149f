/**
 * Review mode in the Action (#37): an `issue_comment` workflow on a pull request, `/agent review`,
 * the emulator answering with a scripted `agent-run-review` block, and the fake GitHub validating
 * the review as GitHub does (the commit must be the pull request's, every inline line must resolve
 * in the diff at that commit). The step runs in process (runner.ts), over real HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createMarkerSigner } from "../../../src/action/marker-signer.js";
import { hasValidMarkerSignature, signMarkers } from "../../../src/core/markers/signature.js";
import { parseReviewMarker, renderReviewMarker } from "../../../src/core/review/marker.js";
import type { ScriptedReview } from "../../../src/emulator/types.js";
import { pushToPullRequest } from "../../helpers/fake-github/index.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { AgentRunClient } from "../../../src/service/client.js";
import {
  ACTIONS_BOT,
  PR_HEAD_SHA,
  actionSeed,
  placeIn,
  signedByAction,
  startActionHarness,
  type ActionHarness,
} from "../../helpers/action-runner.js";

const PR = { number: 2, title: "Fix the flaky date test", pullRequest: true };
const NEW_HEAD = "b".repeat(40);

// Right side: 1 (context), 2 and 3 (added), 4 and 5 (context). Left side: 1 to 4.
const DATES_PATCH = [
  "@@ -1,4 +1,5 @@",
  ' import { now } from "./clock";',
  "-const day = new Date().getDay();",
  "+const day = now().getDay();",
  "+const pinned = true;",
  " export { day };",
  " export default day;",
].join("\n");

function reviewSeed() {
  const seed = actionSeed();
  seed.pulls = seed.pulls!.map((pull) => ({ ...pull, patches: { "src/dates.ts": DATES_PATCH } }));
  return seed;
}

const FINDINGS: ScriptedReview["comments"] = [
  { path: "src/dates.ts", line: 2, body: "Use the injected clock.", suggestion: "const day = now().getDay();" },
  { path: "src/dates.ts", start_line: 2, line: 3, body: "Two lines at once." },
  { path: "src/dates.ts", line: 40, body: "Outside the diff." },
];

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

const reviewsOnPr = () => h.github.state.reviews.filter((r) => r.pull_number === PR.number);
const reviewPosts = () =>
  h.github.requests.filter((r) => r.method === "POST" && r.route === "/repos/:owner/:repo/pulls/:pull_number/reviews");
const botComments = () => h.github.commentsOn(FULL_NAME, PR.number).filter((c) => c.user.login === ACTIONS_BOT);

async function reviewStep(extra: Record<string, string> = {}) {
  const trigger = h.humanComment(PR, "/agent review focus on the clock");
  return h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {}, ...(Object.keys(extra).length ? { extra } : {}) });
}

describe("/agent review in an issue_comment workflow on a pull request", () => {
  it("posts one COMMENT review at the head with the anchored findings inline; the tracking comment links it", async () => {
    h = await startActionHarness({ seed: reviewSeed() });
    h.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "Two problems with the clock.", comments: FINDINGS },
    });

    const step = await reviewStep();

    expect(step.result.outcome).toMatchObject({ kind: "run", phase: "succeeded" });
    const [create] = h.service.creates() as { metadata: Record<string, unknown> }[];
    expect(create!.metadata).toMatchObject({ mode: "review", head_sha: PR_HEAD_SHA });
    const reviews = reviewsOnPr();
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!;
    expect(review).toMatchObject({ state: "COMMENTED", commit_id: PR_HEAD_SHA });
    expect(review.user.login).toBe(ACTIONS_BOT);
    const run = h.emulator.control.runs()[0]!;
    expect(parseReviewMarker(review.body)).toEqual({ place: { repository: FULL_NAME, thread: 2 }, runId: run.id, headSha: PR_HEAD_SHA });
    // Signed as the Action signs every marker: only the holder of the API token could have written it.
    expect(hasValidMarkerSignature(review.body, createMarkerSigner(h.emulator.token))).toBe(true);
    expect(review.body).toContain("Two problems with the clock.");
    expect(review.body).toContain("`src/dates.ts:40`");
    const inline = h.github.state.reviewComments.filter((c) => c.review_id === review.id);
    expect(inline.map((c) => `${c.path}:${c.line}:${c.side}`)).toEqual(["src/dates.ts:2:RIGHT", "src/dates.ts:3:RIGHT"]);
    expect(inline[0]!.body).toBe("Use the injected clock.\n\n```suggestion\nconst day = now().getDay();\n```");
    expect((reviewPosts()[0]!.body as { event: string }).event).toBe("COMMENT");

    const tracking = botComments();
    expect(tracking).toHaveLength(1);
    expect(tracking[0]!.body).toContain(`[Review posted](https://github.com/${FULL_NAME}/pull/2#pullrequestreview-${review.id})`);
  });

  it("a re-run of the same job posts no second review: the marker of the one posted is found", async () => {
    h = await startActionHarness({ seed: reviewSeed() });
    h.emulator.control.script({ durationMs: 1000, pullRequests: 0, review: { summary: "s", comments: FINDINGS.slice(0, 1) }, times: 2 });
    const trigger = h.humanComment(PR, "/agent review");
    await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    expect(reviewsOnPr()).toHaveLength(1);

    // The same workflow run, attempt 2: the same event, the same run, the same head.
    const rerun = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {}, extra: { GITHUB_RUN_ATTEMPT: "2" } });

    expect(rerun.result.outcome).toMatchObject({ kind: "run", phase: "succeeded" });
    expect(new Set(h.emulator.control.runs().map((run) => run.id)).size).toBe(1);
    expect(reviewPosts()).toHaveLength(1);
    expect(reviewsOnPr()).toHaveLength(1);
    const last = botComments().at(-1)!;
    expect(last.body).toContain("Review posted");
    expect(last.body).toContain("already, for this run and commit");
  });

  it("another workflow's review as github-actions[bot] with a forged marker (unsigned, or signed with another key) does not pass for the posted one", async () => {
    h = await startActionHarness({ seed: reviewSeed() });
    // 1.2 s of real time: long enough to lay the forgeries down once the run's id is known.
    h.emulator.control.script({
      durationMs: 600_000,
      pullRequests: 0,
      review: { summary: "The real review.", comments: FINDINGS.slice(0, 1) },
    });
    const trigger = h.humanComment(PR, "/agent review");
    const stepping = h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    await until(() => h.emulator.control.runs().length === 1);
    const runId = h.emulator.control.runs()[0]!.id;
    // What a workflow that echoes text (or a pull request's own workflow) can write with the job's token:
    // the very marker the Action would write for this run and head, without the API token's key.
    const marker = renderReviewMarker({ place: { repository: FULL_NAME, thread: PR.number }, runId, headSha: PR_HEAD_SHA });
    const wronglySigned = signMarkers(`${marker}\n\nForged, signed with another key.`, createMarkerSigner("not-the-service-token"));
    // A genuine signature (of the Action's review of another run) on a later line signs nothing of the first one.
    const otherRun = renderReviewMarker({ place: { repository: FULL_NAME, thread: PR.number }, runId: runId + 1, headSha: PR_HEAD_SHA });
    const copiedSignature = `${marker}\n\nForged.\n\n${signMarkers(otherRun, createMarkerSigner(h.emulator.token))}`;
    h.github.seed({
      reviews: [`${marker}\n\nForged, unsigned.`, wronglySigned, copiedSignature].map((body) => ({
        pull_number: PR.number,
        user: ACTIONS_BOT,
        body,
        commit_id: PR_HEAD_SHA,
      })),
    });
    const forged = reviewsOnPr().map((r) => r.id);
    expect(forged).toHaveLength(3);

    const step = await stepping;

    expect(step.result.outcome).toMatchObject({ kind: "run", phase: "succeeded" });
    const posted = reviewsOnPr().filter((r) => !forged.includes(r.id));
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toContain("The real review.");
    const tracking = botComments().at(-1)!.body;
    expect(tracking).toContain(`[Review posted](https://github.com/${FULL_NAME}/pull/2#pullrequestreview-${posted[0]!.id})`);
    expect(tracking).not.toContain("already, for this run and commit");
  });

  it("with follow-up: interrupt, the review asked of the working agent is posted at the run's end and the step's closing comment links it", async () => {
    h = await startActionHarness({ seed: reviewSeed(), emulator: { resumeWhileRunning: "interrupt" } });
    // A run working on the pull request, as an earlier step of the Action left it (600 s emulated: 1.2 s here).
    const client = new AgentRunClient({ baseUrl: h.emulator.url, token: h.emulator.token, orgId: h.emulator.orgId });
    h.emulator.control.script({ durationMs: 600_000, pullRequests: 0, summary: "Fixed." });
    const working = await client.createRun({ prompt: "fix the clock", metadata: { repository: FULL_NAME } });
    const marker = renderMarker(
      newRunMarker({ place: placeIn(PR.number), runId: working.id, orgId: h.emulator.orgId, sourceType: "GIT_HOST" }),
    );
    h.github.seed({ issueComments: [{ issue_number: PR.number, user: ACTIONS_BOT, body: signedByAction(`${marker}\n🤖 working`) }] });
    // The review instruction reaches the agent mid-run: the rest of the run answers it.
    h.emulator.control.script({
      match: "look at the clock",
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "interrupted", comments: FINDINGS.slice(0, 1) },
    });

    const trigger = h.humanComment(PR, "/agent review look at the clock");
    const step = await h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: { "follow-up": "interrupt" } });

    expect(step.result.failure).toBeNull();
    expect(h.service.resumes()).toEqual([{ agent_run_id: working.id, prompt: expect.stringContaining("agent-run-review") }]);
    const reviews = reviewsOnPr();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.body).toContain("interrupted");
    expect(parseReviewMarker(reviews[0]!.body)).toMatchObject({ runId: working.id, headSha: PR_HEAD_SHA });
    const closing = botComments().at(-1)!.body;
    expect(closing).toContain("💬 Your follow-up reached the agent while it worked:");
    expect(closing).toContain(`[Review posted](https://github.com/${FULL_NAME}/pull/2#pullrequestreview-${reviews[0]!.id})`);
  });

  it("after a 422 posts once more without inline comments, every finding in the body", async () => {
    h = await startActionHarness({ seed: reviewSeed() });
    // Line 7 exists only in the diff after a push made while the run works: the step anchors it on the
    // files it reads at the end, GitHub cannot resolve it at the reviewed commit.
    h.emulator.control.script({
      durationMs: 600_000,
      pullRequests: 0,
      review: { summary: "s", comments: [{ path: "src/dates.ts", line: 7, body: "Added later." }, FINDINGS[0]!] },
    });
    const trigger = h.humanComment(PR, "/agent review");
    const stepping = h.step({ eventName: "issue_comment", payload: trigger.payload, inputs: {} });
    await until(() => h.emulator.control.runs().length === 1);
    pushToPullRequest(h.github.state, FULL_NAME, 2, NEW_HEAD, { "src/dates.ts": `${DATES_PATCH}\n+const a = 1;\n+const b = 2;` });
    const step = await stepping;

    expect(step.result.outcome).toMatchObject({ kind: "run", phase: "succeeded" });
    expect(reviewPosts().map((r) => r.status)).toEqual([422, 200]);
    const [review] = reviewsOnPr();
    expect(review!.commit_id).toBe(PR_HEAD_SHA);
    expect(h.github.state.reviewComments.filter((c) => c.review_id === review!.id)).toEqual([]);
    expect(review!.body).toContain("`src/dates.ts:7`");
    expect(review!.body).toContain("`src/dates.ts:2`");
    expect(botComments()[0]!.body).toContain("GitHub refused the inline comments");
  });

  it("posts an unreadable answer as a normal result and says no review could be read", async () => {
    h = await startActionHarness({ seed: reviewSeed() });
    h.emulator.control.script({ durationMs: 1000, pullRequests: 0, result: "Looks fine to me.\n\n```agent-run-review\n{not json\n```" });

    const step = await reviewStep();

    expect(step.result.outcome).toMatchObject({ kind: "run", phase: "succeeded" });
    expect(step.exitCode ?? 0).toBe(0);
    expect(reviewPosts()).toEqual([]);
    const body = botComments()[0]!.body;
    expect(body).toContain("No review could be read from the result");
    expect(body).toContain("Looks fine to me.");
  });

  it("a token in the agent's review is redacted at the door, in the body and the inline comments", async () => {
    const token = `ghp_${"A1b2C3d4".repeat(5)}`;
    h = await startActionHarness({ seed: reviewSeed() });
    h.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: `Found ${token} in the code.`, comments: [{ path: "src/dates.ts", line: 2, body: `Leaks ${token} here.` }] },
    });
    await reviewStep();
    const [review] = reviewsOnPr();
    expect(review!.body).not.toContain(token);
    const inline = h.github.state.reviewComments.filter((c) => c.review_id === review!.id);
    expect(inline).toHaveLength(1);
    expect(inline[0]!.body).not.toContain(token);
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

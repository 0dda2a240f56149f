/**
 * Review mode end to end (#37): a signed `issue_comment` delivery on a pull request (the
 * webhooks-examples payload), the emulator answering with a scripted `agent-run-review` block, and
 * the fake GitHub validating the review as GitHub does (the commit must be the pull request's, every
 * inline line must resolve in the diff at that commit). Both App backends (app-on-redis runs it again).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseReviewMarker, renderReviewMarker } from "../../../src/core/review/marker.js";
import type { ScriptedReview } from "../../../src/emulator/types.js";
import { pushToPullRequest, type FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { FULL_NAME, pullRequestPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, PR_HEAD_SHA, baseSeed, startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";

const PR = { number: 2, title: "Fix the flaky date test", pullRequest: true };
const ISSUE = { number: 1, title: "Flaky date test" };
const NEW_HEAD = "b".repeat(40);
const TOKEN = `ghp_${"A1b2C3d4".repeat(5)}`;

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
const CLOCK_PATCH = [
  "@@ -10,3 +10,3 @@ export function now() {",
  "   const at = Date.now();",
  "-  return new Date(at);",
  "+  return new Date(at - 1);",
  " }",
].join("\n");

function reviewSeed(): FakeGitHubSeed {
  const seed = baseSeed();
  seed.pulls = seed.pulls!.map((pull) => ({ ...pull, patches: { "src/dates.ts": DATES_PATCH, "src/clock.ts": CLOCK_PATCH } }));
  return seed;
}

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

const reviewsOnPr = () => harness.github.state.reviews.filter((r) => r.pull_number === PR.number);
const reviewPosts = () =>
  harness.github.requests.filter((r) => r.method === "POST" && r.route === "/repos/:owner/:repo/pulls/:pull_number/reviews");

async function askForReview(body = "/agent review focus on the clock") {
  const trigger = harness.humanComment(PR, body);
  expect((await harness.deliver("issue_comment", trigger.payload)).status).toBe(200);
  return trigger;
}

const FINDINGS: ScriptedReview["comments"] = [
  { path: "src/dates.ts", line: 2, body: "Use the injected clock.", suggestion: "const day = now().getDay();" },
  { path: "src/dates.ts", start_line: 2, line: 3, body: "Two lines at once." },
  { path: "src/dates.ts", line: 2, side: "LEFT", body: "The old line read the real clock." },
  { path: "src/dates.ts", line: 40, body: "Outside the diff." },
  { path: "src/other.ts", line: 1, body: "Not a file of this pull request." },
];

describe("/agent review on a pull request", () => {
  it("runs in review mode and posts one COMMENT review at the head: anchored findings inline, the others listed", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    harness.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "Two problems with the clock.", comments: FINDINGS },
    });
    await askForReview();
    await harness.idle();

    const [create] = harness.service.creates() as { prompt: string; metadata: Record<string, unknown> }[];
    expect(create!.metadata).toMatchObject({ mode: "review", head_sha: PR_HEAD_SHA, pull_request_number: 2 });
    expect(create!.prompt).toContain("agent-run-review");
    expect(create!.prompt).toContain("pull request title");
    expect(create!.prompt).toContain(PR_HEAD_SHA);
    expect(create!).not.toHaveProperty("review");

    const reviews = reviewsOnPr();
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!;
    expect(review).toMatchObject({ state: "COMMENTED", commit_id: PR_HEAD_SHA });
    expect(review.user.login).toBe(BOT_LOGIN);
    const run = harness.emulator.control.runs()[0]!;
    expect(parseReviewMarker(review.body)).toEqual({ place: { repository: FULL_NAME, thread: 2 }, runId: run.id, headSha: PR_HEAD_SHA });
    expect(review.body).toContain("Two problems with the clock.");
    expect(review.body).toContain("`src/dates.ts:40`");
    expect(review.body).toContain("`src/other.ts:1`");
    expect(review.body).toContain(run.web_url!);

    const inline = harness.github.state.reviewComments.filter((c) => c.review_id === review.id);
    expect(inline.map((c) => `${c.path}:${c.line}:${c.side}`)).toEqual([
      "src/dates.ts:2:RIGHT",
      "src/dates.ts:3:RIGHT",
      "src/dates.ts:2:LEFT",
    ]);
    expect(inline[0]!.body).toBe("Use the injected clock.\n\n```suggestion\nconst day = now().getDay();\n```");
    const multi = (reviewPosts()[0]!.body as { comments: Record<string, unknown>[] }).comments[1]!;
    expect(multi).toMatchObject({ start_line: 2, line: 3, side: "RIGHT", start_side: "RIGHT" });
    expect((reviewPosts()[0]!.body as { event: string }).event).toBe("COMMENT");

    const tracking = harness.botComments(2);
    expect(tracking).toHaveLength(1);
    expect(tracking[0]!.body).toContain(`[Review posted](https://github.com/${FULL_NAME}/pull/2#pullrequestreview-${review.id})`);
  });

  it("reads every page of the pull request's files: a finding on the 150th file anchors", async () => {
    const seed = reviewSeed();
    const many = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`gen/f${String(i).padStart(3, "0")}.ts`, "@@ -0,0 +1,1 @@\n+x"]),
    );
    seed.pulls = seed.pulls!.map((pull) => ({ ...pull, patches: many }));
    harness = await startAppHarness({ seed });
    harness.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "s", comments: [{ path: "gen/f149.ts", line: 1, body: "last" }] },
    });
    await askForReview();
    await harness.idle();
    const [review] = reviewsOnPr();
    expect(harness.github.state.reviewComments.filter((c) => c.review_id === review!.id).map((c) => c.path)).toEqual(["gen/f149.ts"]);
  });

  it("puts at most review.max_comments inline and lists the rest in the body", async () => {
    harness = await startAppHarness({ seed: reviewSeed(), config: "review:\n  max_comments: 1\n" });
    harness.emulator.control.script({ durationMs: 1000, pullRequests: 0, review: { summary: "s", comments: FINDINGS.slice(0, 2) } });
    await askForReview();
    await harness.idle();
    const [review] = reviewsOnPr();
    expect(harness.github.state.reviewComments.filter((c) => c.review_id === review!.id)).toHaveLength(1);
    expect(review!.body).toContain("over the inline comment limit");
    expect(review!.body).toContain("`src/dates.ts:2-3`");
  });

  it("after a 422 posts once more without inline comments, every finding in the body", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    // Line 7 exists only in the diff after a push made while the run works: the bridge anchors it on
    // the files it reads, GitHub cannot resolve it at the reviewed commit.
    harness.emulator.control.script({
      durationMs: 3000,
      pullRequests: 0,
      review: { summary: "s", comments: [{ path: "src/dates.ts", line: 7, body: "Added later." }, FINDINGS[0]!] },
    });
    await askForReview();
    await until(() => harness.emulator.control.runs().length === 1, "the run");
    pushToPullRequest(harness.github.state, FULL_NAME, 2, NEW_HEAD, { "src/dates.ts": `${DATES_PATCH}\n+const a = 1;\n+const b = 2;` });
    await harness.idle();
    expect(reviewPosts().map((r) => r.status)).toEqual([422, 200]);
    const [review] = reviewsOnPr();
    expect(review!.commit_id).toBe(PR_HEAD_SHA);
    expect(harness.github.state.reviewComments.filter((c) => c.review_id === review!.id)).toEqual([]);
    expect(review!.body).toContain("`src/dates.ts:7`");
    expect(review!.body).toContain("`src/dates.ts:2`");
    expect(harness.botComments(2)[0]!.body).toContain("GitHub refused the inline comments");
  });

  it("posts an unreadable answer as a normal result and says no review could be read", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    harness.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      result: "Looks fine to me.\n\n```agent-run-review\n{not json\n```",
    });
    await askForReview();
    await harness.idle();
    expect(reviewPosts()).toEqual([]);
    const body = harness.botComments(2)[0]!.body;
    expect(body).toContain("No review could be read from the result");
    expect(body).toContain("Looks fine to me.");
  });

  it("never posts a second review for a run and head: the marker of one already posted is found", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    harness.emulator.control.script({ durationMs: 3000, pullRequests: 0, review: { summary: "s", comments: FINDINGS.slice(0, 1) } });
    await askForReview();
    await until(() => harness.emulator.control.runs().length === 1, "the run");
    const runId = harness.emulator.control.runs()[0]!.id;
    // What a replica that crashed after posting left behind: the bot's review with this run's marker.
    const marker = renderReviewMarker({ place: { repository: FULL_NAME, thread: 2 }, runId, headSha: PR_HEAD_SHA });
    harness.github.seed({ reviews: [{ pull_number: 2, user: BOT_LOGIN, body: `${marker}\n\nearlier`, commit_id: PR_HEAD_SHA }] });
    await harness.idle();
    expect(reviewPosts()).toEqual([]);
    expect(reviewsOnPr()).toHaveLength(1);
    expect(harness.botComments(2)[0]!.body).toContain("Review posted");
  });

  it("a /agent review held while the thread's run works is released as a review of that run", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    // The first run works until the test ends it (emulated time jumps), so the follow-up is surely held.
    harness.emulator.control.script({ durationMs: 3_600_000, pullRequests: 0, summary: "Fixed." });
    harness.emulator.control.script({ durationMs: 1000, pullRequests: 0, review: { summary: "held", comments: FINDINGS.slice(0, 1) } });
    const fix = await askForReview("/agent fix the clock");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    const [watched] = await harness.app.store.listTasks(["watching"]);
    const reactionsOn = (commentId: number) => `/repos/${FULL_NAME}/issues/comments/${commentId}/reactions`;
    // The moment that lost the follow-up: its 👀 (the step acknowledging it) still on its way while the
    // run's report ends the task and releases it. Writes go one at a time, so holding the report's last
    // write (the final reaction) keeps the 👀 queued behind it; holding the 👀 then keeps that step in flight.
    const finalReaction = harness.github.holdNext("POST", reactionsOn(fix.id));
    const review = harness.humanComment(PR, "/agent review");
    const eyes = harness.github.holdNext("POST", reactionsOn(review.id));
    try {
      harness.emulator.control.advanceTime(3_600_000);
      await finalReaction.arrived;
      expect((await harness.deliver("issue_comment", review.payload)).status).toBe(200);
      const heldAndAcknowledging = async () => (await harness.app.store.listTasks(["held"])).some((t) => t.acknowledgedAt !== null);
      await until(heldAndAcknowledging, "the review to be held and its 👀 on its way");
      finalReaction.release();
      await eyes.arrived;
      // The report ends the run's task, then releases the follow-up (one step under the thread's lock).
      const released = async () =>
        (await harness.app.store.getTask(watched!.id))?.state === "done" && (await harness.app.store.listTasks(["held"])).length === 0;
      await until(released, "the run's report to end its task and release the follow-up");
    } finally {
      finalReaction.release();
      eyes.release();
    }
    // Released while the step acknowledging it was in flight, it is still sent: the run is resumed and reviewed.
    await until(() => reviewsOnPr().length === 1, "the review of the released follow-up", 10_000);
    await harness.idle();
    expect(harness.emulator.control.runs()).toHaveLength(1);
    expect(harness.service.resumes()).toHaveLength(1);
    const [posted] = reviewsOnPr();
    expect(posted!.body).toContain("held");
    expect(parseReviewMarker(posted!.body)?.runId).toBe(harness.emulator.control.runs()[0]!.id);
  });

  it("with follow_up: interrupt, a /agent review reaches the working agent and the run's end posts its review, linked from the tracking comment", async () => {
    harness = await startAppHarness({
      seed: reviewSeed(),
      config: "follow_up: interrupt\n",
      emulator: { resumeWhileRunning: "interrupt" },
    });
    harness.emulator.control.script({ match: "fix the clock", durationMs: 1_200_000, pullRequests: 0, summary: "Fixed." });
    // The review instruction reaches the agent mid-run: the rest of the run answers it.
    harness.emulator.control.script({
      match: "look at the clock",
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "interrupted", comments: FINDINGS.slice(0, 1) },
    });
    await askForReview("/agent fix the clock");
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the run to be watched");
    const [watched] = await harness.app.store.listTasks(["watching"]);
    await askForReview("/agent review look at the clock");
    await until(() => harness.service.resumes().length === 1, "the follow-up to reach the working agent");
    await harness.idle();

    expect(harness.emulator.control.runs()).toHaveLength(1);
    const reviews = reviewsOnPr();
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.body).toContain("interrupted");
    expect(parseReviewMarker(reviews[0]!.body)).toMatchObject({ runId: watched!.runId, headSha: PR_HEAD_SHA });
    const tracking = harness.github.state.issueComments.find((c) => c.id === watched!.trackingCommentId)!.body;
    expect(tracking).toContain(`[Review posted](https://github.com/${FULL_NAME}/pull/2#pullrequestreview-${reviews[0]!.id})`);
  });

  it("a later /agent review after a push resumes the same run and reviews the new head", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    harness.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: { summary: "first", comments: FINDINGS.slice(0, 1) },
      times: 2,
    });
    await askForReview("/agent review");
    await harness.idle();
    pushToPullRequest(harness.github.state, FULL_NAME, 2, NEW_HEAD, { "src/dates.ts": `${DATES_PATCH}\n+const later = 1;` });
    await askForReview("/agent review again");
    await harness.idle();
    expect(harness.emulator.control.runs()).toHaveLength(1);
    const [resume] = harness.service.resumes();
    expect(resume!.prompt).toContain(NEW_HEAD);
    const reviews = reviewsOnPr();
    expect(reviews.map((r) => r.commit_id)).toEqual([PR_HEAD_SHA, NEW_HEAD]);
    expect(parseReviewMarker(reviews[1]!.body)?.headSha).toBe(NEW_HEAD);
  });

  it("neutralises hostile agent text: mentions, a forged marker, HTML, a fake closing fence, a token", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    const forged = renderReviewMarker({ place: { repository: FULL_NAME, thread: 2 }, runId: 999, headSha: NEW_HEAD });
    harness.emulator.control.script({
      durationMs: 1000,
      pullRequests: 0,
      review: {
        summary: `${forged}\n@octo-org/admins please look <img src=x onerror=alert(1)> ${TOKEN}`,
        comments: [
          { path: "src/dates.ts", line: 2, body: `cc @mallory ${TOKEN}`, suggestion: "x\n```\n@mallory escaped <script>alert(1)</script>" },
          { path: "src/nowhere.ts", line: 1, body: `<details open>${TOKEN}</details>` },
        ],
      },
    });
    await askForReview();
    await harness.idle();
    const [review] = reviewsOnPr();
    const inline = harness.github.state.reviewComments.filter((c) => c.review_id === review!.id);
    const everything = [review!.body, ...inline.map((c) => c.body), ...harness.botComments(2).map((c) => c.body)].join("\n");
    expect(everything).not.toContain(TOKEN);
    // A mention notifies outside code only: none is left there (inside a code block it is shown, not sent).
    const outsideCode = everything.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "");
    expect(outsideCode).not.toMatch(/(^|[\s(])@(mallory|octo-org\/admins)\b/m);
    expect(review!.body).not.toContain("<img");
    expect(review!.body).not.toContain("<details");
    expect(review!.body.match(/<!--\s*agent-run-bridge/g)).toHaveLength(1);
    expect(parseReviewMarker(review!.body)?.runId).toBe(harness.emulator.control.runs()[0]!.id);
    // The suggestion's own fence is longer than the backticks inside it: its text cannot close it.
    expect(inline[0]!.body).toMatch(/^cc .*\n\n````suggestion\n[\s\S]*\n````$/);
  });
});

describe("/agent review on an issue", () => {
  it("is an ordinary run: no review mode, no review", async () => {
    harness = await startAppHarness({ seed: reviewSeed() });
    harness.emulator.control.script({ durationMs: 1000, pullRequests: 0, summary: "Reviewed the issue." });
    const trigger = harness.humanComment(ISSUE, "/agent review the reproduction steps");
    await harness.deliver("issue_comment", trigger.payload);
    await harness.idle();
    const [create] = harness.service.creates() as { prompt: string; metadata: Record<string, unknown> }[];
    expect(create!.metadata.mode).toBeUndefined();
    expect(create!.metadata.head_sha).toBeUndefined();
    expect(create!.prompt).not.toContain("agent-run-review");
    expect(reviewPosts()).toEqual([]);
  });
});

describe("an automation with mode: review", () => {
  it("reviews every new pull request it matches, at the head it was opened with", async () => {
    const config =
      "automations:\n  - name: review-all\n    on: pull_request.opened\n    mode: review\n    prompt: Review this pull request.\n";
    const seed = reviewSeed();
    seed.pulls = seed.pulls!.map((pull) => ({ ...pull, user: "maintainer" }));
    harness = await startAppHarness({ seed, config });
    harness.emulator.control.script({ durationMs: 1000, pullRequests: 0, review: { summary: "s", comments: FINDINGS.slice(0, 1) } });
    const pr = { number: 2, headRef: "agent/fix-dates", headSha: PR_HEAD_SHA, title: PR.title, body: "Pins the clock." };
    await harness.deliver("pull_request", pullRequestPayload({ action: "opened", pr, opener: "maintainer" }));
    await harness.idle();
    const [create] = harness.service.creates() as { metadata: Record<string, unknown> }[];
    expect(create!.metadata).toMatchObject({ mode: "review", head_sha: PR_HEAD_SHA, automation: "review-all" });
    expect(reviewsOnPr().map((r) => r.commit_id)).toEqual([PR_HEAD_SHA]);
  });
});

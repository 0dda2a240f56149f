/**
 * The run recovery's decisions (core/run-recovery.ts): which tracking comments still say "working"
 * (only the bot's own, naming their own thread, not done), what to do with each, and which follow-ups a
 * lost store held.
 */
import { describe, expect, it } from "vitest";
import { newRunMarker, renderMarker, resultMarker } from "../../../src/core/markers/write.js";
import {
  findWorkingMarkers,
  judgeWorkingMarker,
  recoveryLookBack,
  unansweredFollowUps,
  type RecoveryComment,
  type WorkingMarker,
} from "../../../src/core/run-recovery.js";
import { REPLAY_WINDOW_MS } from "../../../src/core/trigger-age.js";

const BOT = "my-app[bot]";
const self = { appSlug: "my-app", botLogins: [BOT] };
const REPO = "octo/app";
const AT = "2026-01-01T00:00:00Z";

function marker(thread: number, runId: number | null, state: "queued" | "running" = "running") {
  return newRunMarker({ place: { repository: REPO, thread }, runId, orgId: 1, sourceType: "GIT_HOST", state, requestId: "task-1" });
}

function comment(id: number, body: string, login = BOT, issueNumber = 7): RecoveryComment {
  return { id, body, user: { login, type: login.endsWith("[bot]") ? "Bot" : "User" }, issueNumber, created_at: AT, updated_at: AT };
}

describe("findWorkingMarkers", () => {
  it("keeps the bot's own working markers in their own thread, and nothing else", () => {
    const working = renderMarker(marker(7, 11));
    const done = renderMarker(resultMarker(marker(7, 12), { id: 12, status: "COMPLETE" }, "succeeded"));
    const found = findWorkingMarkers(
      [
        comment(1, `${working}\nworking`),
        // Pasted by a person: anybody can paste a perfect marker.
        comment(2, `${working}\nworking`, "mallory"),
        // Copied into another thread: its marker names #7, the comment is in #8.
        comment(3, `${working}\nworking`, BOT, 8),
        // Reported: never touched again.
        comment(4, `${done}\ndone`),
        comment(5, `${renderMarker(marker(7, null, "queued"))}\nqueued`),
      ],
      self,
      REPO,
    );
    expect(found.map((f) => [f.commentId, f.marker.runId, f.marker.state])).toEqual([
      [1, 11, "running"],
      [5, null, "queued"],
    ]);
  });
});

describe("judgeWorkingMarker", () => {
  const epoch = Date.parse("2026-01-02T00:00:00Z");
  const facts = {
    storeKnowsRun: false,
    threadHasUnfinishedTask: false,
    storeEpochAt: epoch,
    now: epoch + 60_000,
    queuedGraceMs: 30 * 60_000,
  };
  const found = (runId: number | null, at: number): WorkingMarker => ({
    commentId: 1,
    thread: 7,
    marker: marker(7, runId, runId === null ? "queued" : "running"),
    createdAt: at,
    updatedAt: at,
  });

  it("adopts a run the store does not know, and leaves one it knows", () => {
    expect(judgeWorkingMarker(found(11, epoch - 1), facts)).toEqual({ kind: "adopt", runId: 11 });
    expect(judgeWorkingMarker(found(11, epoch - 1), { ...facts, storeKnowsRun: true })).toEqual({ kind: "leave", reason: "known_run" });
  });

  it("says a queued request is lost only when no task of the store can be about to send it", () => {
    // Written before the store's data began: no task of this store posted it.
    expect(judgeWorkingMarker(found(null, epoch - 1), facts)).toEqual({ kind: "settle_unsent" });
    // A task in the thread may be waiting for budget with it.
    expect(judgeWorkingMarker(found(null, epoch - 1), { ...facts, threadHasUnfinishedTask: true })).toEqual({
      kind: "leave",
      reason: "thread_busy",
    });
    // Posted since the epoch, a moment ago: its task may be storing its id right now.
    expect(judgeWorkingMarker(found(null, epoch + 30_000), facts)).toEqual({ kind: "leave", reason: "too_recent" });
    // Queued for longer than the grace, and no task in the thread: a store that lagged lost it.
    expect(judgeWorkingMarker(found(null, epoch + 30_000), { ...facts, now: epoch + 40 * 60_000 })).toEqual({ kind: "settle_unsent" });
  });
});

describe("recoveryLookBack", () => {
  it("reads back over the replay window after the store came back empty, a little over the watch deadline otherwise", () => {
    expect(recoveryLookBack(true, 4 * 3_600_000)).toBe(REPLAY_WINDOW_MS);
    expect(recoveryLookBack(false, 4 * 3_600_000)).toBe(5 * 3_600_000);
  });
});

describe("unansweredFollowUps", () => {
  const grammar = { phrase: "/agent", appSlug: "my-app", mention: true };
  it("lists the people's triggers after the tracking comment that no bot comment answered", () => {
    const held = unansweredFollowUps(
      [
        comment(10, "tracking", BOT),
        comment(9, "/agent before the tracking comment", "alice"),
        comment(11, "/agent refused one", "reader"),
        comment(12, "refusal", BOT),
        comment(13, "just a remark", "alice"),
        comment(14, "/agent also update the changelog", "alice"),
        comment(15, "@my-app and bump the version", "bob"),
        comment(16, "/agent from another bot", "ci-bot[bot]"),
        comment(17, "/agent stop", "alice"),
      ],
      10,
      grammar,
      self,
    );
    expect(held.map((c) => c.id)).toEqual([14, 15]);
  });
});

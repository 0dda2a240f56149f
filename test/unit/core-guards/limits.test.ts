/**
 * Spend guards as pure decisions: sliding windows, which limit is named, when it frees, one reply
 * per thread per window, and the facts read back from the bot's own comments.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_REPO_CONFIG } from "../../../src/config/schema.js";
import {
  checkRunLimits,
  overLimitRepliesFromComments,
  overLimitReplyDue,
  renderOverLimitReply,
  runStartsFromComments,
  type OverLimit,
  type RunStarts,
} from "../../../src/core/limits.js";
import { bindKindMarker, newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import { parseTriggerComment } from "../../../src/core/trigger.js";
import { readGfm } from "../core-output/gfm.js";

const NOW = Date.UTC(2026, 5, 21, 12, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const limits = { runs_per_thread_per_day: 3, runs_per_repo_per_hour: 4, ci_fixes_per_repo_per_day: 2 };
const none: RunStarts = { thread: [], repo: [], ciFixes: [] };
const ago = (...offsets: number[]) => offsets.map((offset) => NOW - offset);

describe("checkRunLimits", () => {
  it("allows while every window holds fewer starts than its limit", () => {
    expect(checkRunLimits({ starts: none, limits, isCiFix: true, now: NOW })).toEqual({ allowed: true });
    expect(checkRunLimits({ starts: { thread: ago(1, 2), repo: ago(1, 2, 3), ciFixes: ago(1) }, limits, isCiFix: true, now: NOW })).toEqual(
      { allowed: true },
    );
  });

  it("counts a sliding window: a start exactly one window ago has left it", () => {
    const starts = { ...none, repo: ago(HOUR, HOUR + 1, 5 * MIN, 10 * MIN, 20 * MIN) };
    expect(checkRunLimits({ starts, limits, isCiFix: false, now: NOW })).toEqual({ allowed: true });
  });

  it("at the limit: refused, with the count and the moment the oldest start leaves the window", () => {
    const starts = { ...none, repo: ago(50 * MIN, 30 * MIN, 20 * MIN, 1 * MIN) };
    expect(checkRunLimits({ starts, limits, isCiFix: false, now: NOW })).toEqual({
      allowed: false,
      over: { limit: "runs_per_repo_per_hour", max: 4, count: 4, windowMs: HOUR, freesAt: NOW - 50 * MIN + HOUR },
    });
  });

  it("over the limit (a limit lowered since): frees when enough starts have left, not the first", () => {
    const starts = { ...none, thread: ago(20 * HOUR, 10 * HOUR, 5 * HOUR, 2 * HOUR, HOUR) };
    const verdict = checkRunLimits({ starts, limits, isCiFix: false, now: NOW });
    expect(verdict).toMatchObject({
      allowed: false,
      over: { limit: "runs_per_thread_per_day", count: 5, freesAt: NOW - 5 * HOUR + 24 * HOUR },
    });
  });

  it("the CI limit applies to CI fixes only", () => {
    const starts = { ...none, ciFixes: ago(HOUR, 2 * HOUR) };
    expect(checkRunLimits({ starts, limits, isCiFix: false, now: NOW })).toEqual({ allowed: true });
    expect(checkRunLimits({ starts, limits, isCiFix: true, now: NOW })).toMatchObject({
      allowed: false,
      over: { limit: "ci_fixes_per_repo_per_day", count: 2 },
    });
  });

  it("several limits reached: names the one that frees last", () => {
    const starts = { thread: ago(23 * HOUR, 22 * HOUR, MIN), repo: ago(59 * MIN, 3 * MIN, 2 * MIN, MIN), ciFixes: [] };
    const verdict = checkRunLimits({ starts, limits, isCiFix: false, now: NOW });
    expect(verdict).toMatchObject({ allowed: false, over: { limit: "runs_per_thread_per_day", freesAt: NOW + HOUR } });
  });

  it("starts in the future (clock skew between replicas) are not counted", () => {
    expect(checkRunLimits({ starts: { ...none, thread: [NOW + 1, NOW + 2, NOW + 3] }, limits, isCiFix: false, now: NOW })).toEqual({
      allowed: true,
    });
  });

  it("the defaults are 20 per thread per day, 30 per repository per hour, 20 CI fixes per day", () => {
    expect(DEFAULT_REPO_CONFIG.limits).toEqual({ runs_per_thread_per_day: 20, runs_per_repo_per_hour: 30, ci_fixes_per_repo_per_day: 20 });
  });
});

describe("one reply per thread per window", () => {
  const over: OverLimit = { limit: "runs_per_repo_per_hour", max: 4, count: 4, windowMs: HOUR, freesAt: NOW + 10 * MIN };

  it("is due when the thread has no reply for this limit inside its window", () => {
    expect(overLimitReplyDue({ over, earlierReplies: [], now: NOW })).toBe(true);
    expect(overLimitReplyDue({ over, earlierReplies: [{ limit: "runs_per_repo_per_hour", at: NOW - HOUR }], now: NOW })).toBe(true);
    expect(overLimitReplyDue({ over, earlierReplies: [{ limit: "runs_per_thread_per_day", at: NOW - MIN }], now: NOW })).toBe(true);
  });

  it("is not due again while an earlier reply for it is inside the window", () => {
    expect(overLimitReplyDue({ over, earlierReplies: [{ limit: "runs_per_repo_per_hour", at: NOW - 59 * MIN }], now: NOW })).toBe(false);
  });
});

describe("renderOverLimitReply", () => {
  const over: OverLimit = {
    limit: "runs_per_thread_per_day",
    max: 20,
    count: 20,
    windowMs: 24 * HOUR,
    freesAt: NOW + 3 * HOUR + 11 * MIN + 30_000,
  };

  it("says which limit, its count and when it frees (rounded up to the minute), in one short comment", () => {
    const body = renderOverLimitReply({ over, now: NOW, threadKind: "pull_request" });
    expect(body).toBe(
      '<!-- agent-run-bridge:over_limit {"v":1,"limit":"runs_per_thread_per_day"} -->\n' +
        "⏸️ I did not start the agent: this pull request has started 20 runs in the last 24 hours, the limit set by `limits.runs_per_thread_per_day: 20`. " +
        "The next run can start at 2026-06-21 15:12 UTC (in 3h 12m). A maintainer can change the limit in `.github/agent-run.yml`.",
    );
    expect(parseCommentKind(body)).toBe("over_limit");
    expect(readGfm(body).comments).toHaveLength(1);
    expect(parseTriggerComment(body, { phrase: "/agent", mention: true, appSlug: "run-bot" })).toBeNull();
  });

  it("words each limit for what it counts", () => {
    expect(
      renderOverLimitReply({
        over: { ...over, limit: "runs_per_repo_per_hour", windowMs: HOUR, count: 31, max: 30 },
        now: NOW,
        threadKind: "issue",
      }),
    ).toContain("this repository has started 31 runs in the last hour, the limit set by `limits.runs_per_repo_per_hour: 30`");
    expect(
      renderOverLimitReply({
        over: { ...over, limit: "ci_fixes_per_repo_per_day", count: 1, max: 1 },
        now: NOW,
        threadKind: "pull_request",
      }),
    ).toContain("this repository has started 1 CI fix run in the last 24 hours");
    expect(renderOverLimitReply({ over, now: NOW, threadKind: "issue" })).toContain("this issue has started 20 runs");
  });
});

describe("facts from the bot's own comments", () => {
  const self = { botLogins: ["github-actions[bot]"] };
  const bot = { login: "github-actions[bot]", type: "Bot" };
  const at = (offset: number) => new Date(NOW - offset).toISOString();
  const tracking = (id: number, offset: number, sourceType: "GIT_HOST" | "GIT_HOST_CHECK_SUITE", requestId?: string) => ({
    id,
    user: bot,
    created_at: at(offset),
    body: `${renderMarker(newRunMarker({ place: { repository: "octo-org/widgets", thread: 1 }, runId: id, orgId: 1, sourceType, ...(requestId ? { requestId } : {}) }))}\n🤖 working`,
  });

  it("one start per tracking comment of the bot (with the request that started it), with its time and kind", () => {
    const comments = [
      tracking(1, HOUR, "GIT_HOST", "actions:1:1"),
      tracking(2, MIN, "GIT_HOST_CHECK_SUITE", "actions:2:1"),
      // A link comment on a pull request names no request: not a start.
      tracking(3, MIN, "GIT_HOST"),
      // Someone pasting a perfect marker is not the bot.
      { ...tracking(4, MIN, "GIT_HOST", "actions:4:1"), user: { login: "mallory", type: "User" } },
    ];
    const place = { repository: "octo-org/widgets", thread: 1 };
    expect(runStartsFromComments(comments, self, place)).toEqual([
      { at: NOW - HOUR, ciFix: false },
      { at: NOW - MIN, ciFix: true },
    ]);
    expect(runStartsFromComments(comments, self, { repository: "octo-org/widgets" })).toHaveLength(2);
  });

  it("a start counts in its own thread and repository only; a legacy one (naming none) counts everywhere", () => {
    const elsewhere = { ...tracking(5, MIN, "GIT_HOST", "actions:5:1"), body: tracking(5, MIN, "GIT_HOST", "actions:5:1").body };
    const legacy = {
      ...elsewhere,
      id: 6,
      body: `${renderMarker(newRunMarker({ place: null, runId: 6, orgId: 1, sourceType: "GIT_HOST", requestId: "actions:6:1" }))}\n🤖`,
    };
    expect(runStartsFromComments([elsewhere, legacy], self, { repository: "octo-org/widgets", thread: 2 })).toHaveLength(1);
    expect(runStartsFromComments([elsewhere, legacy], self, { repository: "octo-org/widgets", thread: 1 })).toHaveLength(2);
    expect(runStartsFromComments([elsewhere, legacy], self, { repository: "octo-org/gadgets" })).toHaveLength(1);
  });

  it("earlier over-limit replies, by limit and time", () => {
    const reply = renderOverLimitReply({
      over: { limit: "runs_per_repo_per_hour", max: 1, count: 1, windowMs: HOUR, freesAt: NOW },
      now: NOW,
      threadKind: "issue",
    });
    const place = { repository: "octo-org/widgets", thread: 1 };
    const bound = bindKindMarker(reply, place);
    const comments = [
      { id: 9, user: bot, created_at: at(5 * MIN), body: bound },
      { id: 10, user: { login: "mallory", type: "User" }, created_at: at(MIN), body: bound },
      // Written before replies named their thread, or bound to another thread: neither silences this one.
      { id: 11, user: bot, created_at: at(MIN), body: reply },
      { id: 12, user: bot, created_at: at(MIN), body: bindKindMarker(reply, { ...place, thread: 2 }) },
    ];
    expect(overLimitRepliesFromComments(comments, self, place)).toEqual([{ limit: "runs_per_repo_per_hour", at: NOW - 5 * MIN }]);
  });
});

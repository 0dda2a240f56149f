import { describe, expect, it } from "vitest";
import {
  MAX_REDELIVERIES,
  pageReachesCutoff,
  planRecovery,
  sweepCutoff,
  REDELIVERY_WINDOW_MS,
  SWEEP_OVERLAP_MS,
  type DeliveryAttempt,
} from "../../../src/core/delivery-recovery.js";

const NOW = Date.parse("2026-11-26T12:00:00Z");
let nextId = 1;
const attempt = (guid: string, agoMs: number, statusCode: number, redelivery = false): DeliveryAttempt => ({
  id: nextId++,
  guid,
  deliveredAt: new Date(NOW - agoMs).toISOString(),
  redelivery,
  statusCode,
  event: "issue_comment",
});

describe("which failed deliveries a sweep asks for", () => {
  it("reads back to the last completed sweep less the overlap, never past GitHub's three days", () => {
    expect(sweepCutoff(NOW, null)).toBe(NOW - REDELIVERY_WINDOW_MS);
    expect(sweepCutoff(NOW, NOW - 300_000)).toBe(NOW - 300_000 - SWEEP_OVERLAP_MS);
    expect(sweepCutoff(NOW, NOW - 2 * REDELIVERY_WINDOW_MS)).toBe(NOW - REDELIVERY_WINDOW_MS);
    expect(pageReachesCutoff([attempt("a", 1_000, 200), attempt("b", 9_000, 200)], NOW - 5_000)).toBe(true);
    expect(pageReachesCutoff([attempt("a", 1_000, 200)], NOW - 5_000)).toBe(false);
  });

  it("asks for deliveries whose every attempt failed, oldest first, and says why it leaves each other one", () => {
    const attempts = [
      attempt("ok", 60_000, 200),
      attempt("down", 50_000, 0),
      attempt("bad-gateway", 70_000, 502),
      attempt("bad-gateway", 40_000, 503, true),
      attempt("fixed-by-hand", 90_000, 500),
      attempt("fixed-by-hand", 30_000, 202, true),
      attempt("stored", 20_000, 0),
      attempt("ancient", REDELIVERY_WINDOW_MS + 60_000, 0),
    ];
    const plan = planRecovery({ attempts, cutoff: sweepCutoff(NOW, null), now: NOW, stored: new Set(["stored", "ok"]) });
    expect(plan.candidates.map((c) => [c.guid, c.attempts])).toEqual([
      ["bad-gateway", 2],
      ["down", 1],
    ]);
    // The newest attempt is the one redelivered.
    expect(plan.candidates[0]!.attemptId).toBe(attempts[3]!.id);
    expect(plan.skipped).toEqual([
      { guid: "fixed-by-hand", reason: "succeeded_later" },
      { guid: "stored", reason: "already_stored" },
      { guid: "ancient", reason: "too_old" },
    ]);
    expect(plan.foundFailed).toBe(5);
  });

  it("counts a delivery older than three days once, on a sweep that reads the whole window, and leaves what the last sweep decided", () => {
    const ancient = attempt("ancient", REDELIVERY_WINDOW_MS + 60_000, 0);
    const decided = attempt("decided", 10 * 60_000, 0);
    const first = planRecovery({ attempts: [ancient], cutoff: sweepCutoff(NOW, null), now: NOW, stored: new Set() });
    expect(first.skipped).toEqual([{ guid: "ancient", reason: "too_old" }]);
    const later = planRecovery({ attempts: [decided, ancient], cutoff: sweepCutoff(NOW, NOW - 5 * 60_000), now: NOW, stored: new Set() });
    expect(later).toEqual({ candidates: [], skipped: [], foundFailed: 0 });
  });

  it("asks again for a delivery whose redeliveries failed too, from its newest attempt, until MAX_REDELIVERIES of them failed", () => {
    const failedTwice = [attempt("again", 50_000, 0), attempt("again", 40_000, 502, true)];
    const plan = planRecovery({ attempts: failedTwice, cutoff: sweepCutoff(NOW, null), now: NOW, stored: new Set() });
    expect(plan.candidates.map((c) => [c.guid, c.attemptId, c.attempts, c.redeliveries])).toEqual([["again", failedTwice[1]!.id, 2, 1]]);

    const exhausted = [
      attempt("exhausted", 50_000, 0),
      ...Array.from({ length: MAX_REDELIVERIES }, (_, i) => attempt("exhausted", 40_000 - i * 1_000, 0, true)),
    ];
    const after = planRecovery({ attempts: exhausted, cutoff: sweepCutoff(NOW, null), now: NOW, stored: new Set() });
    expect(after.candidates).toEqual([]);
    expect(after.skipped).toEqual([{ guid: "exhausted", reason: "gave_up" }]);
    expect(after.foundFailed).toBe(1);
  });

  it("never asks again for a delivery the App answered 422 (signed, but a payload it cannot use), while 400 and 5xx are asked for", () => {
    const attempts = [
      attempt("unusable", 50_000, 422),
      attempt("unusable-after-outage", 45_000, 503),
      attempt("unusable-after-outage", 40_000, 422, true),
      attempt("forged-before-rotation", 30_000, 400),
      attempt("crashed", 20_000, 500),
    ];
    const plan = planRecovery({ attempts, cutoff: sweepCutoff(NOW, null), now: NOW, stored: new Set() });
    expect(plan.candidates.map((c) => c.guid)).toEqual(["forged-before-rotation", "crashed"]);
    expect(plan.skipped).toEqual([
      { guid: "unusable", reason: "unusable" },
      { guid: "unusable-after-outage", reason: "unusable" },
    ]);
    expect(plan.foundFailed).toBe(4);
  });
});

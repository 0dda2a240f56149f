/** The poll schedule: short at first, growing to a cap (the client jitters each pause). */
import { describe, expect, it } from "vitest";
import { DEFAULT_POLL, pollScheduleFrom } from "../../../src/action/runs.js";

describe("poll schedule", () => {
  it("starts at 5 s and grows ×1.5 to 60 s by default; AGENT_RUN_POLL_INTERVAL sets the start and keeps the ratio", () => {
    expect(DEFAULT_POLL).toEqual({ initial: 5_000, max: 60_000, factor: 1.5 });
    expect(pollScheduleFrom(undefined)).toBe(DEFAULT_POLL);
    expect(pollScheduleFrom("10")).toEqual({ initial: 10_000, max: 120_000, factor: 1.5 });
    expect(pollScheduleFrom("0.02")).toEqual({ initial: 20, max: 240, factor: 1.5 });
    for (const bad of ["", "0", "-1", "soon"]) expect(pollScheduleFrom(bad), bad).toBe(DEFAULT_POLL);
  });
});

import { describe, expect, it } from "vitest";
import { formatElapsed } from "../../../src/core/render/pieces.js";

describe("formatElapsed", () => {
  it.each([
    [0, "0s"],
    [999, "0s"],
    [45_000, "45s"],
    [252_000, "4m 12s"],
    [3_600_000, "1h 0m"],
    [7_530_000, "2h 5m"],
    [273_600_000, "3d 4h"],
    [-5, "0s"],
    [Number.NaN, "0s"],
  ])("formatElapsed(%d) is %s", (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });
});

import { describe, expect, it } from "vitest";
import { reactionForPhase } from "../../../src/core/render/reactions.js";

describe("reactions", () => {
  it("reactionForPhase: eyes on trigger, rocket on success, confused on failure, +1 on a stop carried out", () => {
    expect(reactionForPhase("triggered")).toBe("eyes");
    expect(reactionForPhase("succeeded")).toBe("rocket");
    expect(reactionForPhase("failed")).toBe("confused");
    expect(reactionForPhase("stop_accepted")).toBe("+1");
    expect(reactionForPhase("in_progress")).toBeNull();
    expect(reactionForPhase("waiting_for_input")).toBeNull();
    expect(reactionForPhase("stopped")).toBeNull();
  });
});

/**
 * The decision codes' one table (src/core/decision-codes.ts): exactly the codes the types know (the
 * `satisfies` makes a missing or extra entry a type error; this checks the same at type level from the
 * outside), each with a sentence a person can act on.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { DECISION_CODES, DECISION_CODE_LIST, type DecisionCode } from "../../../src/core/decision-codes.js";
import type { IgnoreCode } from "../../../src/core/detect/index.js";
import type { PlanIgnoreCode } from "../../../src/core/plan.js";

describe("the decision codes table", () => {
  it("has an entry for exactly every code: the ignore codes of detection and of the plan among them", () => {
    expectTypeOf<keyof typeof DECISION_CODES>().toEqualTypeOf<DecisionCode>();
    expectTypeOf<IgnoreCode>().toExtend<DecisionCode>();
    expectTypeOf<PlanIgnoreCode>().toExtend<DecisionCode>();
    expect(new Set(DECISION_CODE_LIST).size).toBe(DECISION_CODE_LIST.length);
  });

  it("says for each what happened and what to do, in whole sentences", () => {
    for (const code of DECISION_CODE_LIST) {
      const entry = DECISION_CODES[code];
      expect(entry.means, code).toMatch(/^[A-Z].*[.)]$/);
      expect(entry.whatToDo, code).toMatch(/^[A-Z].*[.)]$/);
    }
  });
});

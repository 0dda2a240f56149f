/** The wrong-token throttle's arithmetic and its bounded memory, on a clock the test moves. */
import { describe, expect, it } from "vitest";
import { WrongTokenThrottle } from "../../../src/app/ops/wrong-token-throttle.js";

const RULE = { allowance: 3, windowMs: 60_000, maxClients: 100 };

function throttleAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, throttle: new WrongTokenThrottle(RULE, () => clock.now) };
}

describe("WrongTokenThrottle", () => {
  it("turns a client away after its allowance until its window is over, and forgives it after a right token", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < RULE.allowance; i++) {
      expect(throttle.waitMs("a")).toBe(0);
      throttle.wrong("a");
    }
    expect(throttle.waitMs("a")).toBe(60_000);
    expect(throttle.waitMs("b")).toBe(0);
    clock.now += 45_000;
    expect(throttle.waitMs("a")).toBe(15_000);
    clock.now += 15_000;
    expect(throttle.waitMs("a")).toBe(0);
    throttle.wrong("a");
    throttle.wrong("a");
    throttle.right("a");
    throttle.wrong("a");
    expect(throttle.waitMs("a")).toBe(0);
  });

  it("remembers at most maxClients however many addresses flood it, forgetting the oldest window first", () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < RULE.allowance; i++) throttle.wrong("first");
    for (let n = 0; n < 100_000; n++) {
      throttle.wrong(`flood-${n}`);
      if (n % 1_000 === 0) clock.now += 1;
    }
    expect(throttle.size).toBe(RULE.maxClients);
    // The first client's window was the oldest: it went first (it was the closest to being forgiven anyway).
    expect(throttle.waitMs("first")).toBe(0);
    expect(throttle.waitMs(`flood-99999`)).toBe(0);
    throttle.wrong("flood-99999");
    throttle.wrong("flood-99999");
    expect(throttle.waitMs("flood-99999")).toBeGreaterThan(0);
  });

  it("drops clients whose window is over before it forgets any still counting", () => {
    const { clock, throttle } = throttleAt();
    for (let n = 0; n < 60; n++) throttle.wrong(`early-${n}`);
    clock.now += 30_000;
    for (let i = 0; i < RULE.allowance; i++) throttle.wrong("late");
    clock.now += 31_000;
    // The early ones' minute is over, the late one's is not: a new client makes room from the expired ones only.
    throttle.wrong("newcomer");
    expect(throttle.size).toBe(2);
    expect(throttle.waitMs("late")).toBe(29_000);
  });
});

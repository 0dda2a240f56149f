/**
 * Which signed bodies the App can use: the raw-bytes scan bounds nesting and entries (brackets and
 * commas inside strings do not count, escaped quotes do not end a string), then the body must be a
 * JSON object, and a payload of an event the App acts on must name a usable installation and carry
 * the fields the App reads. Real payloads from @octokit/webhooks-examples pass; problems name fields
 * and kinds, never values.
 */
import { describe, expect, it } from "vitest";
import {
  exceededJsonBound,
  judgeDeliveryPayload,
  MAX_PAYLOAD_DEPTH,
  MAX_PAYLOAD_ENTRIES,
} from "../../../src/core/events/delivery-payload.js";
import { MAX_LIST_ITEMS } from "../../../src/core/events/payloads.js";
import { webhookExample } from "./webhook-examples.js";

const ACTS_ON = new Set(["issue_comment", "issues", "pull_request", "pull_request_review", "pull_request_review_comment", "check_suite"]);
const bytes = (text: string) => new TextEncoder().encode(text);
const judge = (event: string | null, payload: unknown) => {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  return judgeDeliveryPayload(event, bytes(text), text, ACTS_ON);
};
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

function comment(): Record<string, unknown> {
  return { ...webhookExample("issue_comment"), installation: { id: 42 } };
}

describe("the raw-bytes bounds", () => {
  it("counts nesting and entries outside strings only", () => {
    expect(exceededJsonBound(bytes(nested(MAX_PAYLOAD_DEPTH)))).toBeNull();
    expect(exceededJsonBound(bytes(nested(MAX_PAYLOAD_DEPTH + 1)))).toBe("depth");
    expect(exceededJsonBound(bytes(JSON.stringify({ a: "[".repeat(5_000) + ",".repeat(200_000) })))).toBeNull();
    // An escaped quote does not end the string: the brackets after it are still text.
    expect(exceededJsonBound(bytes(JSON.stringify({ a: `\\"${"{".repeat(100)}` })))).toBeNull();
    expect(exceededJsonBound(bytes(JSON.stringify(Array(MAX_PAYLOAD_ENTRIES).fill(0))))).toBeNull();
    expect(exceededJsonBound(bytes(JSON.stringify(Array(MAX_PAYLOAD_ENTRIES + 1).fill(0))))).toBe("entries");
  });
});

describe("judging a signed delivery's payload", () => {
  it("takes every real payload of the events the App acts on, and a ping", () => {
    for (const event of ACTS_ON)
      expect(judge(event, { ...webhookExample(event as "issues"), installation: { id: 7 } })).toEqual({ usable: true });
    expect(judge("ping", { zen: "Design for failure.", hook_id: 1 })).toEqual({ usable: true });
  });

  it("refuses what is too deep, too many, not JSON, or not an object, for any event", () => {
    expect(judge("ping", nested(2_000))).toMatchObject({ usable: false, code: "payload_too_deep" });
    expect(judge("ping", Array(MAX_PAYLOAD_ENTRIES + 5).fill(1))).toMatchObject({ usable: false, code: "payload_too_many_entries" });
    expect(judge("ping", "{not json")).toMatchObject({ usable: false, code: "payload_not_json" });
    for (const value of ["null", "[]", '"text"', "5"])
      expect(judge("ping", value)).toMatchObject({ usable: false, code: "payload_not_an_object" });
  });

  it("needs an installation the App can act as, and names what was given by its kind", () => {
    const cases: Array<[unknown, string]> = [
      [undefined, "`installation`: missing"],
      [null, "`installation`: missing"],
      ["42", "`installation`: must be an object with an `id` (got text of 2 characters)"],
      [[42], "`installation`: must be an object with an `id` (got a list of 1)"],
      [{}, "`installation.id`: must be a positive integer (got nothing)"],
      [{ id: "42" }, "`installation.id`: must be a positive integer (got text of 2 characters)"],
      [{ id: 0 }, "`installation.id`: must be a positive integer (got an integer)"],
      [{ id: -3 }, "`installation.id`: must be a positive integer (got an integer)"],
      [{ id: 1.5 }, "`installation.id`: must be a positive integer (got a number)"],
    ];
    for (const [installation, problem] of cases) {
      const verdict = judge("issue_comment", { ...comment(), installation });
      expect(verdict).toMatchObject({ usable: false, code: "payload_fields_unusable" });
      expect(!verdict.usable && verdict.problems).toEqual([expect.stringContaining(problem)]);
    }
  });

  it("lists at most five wrong fields and counts the rest, without their values", () => {
    const payload = comment();
    const secretish = "a-value-no-log-may-show";
    payload.repository = { ...(payload.repository as object), owner: { login: 7 }, id: secretish };
    payload.sender = [secretish];
    payload.issue = { ...(payload.issue as object), labels: Array(50).fill(secretish) };
    const verdict = judge("issue_comment", payload);
    expect(verdict.usable).toBe(false);
    if (verdict.usable) return;
    expect(verdict.problems).toHaveLength(6);
    expect(verdict.problems.at(-1)).toMatch(/^and \d+ more$/);
    expect(verdict.problems.join("\n")).not.toContain(secretish);
    expect(verdict.problems.join("\n")).toContain("`repository.id`");
  });

  it("takes a huge list where the App reads one as one problem, before any of its items is checked", () => {
    const payload = { ...webhookExample("check_suite"), installation: { id: 7 } } as Record<string, unknown>;
    payload.check_suite = { ...(payload.check_suite as object), pull_requests: Array(MAX_PAYLOAD_ENTRIES - 2_000).fill({}) };
    const verdict = judge("check_suite", payload);
    expect(verdict).toMatchObject({ usable: false, code: "payload_fields_unusable" });
    expect(!verdict.usable && verdict.problems).toEqual([
      `\`check_suite.pull_requests\`: must hold at most ${MAX_LIST_ITEMS} items (got a list of ${MAX_PAYLOAD_ENTRIES - 2_000})`,
    ]);
  });
});

/**
 * The status page's recent deliveries (src/app/ops/recent-deliveries.ts): one row per delivery with the
 * outcome that did most, the latest decisions first, bounded, and only the envelope of a payload read.
 */
import { describe, expect, it } from "vitest";
import { RecentDeliveries } from "../../../src/app/ops/recent-deliveries.js";

const comment = (id: string, body = "hello") => ({
  id,
  name: "issue_comment",
  payload: { action: "created", repository: { full_name: "octo-org/widgets" }, issue: { number: 7, title: "t" }, comment: { body } },
});

describe("RecentDeliveries", () => {
  it("keeps the weightiest outcome of a delivery: an automation started beats one filtered out, whatever the order", () => {
    const recent = new RecentDeliveries(10, () => 1_000);
    const delivery = comment("a");
    const observer = recent.observing(delivery);
    recent.received(delivery, "queued");
    observer.accepted?.("started");
    observer.ignored("automation_filtered");
    expect(recent.list()).toEqual([
      { id: "a", event: "issue_comment.created", repo: "octo-org/widgets", thread: 7, outcome: "started", code: null, at: 1_000 },
    ]);
  });

  it("lists a redelivery only when its first delivery is not listed here; events never acted on are left out", () => {
    const recent = new RecentDeliveries(10);
    recent.observing(comment("b")).ignored("no_trigger");
    recent.received(comment("b"), "duplicate");
    recent.received(comment("elsewhere"), "duplicate");
    recent.observing(comment("push")).dropped?.("unsupported_action");
    recent.observing(comment("bot")).dropped?.("bot_sender");
    expect(recent.list().map((d) => [d.id, d.code])).toEqual([
      ["bot", "bot_sender"],
      ["elsewhere", "duplicate_delivery"],
      ["b", "no_trigger"],
    ]);
  });

  it("forgets the oldest past its bound, passes every decision on to the next observer, and keeps nothing of the body", () => {
    const recent = new RecentDeliveries(2);
    const seen: string[] = [];
    const next = { received: () => undefined, ignored: (code: string) => seen.push(code), refused: (code: string) => seen.push(code) };
    for (const id of ["1", "2", "3"]) recent.observing(comment(id, "SECRET"), next).refused("permission");
    expect(recent.list().map((d) => d.id)).toEqual(["3", "2"]);
    expect(seen).toEqual(["permission", "permission", "permission"]);
    expect(JSON.stringify(recent.list())).not.toContain("SECRET");
  });
});

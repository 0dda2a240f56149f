import { describe, expect, it } from "vitest";
import { uniqueId, withOwnCreateId } from "../../../src/action/steps/create-once.js";

describe("the Action's create id", () => {
  it("is a version-4 UUID", () => {
    for (let i = 0; i < 1000; i++) expect(uniqueId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("differs from one step to the next (100,000 ids, no repeat)", () => {
    const ids = new Set(Array.from({ length: 100_000 }, uniqueId));
    expect(ids.size).toBe(100_000);
  });

  it("is carried as the create's bridge_task_id, beside what the request already had", () => {
    const request = withOwnCreateId({ prompt: "Fix it", metadata: { delivery_id: "run-7-1" } });
    expect(request.metadata).toMatchObject({ delivery_id: "run-7-1", bridge_task_id: expect.stringMatching(/^action-[0-9a-f-]{36}$/) });
  });
});

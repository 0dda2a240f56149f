/**
 * ALLOWED_OWNERS in the App's own process: a delivery of an unlisted account's installation is
 * answered 200 and stored nowhere; one that was queued before the list was set (by an earlier
 * process on the same store) is dropped by the worker when it is taken up, before any GitHub or
 * service call. Both backends (the suite also runs on Redis).
 */
import { afterEach, describe, expect, it } from "vitest";
import { deliveryJobId } from "../../../src/app/queue/types.js";
import { INSTALLATION_ID } from "../../helpers/app-payloads.js";
import { startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "" };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

describe("ALLOWED_OWNERS", () => {
  it("answers an unlisted account's delivery 200 and stores nothing of it", async () => {
    harness = await startAppHarness({ env: { ALLOWED_OWNERS: "someone-else" } });
    const { status, deliveryId } = await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    expect(status).toBe(200);
    await harness.idle();
    expect(await harness.app.store.knownDeliveries([deliveryId])).toEqual(new Set());
    expect(harness.service.requests).toEqual([]);
    expect(harness.github.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /app"]);
  });

  it("drops a delivery queued before the list was set when the worker takes it up, before any call", async () => {
    harness = await startAppHarness({ env: { ALLOWED_OWNERS: "someone-else" } });
    const payload = harness.humanComment(ISSUE, "/agent fix it").payload;
    // As an earlier process without the list stored it: straight into the queue, past today's door.
    await harness.app.backend.queue.add({
      id: deliveryJobId("queued-before-the-list"),
      name: "delivery",
      data: {
        deliveryId: "queued-before-the-list",
        event: "issue_comment",
        payload,
        installationId: INSTALLATION_ID,
        receivedAt: Date.now(),
      },
    });
    await until(async () => (await harness.app.backend.queue.counts()).delivery.waiting === 0, "the job to be taken up");
    await harness.idle();
    expect(harness.service.requests).toEqual([]);
    expect(harness.github.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /app"]);
  });
});

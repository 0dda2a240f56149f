/**
 * Correctly signed deliveries the App cannot use, over loopback to a real Probot: a missing or
 * mistyped installation (Probot threw "installationId option is required" and the answer was 500),
 * a body that is not a JSON object, 2,000 levels of nesting, fields of the wrong kind. Each gets 422
 * naming what is wrong (never a 5xx, which delivery recovery would have GitHub send again), nothing
 * is stored or started, and the next real delivery is served. Delivery recovery leaves a 422 alone.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, signature, startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

type Json = Record<string, unknown>;

/** Posts `body` exactly as given, signed with the App's secret, as GitHub would. */
async function postSigned(
  url: string,
  event: string,
  body: string,
  delivery: string,
  contentType = "application/json",
): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": contentType,
      "x-github-event": event,
      "x-github-delivery": delivery,
      "x-hub-signature-256": signature(body),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith("{") ? (JSON.parse(text) as Json) : { text } };
}

function comment(body = "/agent fix the flaky date test"): Json {
  return issueCommentPayload({
    thread: { number: 1, title: "Flaky date test" },
    comment: { id: 501, body, login: "maintainer" },
  }) as unknown as Json;
}

function deeplyNested(levels: number): string {
  return `{"action":"created","extra":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}`;
}

describe("a correctly signed delivery the App cannot use", () => {
  it("gets 422 naming what is wrong, starts nothing, and the next real delivery is served", async () => {
    harness = await startAppHarness();
    const url = harness.app.webhookUrl;
    const issue = comment().issue as Json;
    const cases: Array<{ name: string; body: string; says: RegExp }> = [
      { name: "installation id as text", body: JSON.stringify({ ...comment(), installation: { id: "42" } }), says: /`installation\.id`/ },
      { name: "installation id an object", body: JSON.stringify({ ...comment(), installation: { id: {} } }), says: /`installation\.id`/ },
      { name: "no installation", body: JSON.stringify({ ...comment(), installation: undefined }), says: /`installation`: missing/ },
      { name: "installation zero", body: JSON.stringify({ ...comment(), installation: { id: 0 } }), says: /`installation\.id`/ },
      { name: "issue number as text", body: JSON.stringify({ ...comment(), issue: { ...issue, number: "1" } }), says: /`issue\.number`/ },
      { name: "repository an array", body: JSON.stringify({ ...comment(), repository: [] }), says: /`repository`/ },
      { name: "null", body: "null", says: /must be a JSON object/ },
      { name: "a string", body: '"created"', says: /must be a JSON object/ },
      { name: "not JSON", body: '{"action": "created",', says: /not valid JSON/ },
      { name: "2,000 levels deep", body: deeplyNested(2_000), says: /more than 64 levels deep/ },
    ];
    for (const [index, testCase] of cases.entries()) {
      const answer = await postSigned(url, "issue_comment", testCase.body, `malformed-${index}`);
      expect({ case: testCase.name, status: answer.status }).toEqual({ case: testCase.name, status: 422 });
      expect(answer.body.error).toContain("it is not redelivered");
      expect([answer.body.error, ...((answer.body.problems as string[] | undefined) ?? [])].join("\n")).toMatch(testCase.says);
    }
    // A form-encoded body is not judged as JSON: Probot refuses the content type, as before.
    const form = `payload=${encodeURIComponent(JSON.stringify(comment()))}`;
    expect((await postSigned(url, "issue_comment", form, "form-1", "application/x-www-form-urlencoded")).status).toBe(415);
    // Nothing was stored: a redelivery of any of them would be judged again, not taken for a duplicate.
    const stored = await harness.app.store.knownDeliveries(cases.map((_, index) => `malformed-${index}`));
    expect([...stored]).toEqual([]);

    const good = harness.humanComment({ number: 1, title: "Flaky date test" }, "/agent fix the flaky date test");
    expect((await harness.deliver("issue_comment", good.payload)).status).toBe(200);
    await until(() => harness.emulator.control.stats().runsCreated === 1, "the real comment's run");
    await harness.idle();
    expect(harness.emulator.control.stats().runsCreated).toBe(1);
    expect(harness.github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === BOT_LOGIN)).toHaveLength(1);
  });

  it("is left alone by delivery recovery: GitHub is never asked to send it again", async () => {
    harness = await startAppHarness({ env: { DELIVERY_RECOVERY_INTERVAL: "5m" } });
    await until(async () => (await harness.app.store.lastDeliverySweep()) !== null, "the sweep at start");
    const malformed = { ...comment("/agent hello"), installation: { id: "not-a-number" } };
    const sent = await harness.github.sendWebhook("issue_comment", malformed);
    await harness.github.webhooksSettled();
    expect(harness.github.hookDeliveries.filter((d) => d.guid === sent.guid).map((d) => d.status_code)).toEqual([422]);

    const sweep = await harness.app.recovery!.sweep();
    expect(sweep).toMatchObject({ found: 1, redelivered: 0, skipped: { unusable: 1 } });
    expect(harness.github.callsTo("POST", "/app/hook/deliveries/{id}/attempts")).toEqual([]);
  });
});

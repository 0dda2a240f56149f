/**
 * What the App's webhook endpoint accepts, over loopback to a real Probot: bodies over GitHub's
 * 25 MiB cap are refused with 413 before they are read whole (by content-length, and by counting a
 * chunked body), forged deliveries get 400 and start nothing, unverified bodies of many senders at
 * once are held to one allowance of memory, and slow requests are cut off.
 */
import { afterEach, describe, expect, it } from "vitest";
import { UNVERIFIED_BYTES_LIMIT, WEBHOOK_BODY_LIMIT_BYTES } from "../../../src/app/webhook-intake.js";
import { signature, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { chunkFrame, rawRequest } from "../../helpers/raw-http.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "" };
const CHUNK = 1024 * 1024;

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

function webhookHead(harnessUrl: string, headers: Record<string, string>): string {
  const { host, pathname } = new URL(harnessUrl);
  const lines = [
    `POST ${pathname} HTTP/1.1`,
    `host: ${host}`,
    "content-type: application/json",
    "x-github-event: issue_comment",
    "x-github-delivery: d-1",
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join("\r\n");
}

describe("the webhook endpoint", () => {
  it("answers 413 to a body announced over 25 MiB without waiting for a byte of it", async () => {
    harness = await startAppHarness();
    const answer = await rawRequest(
      harness.app.webhookUrl,
      webhookHead(harness.app.webhookUrl, { "content-length": String(30 * 1024 * 1024), "x-hub-signature-256": "sha256=00" }),
      null,
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("GitHub's cap");
  });

  it("answers 413 to a chunked body once it passes 25 MiB, and stops reading it", async () => {
    harness = await startAppHarness();
    let sent = 0;
    const answer = await rawRequest(
      harness.app.webhookUrl,
      webhookHead(harness.app.webhookUrl, { "transfer-encoding": "chunked", "x-hub-signature-256": "sha256=00" }),
      // Up to 40 MiB, far more than the cap: the answer must come before the sender runs out.
      () => (sent < 40 * CHUNK ? ((sent += CHUNK), chunkFrame(CHUNK)) : null),
    );
    expect(answer.status).toBe(413);
    expect(answer.bytesSent).toBeGreaterThan(WEBHOOK_BODY_LIMIT_BYTES);
    expect(answer.bytesSent).toBeLessThan(40 * CHUNK);
  });

  it("takes a signed delivery whose path has a trailing slash through the same checks", async () => {
    harness = await startAppHarness();
    const payload = harness.humanComment(ISSUE, "/agent fix it").payload;
    const body = JSON.stringify(payload);
    const post = (path: string, sig: string) =>
      fetch(`${harness.app.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "issue_comment",
          "x-github-delivery": "d-2",
          "x-hub-signature-256": sig,
        },
        body,
      });
    const forged = await post("/api/github/webhooks/", signature(body, "not-the-secret"));
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ error: "The signature does not match the body and the App's webhook secret." });
    const signed = await post("/api/github/webhooks/", signature(body));
    expect(signed.status).toBe(200);
    await harness.idle();
    expect(harness.botComments(1)).toHaveLength(1);
  });

  it("cuts off a request whose headers or body arrive too slowly", async () => {
    harness = await startAppHarness({ httpTimeouts: { headersMs: 300, requestMs: 600, checkEveryMs: 50 } });
    const started = Date.now();
    // Half the headers, then nothing.
    const headers = await rawRequest(harness.app.webhookUrl, "POST /api/github/webhooks HTTP/1.1\r\nhost: x", null, 5_000, true);
    expect(headers.status).toBe(408);
    // The headers, a body announced and never sent.
    const body = await rawRequest(
      harness.app.webhookUrl,
      webhookHead(harness.app.webhookUrl, { "content-length": "100", "x-hub-signature-256": "sha256=00" }),
      null,
      5_000,
    );
    expect(body.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("answers 503 to a sender once unsigned bodies in flight fill the shared allowance, and takes deliveries again after", async () => {
    harness = await startAppHarness({ httpTimeouts: { headersMs: 5_000, requestMs: 8_000, checkEveryMs: 100 } });
    const head = webhookHead(harness.app.webhookUrl, { "transfer-encoding": "chunked", "x-hub-signature-256": "sha256=00" });
    // Senders that each stream just under GitHub's cap and then hold their request open, unfinished: one more than
    // the allowance holds. None passes its own cap, so the only refusal there can be is the shared allowance's, whatever
    // order the server reads their bytes in on a loaded machine.
    const perSender = WEBHOOK_BODY_LIMIT_BYTES - CHUNK;
    const senders = Math.floor(UNVERIFIED_BYTES_LIMIT / perSender) + 1;
    const sent = Array.from({ length: senders }, () => 0);
    const answers = await Promise.all(
      sent.map((_, i) =>
        rawRequest(harness.app.webhookUrl, head, () => (sent[i]! < perSender ? ((sent[i]! += CHUNK), chunkFrame(CHUNK)) : null), 15_000),
      ),
    );
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(answers.map((answer) => answer.status)).not.toContain(413);
    for (const answer of refused) {
      expect(answer.text).toContain("Too many webhook bodies");
      expect(answer.bytesSent).toBeLessThan(WEBHOOK_BODY_LIMIT_BYTES);
    }

    // The others were cut off by the request timeout; what they held is given back.
    const payload = harness.humanComment(ISSUE, "/agent fix it").payload;
    const body = JSON.stringify(payload);
    const signed = await fetch(harness.app.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "issue_comment",
        "x-github-delivery": "d-9",
        "x-hub-signature-256": signature(body),
      },
      body,
    });
    expect(signed.status).toBe(200);
  }, 60_000);
});

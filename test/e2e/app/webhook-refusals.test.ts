/**
 * `agent-run app` as a process: unsigned bodies over 25 MiB get 413 (announced, or chunked and
 * counted), a forged delivery gets 400, a signed one the App cannot use gets 422, and each refusal is
 * one log line that holds no payload.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { appEnv, baseSeed, signature } from "../../helpers/app-harness.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { jsonLogLines, startAppChild, type AppChild } from "../../helpers/app-process.js";
import { chunkFrame, rawRequest } from "../../helpers/raw-http.js";

const MiB = 1024 * 1024;
/** Written into every refused body: no log line may repeat it. */
const PAYLOAD_TELLTALE = "telltale-of-the-payload-7f3a";

let github: FakeGitHub;
let emulator: RunningEmulator;
let app: AppChild;
let dataDir: string;

beforeAll(async () => {
  github = await startFakeGitHub({ seed: baseSeed() });
  emulator = await startEmulator();
  dataDir = mkdtempSync(join(tmpdir(), "arb-refusals-"));
  app = await startAppChild(
    appEnv({ url: emulator.url, token: emulator.token, orgId: emulator.orgId }, dataDir, {
      GHE_HOST: new URL(github.url).host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    }),
    "app",
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await emulator?.close();
  await github?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function head(headers: Record<string, string>): string {
  const { host, pathname } = new URL(app.webhookUrl);
  const lines = [`POST ${pathname} HTTP/1.1`, `host: ${host}`, "content-type: application/json", "x-github-event: issue_comment"];
  return [...lines, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)].join("\r\n");
}

async function refusalLines(count: number): Promise<Array<Record<string, unknown>>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = jsonLogLines(app.stdout()).filter((line) => String(line.msg).startsWith("webhook delivery refused"));
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the App process refuses what GitHub would never send", () => {
  it("answers 413 and 400, logs one line per refusal, and never the payload", async () => {
    // 30 MB announced, unsigned: answered before any of it is sent.
    const announced = await rawRequest(app.webhookUrl, head({ "content-length": String(30 * MiB), "x-github-delivery": "big-1" }), null);
    expect(announced.status).toBe(413);

    // Chunked (no length), unsigned, the telltale in every chunk: refused once it passes 25 MiB. The sender
    // would go on to 64 MiB; the answer stops it well before (the slack is for a loaded machine's socket buffers).
    let sent = 0;
    const chunked = await rawRequest(app.webhookUrl, head({ "transfer-encoding": "chunked", "x-github-delivery": "big-2" }), () =>
      sent < 64 * MiB ? ((sent += MiB), chunkFrame(MiB, PAYLOAD_TELLTALE)) : null,
    );
    expect(chunked.status).toBe(413);
    expect(chunked.bytesSent).toBeLessThan(64 * MiB);

    // A real payload signed with the wrong secret.
    const payload = issueCommentPayload({
      thread: { number: 1, title: "Flaky date test", body: "" },
      comment: { id: 99, body: `/agent ${PAYLOAD_TELLTALE}`, login: "maintainer" },
    });
    const body = JSON.stringify(payload);
    const forged = await fetch(app.webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "issue_comment",
        "x-github-delivery": "forged-1",
        "x-hub-signature-256": signature(body, "a-guessed-secret"),
      },
      body,
    });
    expect(forged.status).toBe(400);

    const lines = await refusalLines(3);
    expect(lines.map((line) => line.refusedDelivery)).toEqual([
      expect.objectContaining({ reason: "body_too_large", status: 413, delivery: "big-1", bytes: 30 * MiB }),
      expect.objectContaining({ reason: "body_too_large", status: 413, delivery: "big-2" }),
      expect.objectContaining({ reason: "signature_mismatch", status: 400, delivery: "forged-1", bytes: Buffer.byteLength(body) }),
    ]);
    expect(lines.every((line) => line.level === 40)).toBe(true);
    expect(app.stdout() + app.stderr()).not.toContain(PAYLOAD_TELLTALE);
    expect(github.commentsOn(FULL_NAME, 1)).toEqual([]);
  });

  it("answers 422 to signed deliveries it cannot use, each in one log line with its delivery id and without the payload", async () => {
    const payload = issueCommentPayload({
      thread: { number: 1, title: "Flaky date test", body: "" },
      comment: { id: 98, body: `/agent ${PAYLOAD_TELLTALE}`, login: "maintainer" },
    });
    const mistyped = JSON.stringify({ ...payload, installation: { id: PAYLOAD_TELLTALE } });
    const deep = `{"action":"created","comment":"${PAYLOAD_TELLTALE}","x":${'{"a":'.repeat(2_000)}1${"}".repeat(2_000)}}`;
    const post = (body: string, delivery: string, event = "issue_comment") =>
      fetch(app.webhookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": event,
          "x-github-delivery": delivery,
          "x-hub-signature-256": signature(body),
        },
        body,
      });
    expect((await post(mistyped, "mistyped-1")).status).toBe(422);
    expect((await post(deep, "deep-1")).status).toBe(422);
    // A ping, well formed, is still answered 200.
    expect((await post(JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 }), "ping-1", "ping")).status).toBe(200);

    const mentions = async (delivery: string) => {
      await refusalLines(5);
      return jsonLogLines(app.stdout()).filter((line) => JSON.stringify(line).includes(delivery));
    };
    expect(await mentions("mistyped-1")).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "webhook delivery refused (422 payload_fields_unusable)",
        refusedDelivery: expect.objectContaining({
          delivery: "mistyped-1",
          status: 422,
          problems: ["`installation.id`: must be a positive integer (got text of 28 characters)"],
        }),
      }),
    ]);
    expect(await mentions("deep-1")).toEqual([
      expect.objectContaining({
        msg: "webhook delivery refused (422 payload_too_deep)",
        refusedDelivery: expect.objectContaining({ delivery: "deep-1" }),
      }),
    ]);
    expect(app.stdout() + app.stderr()).not.toContain(PAYLOAD_TELLTALE);
    expect(app.stdout() + app.stderr()).not.toContain("Maximum copy depth");
    expect(jsonLogLines(app.stdout()).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

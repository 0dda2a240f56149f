/**
 * The App's delivery log through src/github/deliveries.ts against the fake GitHub over HTTP: newest
 * first, cursor pages followed through the Link header, a page limit, the App's JWT required, and a
 * redelivery that GitHub (the fake) really sends, signed, under the same GUID (422 past three days).
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { listAppDeliveries, redeliverAppDelivery } from "../../../src/github/deliveries.js";
import { GitHubAuthenticationError, GitHubValidationError } from "../../../src/github/errors.js";
import { octokitFor, startFake } from "./setup.js";

/** Shaped like a JWT: the fake tells an App's JWT from an installation token by its shape. */
const APP_JWT = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMDAxIn0.c2lnbmF0dXJl";
const DAY_MS = 24 * 60 * 60_000;

describe("the App's webhook deliveries", () => {
  it("are listed newest first, page after page by cursor, up to a page limit", async () => {
    const fake = await startFake();
    const start = Date.now() - 250_000;
    for (let i = 0; i < 250; i++) {
      fake.recordHookDelivery({
        event: "issues",
        payload: { action: "opened" },
        statusCode: i % 2 ? 200 : 0,
        deliveredAt: new Date(start + i * 1_000),
      });
    }
    const octokit = octokitFor(fake, APP_JWT);
    const all = await listAppDeliveries(octokit, { maxPages: 10, reachedEnough: () => false });
    expect(all).toMatchObject({ pages: 3, complete: true });
    expect(all.attempts.map((a) => a.id)).toEqual(fake.hookDeliveries.map((d) => d.id).reverse());
    expect(all.attempts[0]).toMatchObject({ statusCode: 200, event: "issues", redelivery: false });
    const pages = fake.callsTo("GET", "/app/hook/deliveries");
    expect(pages.map((r) => r.query.cursor ?? "none")).toEqual(["none", expect.stringMatching(/^v1_/), expect.stringMatching(/^v1_/)]);
    expect(pages.every((r) => r.query.per_page === "100" && r.auth === "app_jwt")).toBe(true);

    const limited = await listAppDeliveries(octokit, { maxPages: 2, reachedEnough: () => false });
    expect(limited).toMatchObject({ pages: 2, complete: false });
    expect(limited.attempts).toHaveLength(200);
    const enough = await listAppDeliveries(octokit, { maxPages: 10, reachedEnough: () => true });
    expect(enough).toMatchObject({ pages: 1, complete: true });
  });

  it("need the App's JWT: an installation token is refused", async () => {
    const fake = await startFake();
    await expect(
      listAppDeliveries(octokitFor(fake, "ghs_installation"), { maxPages: 1, reachedEnough: () => true }),
    ).rejects.toBeInstanceOf(GitHubAuthenticationError);
  });

  it("are redelivered, signed, under the same GUID as a new attempt with redelivery: true; not past three days", async () => {
    const fake = await startFake();
    const received: Array<{ guid: string; signed: boolean }> = [];
    const secret = "s3cret";
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
        received.push({ guid: String(req.headers["x-github-delivery"]), signed: req.headers["x-hub-signature-256"] === expected });
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      fake.setWebhookTarget({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret });
      const recent = fake.recordHookDelivery({ event: "issue_comment", payload: { action: "created" }, statusCode: 0 });
      const old = fake.recordHookDelivery({
        event: "issue_comment",
        payload: {},
        statusCode: 0,
        deliveredAt: new Date(Date.now() - 4 * DAY_MS),
      });
      const octokit = octokitFor(fake, APP_JWT);
      await redeliverAppDelivery(octokit, recent.id);
      await fake.webhooksSettled();
      expect(received).toEqual([{ guid: recent.guid, signed: true }]);
      expect(fake.hookDeliveries.at(-1)).toMatchObject({
        guid: recent.guid,
        redelivery: true,
        status_code: 200,
        status: "OK",
        action: "created",
      });
      await expect(redeliverAppDelivery(octokit, old.id)).rejects.toBeInstanceOf(GitHubValidationError);
      expect(received).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

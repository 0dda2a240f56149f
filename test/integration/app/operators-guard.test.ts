/**
 * The operators' views under attack, over loopback: a flood of wrong tokens is turned away with 429
 * and `Retry-After` after a handful (bearer, sign-in form and /metrics alike, parallel or not), while
 * the right token still works from another address; a client cannot dodge the count by writing its
 * own `X-Forwarded-For` unless the operator trusts the proxy that wrote it; the pages are sent with
 * a content-security policy and no framing, referrer or caching; another site cannot post the form.
 */
import { createHash } from "node:crypto";
import { request, type IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { WRONG_TOKEN_RULE } from "../../../src/app/ops/wrong-token-throttle.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const STATUS_TOKEN = "status-token-0123456789abcdef0123456789";
const METRICS_TOKEN = "metrics-token-0123456789abcdef012345678";
const ALLOWANCE = WRONG_TOKEN_RULE.allowance;

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over node:http, from a chosen loopback address (127.0.0.0/8 is all loopback on Linux). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string; bodyAfter?: Promise<void> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {}, localAddress: options.from ?? "127.0.0.1" },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    if (!options.bodyAfter) return void req.end(options.body);
    // The headers now, the body later: the server has begun every request of a burst before it reads any form.
    req.flushHeaders();
    void options.bodyAfter.then(() => req.end(options.body));
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const signInForm = (token: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams({ token }).toString(),
});

/** The 429 the throttle sends: `Retry-After` in whole seconds, within the window. */
function expectTurnedAway(answer: Answer): void {
  expect(answer.status).toBe(429);
  const wait = Number(answer.headers["retry-after"]);
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(WRONG_TOKEN_RULE.windowMs / 1000);
}

describe("wrong tokens", () => {
  it("are answered 401 a handful of times, then 429 with Retry-After even for the right token; another address still gets in", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN, METRICS_TOKEN } });
    const status = `${harness.app.url}/status`;
    for (let guess = 0; guess < ALLOWANCE; guess++) {
      expect((await send(status, { headers: bearer(`guess-${guess}`) })).status).toBe(401);
    }
    const flooded = await send(status, { headers: bearer("one-more-guess") });
    expectTurnedAway(flooded);
    // Right or wrong makes no difference now: a 200 here would tell the guesser it had found the token.
    expectTurnedAway(await send(status, { headers: bearer(STATUS_TOKEN) }));
    expectTurnedAway(await send(status, signInForm(STATUS_TOKEN)));
    expectTurnedAway(await send(`${harness.app.url}/metrics`, { headers: bearer(METRICS_TOKEN) }));
    expectTurnedAway(await send(`${harness.app.url}/healthz?verbose`, { headers: bearer(STATUS_TOKEN) }));
    // The open probe is not an operators' view: load balancers on the same address keep working.
    expect((await send(`${harness.app.url}/healthz`)).status).toBe(200);

    const elsewhere = await send(status, { headers: bearer(STATUS_TOKEN), from: "127.0.0.2" });
    expect(elsewhere.status).toBe(200);
    expect((await send(`${harness.app.url}/metrics`, { headers: bearer(METRICS_TOKEN), from: "127.0.0.2" })).status).toBe(200);
  });

  it("do not include a browser's stale cookie (what every browser holds after the token changed)", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN } });
    const status = `${harness.app.url}/status`;
    const stale = { cookie: "agent_run_status=signed-with-the-previous-token" };
    for (let load = 0; load < ALLOWANCE * 2; load++) expect((await send(status, { headers: stale })).status).toBe(401);
    expect((await send(status, signInForm(STATUS_TOKEN, stale))).status).toBe(303);
  });

  it("count alike on the sign-in form and /metrics, and a parallel burst gets no more than the allowance", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN, METRICS_TOKEN } });
    const status = `${harness.app.url}/status`;
    const metricsGuesses = await Promise.all(
      Array.from({ length: 3 }, (_, i) => send(`${harness.app.url}/metrics`, { headers: bearer(`m-${i}`), from: "127.0.0.3" })),
    );
    expect(metricsGuesses.map((answer) => answer.status)).toEqual([401, 401, 401]);
    // Twenty guesses at once, their forms sent only once every request has begun: each is judged and counted
    // in one turn after its form is read, so none slips through between another's check and its count.
    const bodiesSent = new Promise<void>((resolve) => setTimeout(resolve, 300));
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(status, { ...signInForm(`form-${i}`), from: "127.0.0.3", bodyAfter: bodiesSent })),
    );
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((code) => code === 401)).toHaveLength(ALLOWANCE - 3);
    expect(statuses.filter((code) => code === 429)).toHaveLength(20 - (ALLOWANCE - 3));
    const later = burst.find((answer) => answer.status === 429)!;
    expectTurnedAway(later);
    expect(later.body).toContain("Too many wrong tokens from your address");
    expect(later.headers["set-cookie"]).toBeUndefined();
  });

  it("cannot be dodged with a forged X-Forwarded-For; with TRUST_PROXY, the trusted proxy's word counts per client", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN } });
    const status = `${harness.app.url}/status`;
    const answers: number[] = [];
    for (let guess = 0; guess <= ALLOWANCE; guess++) {
      answers.push((await send(status, { headers: { ...bearer(`g-${guess}`), "x-forwarded-for": `203.0.113.${guess}` } })).status);
    }
    expect(answers).toEqual([...Array<number>(ALLOWANCE).fill(401), 429]);
    await harness.close();

    // Behind a proxy on loopback the operator says so; the proxy appends the client's address.
    harness = await startAppHarness({ env: { STATUS_TOKEN, TRUST_PROXY: "loopback" } });
    const behindProxy = `${harness.app.url}/status`;
    const from = (client: string, token: string) => send(behindProxy, { headers: { ...bearer(token), "x-forwarded-for": client } });
    for (let guess = 0; guess < ALLOWANCE; guess++) expect((await from("203.0.113.7", `g-${guess}`)).status).toBe(401);
    expectTurnedAway(await from("203.0.113.7", STATUS_TOKEN));
    expect((await from("198.51.100.9", STATUS_TOKEN)).status).toBe(200);
    // What a client wrote before the trusted hop is not believed: the proxy's own entry (the last) decides.
    expectTurnedAway(await from("198.51.100.9, 203.0.113.7", STATUS_TOKEN));
    // An IPv6 client is counted by its /64: the next address in the same network is the same client.
    for (let guess = 0; guess < ALLOWANCE; guess++) expect((await from("2001:db8:1:2::1", `v6-${guess}`)).status).toBe(401);
    expectTurnedAway(await from("2001:db8:1:2::ffff", STATUS_TOKEN));
    expect((await from("2001:db8:1:3::1", STATUS_TOKEN)).status).toBe(200);
  });
});

/** The sha256 CSP source of the page's one inline stylesheet. */
function styleSourceOf(html: string): string {
  const css = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  return `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
}

function expectOperatorPageHeaders(answer: Answer): void {
  const policy = String(answer.headers["content-security-policy"]);
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("form-action 'self'");
  expect(policy).not.toContain("unsafe-inline");
  // The page's own stylesheet is allowed by its hash (so the page looks as it should), nothing else is.
  expect(policy).toContain(`style-src ${styleSourceOf(answer.body)}`);
  expect(answer.headers["x-frame-options"]).toBe("DENY");
  expect(answer.headers["referrer-policy"]).toBe("no-referrer");
  expect(answer.headers["cache-control"]).toBe("no-store");
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
}

describe("the status page and its sign-in form", () => {
  it("are sent with a content-security policy, no framing, no referrer and no caching", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN } });
    const status = `${harness.app.url}/status`;
    const form = await send(status);
    expect(form.status).toBe(401);
    expectOperatorPageHeaders(form);
    const page = await send(status, { headers: bearer(STATUS_TOKEN) });
    expect(page.status).toBe(200);
    expectOperatorPageHeaders(page);
    expect(styleSourceOf(page.body)).not.toBe(styleSourceOf(form.body));
    const wrong = await send(status, signInForm("not-it"));
    expect(wrong.status).toBe(401);
    expectOperatorPageHeaders(wrong);
  });

  it("takes no sign-in posted from another site's page, even with the right token", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN } });
    const status = `${harness.app.url}/status`;
    for (const site of ["cross-site", "same-site"]) {
      const posted = await send(status, signInForm(STATUS_TOKEN, { "sec-fetch-site": site, origin: "https://evil.example" }));
      expect(posted.status, site).toBe(403);
      expect(posted.headers["set-cookie"], site).toBeUndefined();
    }
    // The page's own form (same-origin), and tools that send no such header, sign in.
    const ownForm = await send(status, signInForm(STATUS_TOKEN, { "sec-fetch-site": "same-origin" }));
    expect(ownForm.status).toBe(303);
    expect(ownForm.headers["set-cookie"]?.[0]).toMatch(/; HttpOnly; SameSite=Strict;/);
    expect((await send(status, signInForm(STATUS_TOKEN))).status).toBe(303);
  });
});

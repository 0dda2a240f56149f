/**
 * What operators read from a running App: `/metrics` (Prometheus text, off by default, behind a
 * bearer token when one is set) and `/status` (404 without STATUS_TOKEN, the runs in flight with it).
 */
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startAppHarness, type AppHarness, until } from "../../helpers/app-harness.js";

const ISSUE = { number: 1, title: "Flaky date test", body: "`dates.test.ts` fails on Tuesdays." };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

/** The value of one sample line of the Prometheus text, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("/metrics", () => {
  it("is off unless METRICS or METRICS_TOKEN is set", async () => {
    harness = await startAppHarness();
    expect((await fetch(`${harness.app.url}/metrics`)).status).toBe(404);
  });

  it("counts webhooks, runs and service requests of a real run, behind its bearer token, without repository names", async () => {
    harness = await startAppHarness({ env: { METRICS_TOKEN: "scrape-me-0123456789abcdef0123456789" } });
    const trigger = harness.humanComment(ISSUE, "/agent fix the flaky test");
    await harness.deliver("issue_comment", trigger.payload);
    await harness.deliver("issue_comment", trigger.payload, "same-twice");
    await harness.deliver("issue_comment", trigger.payload, "same-twice");
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "just chatting").payload);
    await harness.idle();

    expect((await fetch(`${harness.app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${harness.app.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const response = await fetch(`${harness.app.url}/metrics`, {
      headers: { authorization: "Bearer scrape-me-0123456789abcdef0123456789" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();

    expect(sample(text, 'agent_run_bridge_webhooks_received_total{event="issue_comment",receipt="queued"}')).toBe(3);
    expect(sample(text, 'agent_run_bridge_webhooks_received_total{event="issue_comment",receipt="duplicate"}')).toBe(1);
    // The second delivery of the same comment is another delivery id but the same trigger; the chat is no trigger.
    expect(sample(text, 'agent_run_bridge_webhooks_ignored_total{reason="no_trigger"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_runs_started_total{kind="created",source_type="GIT_HOST"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_runs_finished_total{outcome="succeeded",source_type="GIT_HOST"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_service_requests_total{endpoint="create",status="200"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_service_rate_limited_total{endpoint="create"}')).toBe(0);
    expect(sample(text, 'agent_run_bridge_tasks{state="done"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_queue_jobs{kind="delivery",state="waiting"}')).toBe(0);
    expect(sample(text, "agent_run_bridge_first_acknowledgement_seconds_count")).toBe(1);
    expect(sample(text, 'agent_run_bridge_webhook_answer_seconds_count{status="200"}')).toBe(4);
    // The tracking comment, and the 👀 as a courtesy (writes were idle, so it went first).
    expect(sample(text, 'agent_run_bridge_github_writes_total{priority="acknowledge",outcome="written"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_github_writes_total{priority="courtesy",outcome="written"}')).toBe(1);
    expect(sample(text, 'agent_run_bridge_github_writes_total{priority="result",outcome="written"}')).toBeGreaterThanOrEqual(2);
    expect(text).not.toContain("octo-org");
  });

  it("labels runs with their repository only when METRICS_REPO_LABELS=true", async () => {
    harness = await startAppHarness({ env: { METRICS: "true", METRICS_REPO_LABELS: "true" } });
    await harness.deliver("issue_comment", harness.humanComment(ISSUE, "/agent fix it").payload);
    await harness.idle();
    const text = await (await fetch(`${harness.app.url}/metrics`)).text();
    expect(sample(text, 'agent_run_bridge_runs_started_total{kind="created",source_type="GIT_HOST",repository="octo-org/widgets"}')).toBe(
      1,
    );
  });
});

describe("/status", () => {
  it("is 404 without STATUS_TOKEN", async () => {
    harness = await startAppHarness();
    expect((await fetch(`${harness.app.url}/status`)).status).toBe(404);
  });

  it("shows the runs in flight, held follow-ups and recent failures to the holder of the token", async () => {
    // The App's clock runs 20× rather than 500× faster here: the creation budget's minute then lasts 3 s, not 120 ms,
    // so the one creation is still inside it when the page is read on a loaded machine; the run outlasts the test.
    harness = await startAppHarness({ env: { STATUS_TOKEN: "let-me-see-0123456789abcdef0123456789", AGENT_RUN_TIME_SCALE: "0.05" } });
    harness.emulator.control.script({ match: "slow", durationMs: 3_600_000 });
    await harness.deliver("issue_comment", harness.humanComment({ ...ISSUE, number: 1 }, "/agent a slow task").payload);
    await until(async () => (await harness.app.store.listTasks(["watching"])).length === 1, "the slow run to be watched");
    await harness.deliver("issue_comment", harness.humanComment({ ...ISSUE, number: 1 }, "/agent and then this").payload);
    await until(async () => (await harness.app.store.listTasks(["held"])).length === 1, "the follow-up to be held");

    expect((await fetch(`${harness.app.url}/status`)).status).toBe(401);
    expect((await fetch(`${harness.app.url}/status`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    const page = await fetch(`${harness.app.url}/status`, { headers: { authorization: "Bearer let-me-see-0123456789abcdef0123456789" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    const [watching] = await harness.app.store.listTasks(["watching"]);
    expect(html).toContain('Runs in flight <span class="count">1</span>');
    expect(html).toContain(`href="${watching!.webUrl}">#${watching!.runId}</a>`);
    // Links point at the GitHub the App talks to (here the fake's address).
    expect(html).toContain(`href="${harness.github.url}/octo-org/widgets/issues/1">octo-org/widgets#1</a>`);
    expect(html).toContain('Held follow-ups <span class="count">1</span>');
    expect(html).toContain("No recent failure.");
    expect(html).toMatch(/Run creations<\/strong>: 1 of 10 in the last [\d.]+ s/);
    expect(html).not.toContain("<script");
  });

  it("never takes the token from the query string; a browser signs in through a form that sets an HttpOnly, SameSite=Strict cookie", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN: "let-me-see-0123456789abcdef0123456789" } });
    const url = `${harness.app.url}/status`;
    // Query strings end up in access logs and browser history.
    const byQuery = await fetch(`${url}?token=let-me-see-0123456789abcdef0123456789`);
    expect(byQuery.status).toBe(401);
    const form = await byQuery.text();
    expect(form).toContain('<form method="post" action="/status">');
    expect(form).toContain('name="token" type="password"');

    const post = (token: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token }).toString(),
        redirect: "manual",
      });
    const wrong = await post("nope");
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await wrong.text()).toContain("That is not the status token.");

    const right = await post("let-me-see-0123456789abcdef0123456789");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/status");
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^agent_run_status=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain("let-me-see-0123456789abcdef0123456789");
    const pair = cookie.split(";")[0]!;
    const page = await fetch(url, { headers: { cookie: pair } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>agent-run-bridge status</title>");
    // Behind a TLS-terminating proxy the cookie is Secure.
    const behindTls = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
      body: "token=let-me-see-0123456789abcdef0123456789",
      redirect: "manual",
    });
    expect(behindTls.headers.get("set-cookie")).toMatch(/; Secure$/);
    // The token itself is no cookie, nor a cookie made with another token.
    expect((await fetch(url, { headers: { cookie: "agent_run_status=let-me-see-0123456789abcdef0123456789" } })).status).toBe(401);
    const otherHarnessCookie = `agent_run_status=${createHmac("sha256", "other").update("agent-run-bridge status sign-in v1").digest("base64url")}`;
    expect((await fetch(url, { headers: { cookie: otherHarnessCookie } })).status).toBe(401);

    // The verbose health answer shows the work in flight: the same token or cookie.
    expect((await fetch(`${harness.app.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${harness.app.url}/healthz?verbose`)).status).toBe(401);
    expect((await fetch(`${harness.app.url}/healthz?verbose&token=let-me-see-0123456789abcdef0123456789`)).status).toBe(401);
    const verbose = await fetch(`${harness.app.url}/healthz?verbose`, { headers: { cookie: pair } });
    expect(await verbose.json()).toMatchObject({ ok: true, tasks: {}, queue: { task: { active: 0 } } });
  });
});

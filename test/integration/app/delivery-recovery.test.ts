/**
 * Missed deliveries come back by themselves: comments sent while the App was down (the fake GitHub
 * records each failed attempt, status_code 0), then the App starts, lists its deliveries, and has
 * GitHub redeliver each failed one once; the redelivery goes through the ordinary webhook path.
 * Failures someone already redelivered, older than three days, or that the App stored itself are
 * left alone; DELIVERY_RECOVERY_INTERVAL=0 turns it all off. Real HTTP throughout.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import type { FakeGitHub } from "../../helpers/fake-github/index.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, WEBHOOK_SECRET, baseSeed, startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";
import { freePort } from "../../helpers/app-process.js";
import { MAX_REDELIVERIES } from "../../../src/core/delivery-recovery.js";

const THREADS = [11, 12, 13];
const DAY_MS = 24 * 60 * 60_000;
const STATUS_TOKEN = "ops-token-0123456789abcdef0123456789";
const RECOVERY_ON = { DELIVERY_RECOVERY_INTERVAL: "5m", STATUS_TOKEN, METRICS: "true" };

let harness: AppHarness;

afterEach(async () => {
  await harness?.close();
});

function seedWithThreads() {
  const seed = baseSeed();
  seed.issues = [
    ...(seed.issues ?? []),
    ...THREADS.map((number) => ({ number, title: `Issue ${number}`, body: "To do.", user: "maintainer" })),
  ];
  return seed;
}

/** A maintainer's trigger in a thread: the comment exists on GitHub; its payload is returned for GitHub to deliver. */
function trigger(github: FakeGitHub, issueNumber: number): object {
  const body = `/agent fix issue ${issueNumber}`;
  github.seed({ issueComments: [{ issue_number: issueNumber, body, user: "maintainer" }] });
  const stored = github.state.issueComments.at(-1)!;
  return issueCommentPayload({
    thread: { number: issueNumber, title: `Issue ${issueNumber}` },
    comment: { id: stored.id, body, login: "maintainer" },
  });
}

const redeliveryRequests = (h: AppHarness) => h.github.callsTo("POST", "/app/hook/deliveries/{id}/attempts");
const attemptsOf = (h: AppHarness, guid: string) =>
  h.github.hookDeliveries.filter((d) => d.guid === guid).map((d) => `${d.redelivery ? "redelivery" : "delivery"} ${d.status_code}`);

async function statusPage(h: AppHarness): Promise<string> {
  const response = await fetch(`${h.app.url}/status`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } });
  return response.text();
}

describe("delivery recovery", () => {
  it("redelivers each delivery that failed while the App was down, once: three comments, three runs", async () => {
    const failed: string[] = [];
    harness = await startAppHarness({
      seed: seedWithThreads(),
      env: RECOVERY_ON,
      whileAppIsDown: async ({ github }) => {
        for (const issue of THREADS) failed.push((await github.sendWebhook("issue_comment", trigger(github, issue))).guid);
      },
    });
    expect(failed.map((guid) => attemptsOf(harness, guid))).toEqual(THREADS.map(() => ["delivery 0"]));

    await until(() => harness.emulator.control.stats().runsCreated === 3, "three runs", 15_000);
    await harness.github.webhooksSettled();
    await harness.idle();
    // Each failed delivery was asked for once, arrived once (same GUID, redelivery: true), and started one run.
    expect(redeliveryRequests(harness)).toHaveLength(3);
    expect(redeliveryRequests(harness).every((r) => r.auth === "app_jwt" && r.status === 202)).toBe(true);
    expect(failed.map((guid) => attemptsOf(harness, guid))).toEqual(THREADS.map(() => ["delivery 0", "redelivery 200"]));
    expect(harness.emulator.control.stats().runsCreated).toBe(3);
    for (const issue of THREADS) {
      const results = harness.github
        .commentsOn(FULL_NAME, issue)
        .filter((c) => c.user.login === BOT_LOGIN)
        .map((c) => parseMarker(c.body));
      expect(results).toEqual([expect.objectContaining({ state: "done", outcome: "succeeded" })]);
    }
    await until(async () => (await harness.app.store.lastDeliverySweep()) !== null, "the sweep's record");
    expect(await statusPage(harness)).toContain("3 failed deliveries found, 3 redelivered.");
    const metrics = await (await fetch(`${harness.app.url}/metrics`)).text();
    expect(metrics).toContain('agent_run_bridge_delivery_recovery_sweeps_total{outcome="completed"} 1');
    expect(metrics).toContain("agent_run_bridge_delivery_recovery_failed_found_total 3");
    expect(metrics).toContain("agent_run_bridge_delivery_recovery_redelivered_total 3");

    // A later sweep finds them answered: nothing is asked for again, nothing runs twice.
    const again = await harness.app.recovery!.sweep();
    expect(again).toMatchObject({ found: 3, redelivered: 0, skipped: { succeeded_later: 3 } });
    expect(await (await fetch(`${harness.app.url}/metrics`)).text()).toContain(
      'agent_run_bridge_delivery_recovery_skipped_total{reason="succeeded_later"} 3',
    );
    await harness.github.webhooksSettled();
    await harness.idle();
    expect(redeliveryRequests(harness)).toHaveLength(3);
    expect(harness.emulator.control.stats().runsCreated).toBe(3);
  });

  it("holds redeliveries to ALLOWED_OWNERS: a stranger's failed delivery comes back, is answered 200, and starts nothing", async () => {
    const failed: string[] = [];
    harness = await startAppHarness({
      seed: seedWithThreads(),
      env: { ...RECOVERY_ON, ALLOWED_OWNERS: "octo-org" },
      whileAppIsDown: async ({ github }) => {
        const strangers = trigger(github, 11) as { repository: { owner: { login: string } }; installation: { id: number } };
        strangers.repository.owner.login = "stranger-org";
        strangers.installation.id = 777_002;
        failed.push((await github.sendWebhook("issue_comment", strangers)).guid);
        failed.push((await github.sendWebhook("issue_comment", trigger(github, 12))).guid);
      },
    });
    await until(() => harness.emulator.control.stats().runsCreated === 1, "the listed owner's run", 15_000);
    await harness.github.webhooksSettled();
    await harness.idle();
    expect(failed.map((guid) => attemptsOf(harness, guid))).toEqual([
      ["delivery 0", "redelivery 200"],
      ["delivery 0", "redelivery 200"],
    ]);
    expect(harness.emulator.control.stats().runsCreated).toBe(1);
    expect(harness.botComments(11)).toEqual([]);
    expect(harness.botComments(12)).toHaveLength(1);
    expect(await (await fetch(`${harness.app.url}/metrics`)).text()).toContain(
      'agent_run_bridge_webhooks_received_total{event="issue_comment",receipt="not_allowed"} 1',
    );
  });

  it("leaves alone a failure someone already redelivered, one older than three days, and one the App stored itself", async () => {
    let redeliveredByHand = "";
    let tooOld = "";
    harness = await startAppHarness({
      seed: seedWithThreads(),
      env: RECOVERY_ON,
      whileAppIsDown: async ({ github }) => {
        const now = Date.now();
        const first = github.recordHookDelivery({
          event: "issue_comment",
          payload: trigger(github, 11),
          statusCode: 502,
          deliveredAt: new Date(now - 60 * 60_000),
        });
        redeliveredByHand = first.guid;
        // Someone pressed "Redeliver" while another deployment of the App was up: it answered 200.
        github.recordHookDelivery({
          event: "issue_comment",
          payload: first.request.payload,
          guid: first.guid,
          statusCode: 200,
          redelivery: true,
          deliveredAt: new Date(now - 30 * 60_000),
        });
        tooOld = github.recordHookDelivery({
          event: "issue_comment",
          payload: trigger(github, 12),
          statusCode: 0,
          deliveredAt: new Date(now - 4 * DAY_MS),
        }).guid;
      },
    });
    await until(async () => (await harness.app.store.lastDeliverySweep()) !== null, "the start sweep");
    expect(await harness.app.store.lastDeliverySweep()).toMatchObject({
      found: 2,
      redelivered: 0,
      skipped: { succeeded_later: 1, too_old: 1 },
    });
    expect(redeliveryRequests(harness)).toEqual([]);
    expect(attemptsOf(harness, redeliveredByHand)).toEqual(["delivery 502", "redelivery 200"]);
    expect(attemptsOf(harness, tooOld)).toEqual(["delivery 0"]);

    // The App stored this one, but GitHub saw no answer in time (status_code 0): it is the App's already.
    const stored = await harness.deliver("issue_comment", trigger(harness.github, 13));
    expect(stored.status).toBe(200);
    harness.github.recordHookDelivery({ event: "issue_comment", payload: {}, guid: stored.deliveryId, statusCode: 0 });
    expect(await harness.app.recovery!.sweep()).toMatchObject({ found: 1, redelivered: 0, skipped: { already_stored: 1 } });
    await harness.idle();
    expect(redeliveryRequests(harness)).toEqual([]);
    expect(harness.emulator.control.stats().runsCreated).toBe(1);
  });

  /** The App started and swept once; GitHub now cannot reach it (a balancer with no replica behind it) and `reachable()` or `unreachable()` says where it delivers. */
  async function startThenBecomeUnreachable(): Promise<{ reachable: () => void; unreachable: () => void }> {
    harness = await startAppHarness({ seed: seedWithThreads(), env: RECOVERY_ON });
    await until(async () => (await harness.app.store.lastDeliverySweep()) !== null, "the start sweep");
    const nowhere = { url: `http://127.0.0.1:${await freePort()}/api/github/webhooks`, secret: WEBHOOK_SECRET };
    const app = { url: harness.app.webhookUrl, secret: WEBHOOK_SECRET };
    harness.github.setWebhookTarget(nowhere);
    return { reachable: () => harness.github.setWebhookTarget(app), unreachable: () => harness.github.setWebhookTarget(nowhere) };
  }

  it("asks again for a redelivery that failed too (a newer failed attempt), and the next one starts the run", async () => {
    const target = await startThenBecomeUnreachable();
    const guid = (await harness.github.sendWebhook("issue_comment", trigger(harness.github, 11))).guid;

    expect(await harness.app.recovery!.sweep()).toMatchObject({ found: 1, redelivered: 1 });
    await harness.github.webhooksSettled();
    expect(attemptsOf(harness, guid)).toEqual(["delivery 0", "redelivery 0"]);
    expect(harness.emulator.control.stats().runsCreated).toBe(0);

    // The App answers again: the next sweep asks for the failed redelivery, which arrives and starts the run.
    target.reachable();
    expect(await harness.app.recovery!.sweep()).toMatchObject({ found: 1, redelivered: 1 });
    await harness.github.webhooksSettled();
    await until(() => harness.emulator.control.stats().runsCreated === 1, "the run");
    await harness.idle();
    expect(attemptsOf(harness, guid)).toEqual(["delivery 0", "redelivery 0", "redelivery 200"]);
    expect(redeliveryRequests(harness)).toHaveLength(2);

    // Answered now: not asked for again, and one run.
    expect(await harness.app.recovery!.sweep()).toMatchObject({ redelivered: 0, skipped: { succeeded_later: 1 } });
    expect(redeliveryRequests(harness)).toHaveLength(2);
    expect(harness.emulator.control.stats().runsCreated).toBe(1);
  });

  it("gives up on a delivery after three redeliveries failed too, and says so", async () => {
    await startThenBecomeUnreachable();
    const guid = (await harness.github.sendWebhook("issue_comment", trigger(harness.github, 12))).guid;
    for (let sweep = 1; sweep <= MAX_REDELIVERIES; sweep++) {
      expect(await harness.app.recovery!.sweep()).toMatchObject({ redelivered: 1 });
      await harness.github.webhooksSettled();
    }
    expect(attemptsOf(harness, guid)).toEqual(["delivery 0", ...Array.from({ length: MAX_REDELIVERIES }, () => "redelivery 0")]);

    expect(await harness.app.recovery!.sweep()).toMatchObject({ found: 1, redelivered: 0, skipped: { gave_up: 1 } });
    expect(redeliveryRequests(harness)).toHaveLength(MAX_REDELIVERIES);
    const metrics = await (await fetch(`${harness.app.url}/metrics`)).text();
    expect(metrics).toContain('agent_run_bridge_delivery_recovery_skipped_total{reason="gave_up"} 1');
    expect(harness.emulator.control.stats().runsCreated).toBe(0);
  });

  it("is off with DELIVERY_RECOVERY_INTERVAL=0: a failed delivery stays failed and the deliveries are never listed", async () => {
    let failed = "";
    harness = await startAppHarness({
      seed: seedWithThreads(),
      env: { DELIVERY_RECOVERY_INTERVAL: "0", STATUS_TOKEN },
      whileAppIsDown: async ({ github }) => {
        failed = (await github.sendWebhook("issue_comment", trigger(github, 11))).guid;
      },
    });
    expect(harness.app.recovery).toBeNull();
    expect(await statusPage(harness)).toContain("Off (DELIVERY_RECOVERY_INTERVAL=0)");
    await harness.idle();
    expect(harness.github.callsTo("GET", "/app/hook/deliveries")).toEqual([]);
    expect(attemptsOf(harness, failed)).toEqual(["delivery 0"]);
    expect(harness.emulator.control.stats().runsCreated).toBe(0);
  });
});

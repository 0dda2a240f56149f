/**
 * A seeded, bounded fuzz of the webhook endpoint over every event the App subscribes to: real
 * payloads from @octokit/webhooks-examples, mutated deterministically (test/helpers/malformed-payloads.ts),
 * signed with the App's secret and sent over HTTP to a real Probot. Every answer is 2xx (a payload the
 * App can still use, or ignores) or 4xx (one it cannot), never 5xx, and afterwards a real comment
 * still starts its run. FUZZ_SEED=<n> replays a failure; the seed is in every failure's message.
 */
import { afterEach, describe, expect, it } from "vitest";
import { APP_EVENTS } from "../../../src/app/probot-app.js";
import { WEBHOOK_BODY_LIMIT_BYTES } from "../../../src/app/webhook-intake.js";
import { everyExample } from "../../helpers/app-payloads.js";
import { postDelivery, startAppHarness, until, type AppHarness } from "../../helpers/app-harness.js";
import { malformedDeliveries, type MalformedDelivery } from "../../helpers/malformed-payloads.js";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);
/** Deliveries per run, every event getting a sixth of them: a few seconds idle, about 20 s on a loaded two-core machine. */
const COUNT = 150;
const CONCURRENCY = 4;

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

const send = (url: string, delivery: MalformedDelivery, id: string) => postDelivery(url, delivery.event, delivery.body, id);

/** A body just under GitHub's cap (a comment's text) without its installation: refused after it is read whole, and verified. */
function nearTheCap(): MalformedDelivery {
  const payload = everyExample("issue_comment")[0] as unknown as { comment: { body: string }; installation?: unknown };
  payload.comment.body = "x".repeat(WEBHOOK_BODY_LIMIT_BYTES - 64 * 1024);
  delete payload.installation;
  return {
    event: "issue_comment",
    body: JSON.stringify(payload),
    mutations: ["comment body just under 25 MiB", "installation dropped"],
    hugeStringBytes: payload.comment.body.length,
  };
}

describe(`malformed deliveries (seed ${SEED})`, () => {
  it("are answered 2xx or 4xx, never 5xx, and the App serves a real delivery afterwards", async () => {
    harness = await startAppHarness();
    const url = harness.app.webhookUrl;
    const answers: Array<{ index: number; status: number; event: string; mutations: string[] }> = [];
    const deliveries = malformedDeliveries({ seed: SEED, count: COUNT, events: APP_EVENTS });
    const extras = [nearTheCap()];
    let index = 0;
    const next = (): MalformedDelivery | undefined => {
      const made = deliveries.next();
      return made.done ? extras.shift() : made.value;
    };
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let delivery = next(); delivery; delivery = next()) {
          const at = index++;
          const status = await send(url, delivery, `fuzz-${SEED}-${at}`);
          answers.push({ index: at, status, event: delivery.event, mutations: delivery.mutations });
        }
      }),
    );
    expect(answers).toHaveLength(COUNT + 1);
    const failed = answers.filter((a) => a.status < 200 || a.status >= 500 || (a.status >= 300 && a.status < 400));
    expect(failed, `seed ${SEED} (FUZZ_SEED=${SEED} replays it): ${JSON.stringify(failed.slice(0, 5))}`).toEqual([]);
    // The fuzz reached both sides of the line: payloads the App still takes, and ones it refuses.
    expect(answers.filter((a) => a.status === 422).length).toBeGreaterThan(COUNT / 3);
    expect(answers.filter((a) => a.status < 300).length).toBeGreaterThan(0);

    const good = harness.humanComment({ number: 1, title: "Flaky date test" }, "/agent fix the flaky date test");
    expect((await harness.deliver("issue_comment", good.payload)).status).toBe(200);
    await until(() => harness.emulator.control.stats().runsCreated >= 1, `the real comment's run (seed ${SEED})`);
    await until(() => harness.botComments(1).length >= 1, `the real comment's answer (seed ${SEED})`);
  }, 90_000);
});

/**
 * "Why didn't it start?" on the status page: the App's recent deliveries with what came of each
 * (started, resumed, ignored or refused, and the decision code), read over real HTTP after real
 * signed deliveries. The list is bounded, and shows nothing a comment or issue said.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DECISION_CODES } from "../../../src/core/decision-codes.js";
import { RECENT_DELIVERIES_LIMIT } from "../../../src/app/ops/recent-deliveries.js";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const TOKEN = "let-me-see-0123456789abcdef0123456789";
const CANARY = "CANARY-7f3a9c";
const ISSUE = { number: 1, title: `Flaky date test ${CANARY}-title`, body: `\`dates.test.ts\` fails. ${CANARY}-body` };

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

interface Row {
  delivery: string;
  event: string;
  thread: string;
  outcome: string;
  code: string;
}

/** The page, and the rows of its recent-deliveries table (newest first). */
async function readStatus(): Promise<{ html: string; rows: Row[] }> {
  const response = await fetch(`${harness.app.url}/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  const html = await response.text();
  const section = /<h2>Recent deliveries to [\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
  const cell = (row: string, label: string) =>
    (new RegExp(`<td data-label="${label}">([\\s\\S]*?)</td>`).exec(row)?.[1] ?? "").replace(/<[^>]+>/g, "").trim();
  const rows = [...section.matchAll(/<tr><td[\s\S]*?<\/tr>/g)].map(([row]) => ({
    delivery: cell(row, "Delivery"),
    event: cell(row, "Event"),
    thread: cell(row, "Thread"),
    outcome: cell(row, "Outcome"),
    code: cell(row, "Code").split(" ")[0]!,
  }));
  return { html, rows };
}

describe("the status page's recent deliveries", () => {
  it("lists each delivery with its outcome and code: started, resumed, ignored, refused, duplicate, dropped at the intake", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN: TOKEN } });
    const started = await harness.deliver("issue_comment", harness.humanComment(ISSUE, `/agent fix it ${CANARY}-trigger`).payload);
    await harness.idle();
    const resumed = await harness.deliver("issue_comment", harness.humanComment(ISSUE, `/agent and the other one ${CANARY}-again`).payload);
    await harness.idle();
    const chat = await harness.deliver("issue_comment", harness.humanComment(ISSUE, `just chatting ${CANARY}-chat`).payload);
    const refused = await harness.deliver("issue_comment", harness.humanComment(ISSUE, `/agent let me ${CANARY}-reader`, "reader").payload);
    const bot = await harness.deliver("issue_comment", harness.humanComment(ISSUE, `/agent loop ${CANARY}-bot`, "renovate[bot]").payload);
    const payload = harness.humanComment({ ...ISSUE, number: 2 }, `plain words ${CANARY}-twice`).payload;
    const first = await harness.deliver("issue_comment", payload, "redelivered-once");
    const again = await harness.deliver("issue_comment", payload, "redelivered-once");
    expect([started, resumed, chat, refused, bot, first, again].map((d) => d.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    await harness.idle();

    const { html, rows } = await readStatus();
    const byId = new Map(rows.map((row) => [row.delivery, row]));
    expect(byId.get(started.deliveryId)).toEqual({
      delivery: started.deliveryId,
      event: "issue_comment.created",
      thread: "octo-org/widgets#1",
      outcome: "started",
      code: "—",
    });
    expect(byId.get(resumed.deliveryId)).toMatchObject({ outcome: "resumed", code: "—" });
    expect(byId.get(chat.deliveryId)).toMatchObject({ outcome: "ignored", code: "no_trigger" });
    expect(byId.get(refused.deliveryId)).toMatchObject({ outcome: "refused", code: "permission" });
    // Dropped before it was stored: no configuration could make a bot's comment a trigger.
    expect(byId.get(bot.deliveryId)).toMatchObject({ outcome: "ignored", code: "bot_sender" });
    // A redelivery of a listed id leaves its row alone: what came of the first is the answer.
    expect(byId.get("redelivered-once")).toMatchObject({ thread: "octo-org/widgets#2", outcome: "ignored", code: "no_trigger" });
    expect(rows).toHaveLength(6);
    // Newest decision first: the first two were decided before the rest were sent (the others' workers may decide in any order).
    expect(rows.slice(-2).map((row) => row.delivery)).toEqual([resumed.deliveryId, started.deliveryId]);
    // Each code with its meaning, from the one table the docs are generated from.
    expect(html).toContain(`<code>no_trigger</code> <span class="meta">${DECISION_CODES.no_trigger.means}</span>`);
    // Nothing a comment or the issue said: not its text, not its title.
    expect(html).not.toContain(CANARY);
  });

  it(`keeps the last ${RECENT_DELIVERIES_LIMIT} deliveries, newest first`, async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN: TOKEN } });
    const ids: string[] = [];
    // Bots' comments are answered at the intake: many deliveries cost the test little.
    for (let i = 0; i < RECENT_DELIVERIES_LIMIT + 7; i++) {
      const delivery = await harness.deliver(
        "issue_comment",
        harness.humanComment(ISSUE, `/agent ${i}`, "renovate[bot]").payload,
        `d-${i}`,
      );
      ids.push(delivery.deliveryId);
    }
    const { rows } = await readStatus();
    expect(rows.map((row) => row.delivery)).toEqual(ids.slice(-RECENT_DELIVERIES_LIMIT).reverse());
    expect(new Set(rows.map((row) => `${row.outcome} ${row.code}`))).toEqual(new Set(["ignored bot_sender"]));
  });
});

/**
 * A broken configuration is told only to someone who may trigger runs: `agent-run app` as a child
 * process (JSON logs on stdout), a reader's `/agent` on a repository whose file is invalid. Nothing
 * is posted; one log line says why.
 */
import { afterEach, describe, expect, it } from "vitest";
import { baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { startAppChildWorld } from "../../helpers/app-child-world.js";
import { jsonLogLines } from "../../helpers/app-process.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("a broken agent-run.yml and someone who may not trigger runs", () => {
  it("posts nothing, and logs one line saying why", async () => {
    const seed = baseSeed();
    seed.files = [{ path: ".github/agent-run.yml", content: "follow_up: later\n" }];
    const { github, app } = await startAppChildWorld({ seed, cleanups });

    const payload = seedHumanComment(github, { number: 1, title: "Flaky date test" }, "/agent fix it", "reader").payload;
    expect(await postWebhook(app.webhookUrl, "issue_comment", payload, "delivery-outsider")).toBe(200);

    const why = () => jsonLogLines(app.stdout()).filter((line) => String(line.msg).includes("may not trigger runs, so nothing is said"));
    await until(() => why().length > 0, "the log line saying why nothing was said");
    await app.stop();

    expect(why()).toHaveLength(1);
    expect(why()[0]!.why).toMatch(/@reader has the read role/);
    expect(github.writes).toEqual([]);
  });
});

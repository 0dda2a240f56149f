/**
 * The App's logs go through the same redaction as its comments: `agent-run app` as a child process
 * (JSON logs on stdout), a repository configuration whose unknown keys hold a GitHub token and an
 * operator's secret (a configuration error names keys, never values). The configuration error is
 * both logged and replied; neither shows them. And a delivery whose handler throws is logged
 * without its payload: Probot hands the error to the log with the whole event attached.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { BOT_LOGIN, baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { startAppChildWorld } from "../../helpers/app-child-world.js";
import { startPrivateRedis } from "../../helpers/app-process.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";

const TOKEN = "ghp_R2d2C3poBb8Ee1Ll0Uu5Kk9Yy7Ww3Xx6Zz4Qq";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("agent-run app's logs", () => {
  it("redact what its comments redact: a token and an operator pattern echoed by a configuration error", async () => {
    const seed = baseSeed();
    seed.files = [{ path: ".github/agent-run.yml", content: `check_suite:\n  ${TOKEN}: 3\n  codename-BLUEBIRD-7: true\n` }];
    const { github, emulator, app } = await startAppChildWorld({ seed, env: { REDACT_PATTERNS: "BLUEBIRD-[0-9]+" }, cleanups });

    const payload = seedHumanComment(github, { number: 1, title: "Flaky date test" }, "/agent fix it").payload;
    expect(await postWebhook(app.webhookUrl, "issue_comment", payload, "delivery-redact")).toBe(200);

    const bot = () => github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === BOT_LOGIN);
    await until(() => bot().length === 1, "the configuration error reply");
    await until(() => app.stdout().includes("agent-run.yml is invalid"), "the configuration error in the log");
    await app.stop();

    const reply = bot()[0]!.body;
    const logs = app.stdout() + app.stderr();
    for (const written of [reply, logs]) {
      expect(written).toContain("[redacted GitHub token]");
      expect(written).toContain("codename-[redacted by an operator pattern]");
      expect(written).not.toContain(TOKEN);
      expect(written).not.toContain("BLUEBIRD-7");
      expect(written).not.toContain(emulator.token);
    }
    // The log stays one JSON object per line.
    for (const line of app.stdout().trim().split("\n")) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it("leave a delivery's payload out when its handler throws: the error's message, status and delivery id, never what users wrote", async () => {
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.close());
    const { github, app } = await startAppChildWorld({ seed: baseSeed(), env: { REDIS_URL: redis.url }, cleanups });
    const canary = `canary-${randomUUID()}`;
    const payload = seedHumanComment(github, { number: 1, title: "Flaky date test" }, `/agent fix it ${canary}`).payload;

    // The store is gone: the handler cannot store the delivery and throws (answered 503, to be redelivered).
    await redis.kill();
    expect(await postWebhook(app.webhookUrl, "issue_comment", payload, "delivery-canary")).toBe(503);
    await until(() => app.stdout().includes("the delivery could not be stored"), "the handler's error in the log");
    await app.stop();

    // Not `not.toContain`: a failure would print every line, payloads and all.
    expect((app.stdout() + app.stderr()).includes(canary)).toBe(false);
    const failure = app
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg?: string; err?: Record<string, unknown>; id?: string })
      .find((line) => line.err && JSON.stringify(line.err).includes("the delivery could not be stored"))!;
    expect(failure.err).toMatchObject({ name: "DeliveryNotStoredError", status: 503, delivery: "delivery-canary", event: "issue_comment" });
    expect(failure.err!.stack).toContain("DeliveryNotStoredError: the delivery could not be stored");
    expect(JSON.stringify(failure).includes('"payload"')).toBe(false);
  });
});

/**
 * The App's logs go through the same redaction as its comments: `agent-run app` as a child process
 * (JSON logs on stdout), a repository configuration whose unknown keys hold a GitHub token and an
 * operator's secret (a configuration error names keys, never values). The configuration error is
 * both logged and replied; neither shows them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BOT_LOGIN, baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { startAppChildWorld } from "../../helpers/app-child-world.js";
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
});

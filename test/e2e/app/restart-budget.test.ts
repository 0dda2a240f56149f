/**
 * The embedded App's service budget outlives the process: its takes are in the SQLite file under
 * DATA_DIR. The first process spends the whole creation window (10 creates), is killed with
 * SIGKILL, and a second process on the same DATA_DIR receives a burst of five more triggers at once:
 * it waits for the window instead of sending an 11th create into it, so the emulator (whose limits
 * are real, on its time scale) answers no 429, and every trigger still gets its run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import { RATE_LIMITS } from "../../../src/service/wire.js";
import { baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { childAppEnv } from "../../helpers/app-child-world.js";
import { startAppChild, type AppChild } from "../../helpers/app-process.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";

/** The creation window is 12 s here: longer than a restart takes on a loaded machine, so the predecessor's creates still count. */
const TIME_SCALE = 0.2;
const FIRST = RATE_LIMITS.create.points;
const AFTER_RESTART = 5;

const children: AppChild[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the embedded App's rate budget across an unclean restart", () => {
  it("a burst right after kill -9 waits for the window its predecessor filled: 0 × 429", async () => {
    const issues = Array.from({ length: FIRST + AFTER_RESTART }, (_, i) => i + 1);
    const seed = baseSeed();
    seed.issues = issues.map((number) => ({ number, title: `Task ${number}`, body: "Something to do.", user: "maintainer" }));
    seed.pulls = [];
    const github = await startFakeGitHub({ seed });
    const emulator = await startEmulator({ timeScale: TIME_SCALE });
    const dataDir = mkdtempSync(join(tmpdir(), "arb-app-budget-"));
    cleanups.push(
      () => github.close(),
      () => emulator.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
    );
    emulator.control.script({ match: "quick task", durationMs: 5_000, summary: "Done." });
    const env = childAppEnv({ url: emulator.url, token: emulator.token, orgId: emulator.orgId }, dataDir, github.url, {
      AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
      LOG_LEVEL: "warn",
    });
    const trigger = (webhookUrl: string, issue: number) => {
      const { payload } = seedHumanComment(github, { number: issue, title: `Task ${issue}` }, `/agent do the quick task ${issue}`);
      return postWebhook(webhookUrl, "issue_comment", payload, `delivery-budget-${issue}`);
    };

    const first = await startAppChild(env, "the first process");
    children.push(first);
    for (const issue of issues.slice(0, FIRST)) expect(await trigger(first.webhookUrl, issue)).toBe(200);
    await until(() => emulator.control.stats().runsCreated === FIRST, "the first process's creates", 30_000);
    await first.kill();
    const killedAt = Date.now();

    const second = await startAppChild(env, "the second process");
    children.push(second);
    // The predecessor's creates must still fill the service's window, or this proves nothing.
    const windowMs = RATE_LIMITS.create.durationSeconds * 1000 * TIME_SCALE;
    expect(Date.now() - killedAt).toBeLessThan(windowMs / 2);
    await Promise.all(issues.slice(FIRST).map(async (issue) => expect(await trigger(second.webhookUrl, issue)).toBe(200)));
    await until(() => emulator.control.stats().runsCreated === FIRST + AFTER_RESTART, "the creates after the restart", 3 * windowMs);

    expect(emulator.control.stats().rateLimited).toBe(0);
    expect(second.stderr()).not.toContain(emulator.token);
  }, 90_000);
});

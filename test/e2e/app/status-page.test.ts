/**
 * The status page in a real browser: headless Chromium (from `npm ci`, or CHROMIUM_PATH; helpers/browser.ts)
 * driven by playwright-core signs in through the page's form (the token is never in a URL) and loads
 * `/status` from a running App with a run in flight and the delivery that started it, on a phone-sized screen and without JavaScript,
 * and a screenshot is written under test-results/.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startAppHarness, type AppHarness } from "../../helpers/app-harness.js";
import { launchChromium } from "../../helpers/browser.js";

const OUTPUT = join(process.cwd(), "test-results", "status-page");

let browser: Browser;
let harness: AppHarness | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(OUTPUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the status page in Chromium", () => {
  it("shows the run in flight on a phone-sized screen, with JavaScript off", async () => {
    harness = await startAppHarness({ env: { STATUS_TOKEN: "browser-token-0123456789abcdef012345" } });
    harness.emulator.control.script({ match: "slow", durationMs: 600_000 });
    const { deliveryId } = await harness.deliver(
      "issue_comment",
      harness.humanComment({ number: 1, title: "Flaky date test", body: "" }, "/agent a slow task").payload,
    );
    const deadline = Date.now() + 10_000;
    while ((await harness.app.store.listTasks(["watching"])).length === 0) {
      if (Date.now() > deadline) throw new Error("the run was never watched");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [task] = await harness.app.store.listTasks(["watching"]);

    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    // The pages' content-security policy allows their own stylesheets: the browser reports any it refused.
    const refused: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) refused.push(message.text());
    });
    const signInPage = await page.goto(`${harness.app.url}/status`);
    expect(signInPage?.status()).toBe(401);
    await page.getByLabel("Status token (STATUS_TOKEN)").fill("browser-token-0123456789abcdef012345");
    const statusPage = page.waitForResponse((r) => r.url() === `${harness!.app.url}/status` && r.request().method() === "GET");
    // The page after the sign-in's redirect: its response comes before its document is loaded, so wait for that too.
    const loaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect((await statusPage).status()).toBe(200);
    await loaded;
    expect(page.url()).toBe(`${harness.app.url}/status`);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: "agent_run_status", httpOnly: true, sameSite: "Strict", path: "/" });
    expect(cookie!.value).not.toContain("browser-token-0123456789abcdef012345");
    await expect(page.title()).resolves.toBe("agent-run-bridge status");

    const runLink = page.getByRole("link", { name: `#${task!.runId}`, exact: true });
    await expect(runLink.getAttribute("href")).resolves.toBe(task!.webUrl);
    const row = page.locator("tr", { has: runLink });
    await expect(row.locator('td[data-label="Thread"]').innerText()).resolves.toBe("octo-org/widgets#1");
    await expect(row.locator('td[data-label="State"]').innerText()).resolves.toMatch(/^watching/);
    // The delivery that started it, among the recent deliveries, with its outcome.
    const delivery = page.locator("tr", { has: page.locator('td[data-label="Delivery"]', { hasText: deliveryId }) });
    await expect(delivery.locator('td[data-label="Outcome"]').innerText()).resolves.toBe("started");
    await expect(delivery.locator('td[data-label="Event"]').innerText()).resolves.toBe("issue_comment.created");
    // Narrow screens stack each row's cells with their labels (the stylesheet applied); nothing scrolls sideways.
    await expect(page.locator("thead").first().isVisible()).resolves.toBe(false);
    const width = await page.evaluate("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUTPUT, "status-phone.png"), fullPage: true });
    expect(refused).toEqual([]);
    await context.close();
  });
});

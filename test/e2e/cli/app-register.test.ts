/**
 * `agent-run app register` as a person runs it: the command serves its page on loopback, headless
 * Chromium (helpers/browser.ts) presses its button, the fake GitHub's manifest page (an Enterprise
 * Server's layout, at its own host) asks to confirm and redirects back with the code, and the command
 * exchanges it over HTTP. Then `agent-run app --dotenv` starts with the file it wrote, against the
 * same fake, which accepts only JWTs signed with the registered App's own key.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import type { Browser, Page } from "playwright-core";
import { parse as parseYaml } from "yaml";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/main.js";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { until } from "../../helpers/app-harness.js";
import { launchChromium } from "../../helpers/browser.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { FAKE_SIGNED_IN_USER, MANIFEST_CODE_TTL_MS } from "../../helpers/fake-github/routes/app-manifests.js";
import { memoryIo, startTestEmulator } from "./helpers.js";

const WEBHOOK_URL = "https://bridge.example.com/api/github/webhooks";
const APP_YML = parseYaml(readFileSync(join(process.cwd(), "app.yml"), "utf8")) as {
  default_events: string[];
  default_permissions: object;
};

let browser: Browser;
let github: FakeGitHub;
let dir: string;
let clock = Date.now();

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await github?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setUp(): Promise<void> {
  clock = Date.now();
  github = await startFakeGitHub({ enterprise: true, now: () => new Date(clock) });
  dir = mkdtempSync(join(tmpdir(), "app-register-"));
}

/** Starts the command in-process; resolves once it has said where its page is. */
async function startRegister(args: string[]) {
  const memory = memoryIo({ cwd: dir });
  const done = runCli(["app", "register", "--webhook-url", WEBHOOK_URL, "--github-url", github.webUrl, ...args], memory.io);
  const deadline = Date.now() + 10_000;
  let pageUrl: string | undefined;
  while (!(pageUrl = /open (http:\/\/127\.0\.0\.1:\d+\/) /.exec(memory.stderr())?.[1])) {
    const early = await Promise.race([done, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 20))]);
    if (early !== undefined) throw new Error(`register exited ${early} before serving its page:\n${memory.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no page after 10 s:\n${memory.stderr()}`);
  }
  return { memory, done, pageUrl };
}

/**
 * What a person does: open the page, press its button, confirm on GitHub; resolves with the page the browser
 * ends on. `beforeRedirect` runs once GitHub has created the App, before the browser follows its redirect back.
 */
async function registerInBrowser(pageUrl: string, beforeRedirect?: () => Promise<void>): Promise<Page> {
  const page = await browser.newPage();
  if (beforeRedirect) {
    await page.route(
      (url) => url.pathname.endsWith("/manifest-confirm"),
      async (route) => {
        const response = await route.fetch({ maxRedirects: 0 });
        await beforeRedirect();
        await route.fulfill({ response });
      },
    );
  }
  await page.goto(pageUrl);
  await page.getByRole("button", { name: "Create the App on GitHub" }).click();
  await page.getByRole("button", { name: /^Create GitHub App for / }).click();
  await page.waitForURL(/\/callback\?/);
  return page;
}

const secretsOf = (registration: FakeGitHub["state"]["manifestApps"][number]) => [
  registration.webhookSecret,
  registration.clientSecret,
  Buffer.from(registration.pem).toString("base64"),
  ...registration.pem.split("\n").filter((line) => line.length > 20 && !line.startsWith("-----")),
];

describe("agent-run app register", () => {
  it("registers an App for the signed-in account on an Enterprise Server: a 0600 .env the App starts with, no secret printed", async () => {
    await setUp();
    // The operator filled in the service first (0644, as an editor leaves it): those lines stay.
    const emulator: RunningEmulator = await startTestEmulator();
    const envPath = join(dir, ".env");
    writeFileSync(
      envPath,
      `# the service\nAGENT_RUN_API_URL=${emulator.url}\nAGENT_RUN_API_TOKEN=${emulator.token}\nAGENT_RUN_ORG_ID=${emulator.orgId}\nAPP_ID=\n`,
      { mode: 0o644 },
    );
    try {
      const { memory, done, pageUrl } = await startRegister(["--name", "Bridge Of Tests"]);
      const page = await registerInBrowser(pageUrl);
      expect(await page.getByRole("heading").textContent()).toBe("The App is registered");
      expect(await done).toBe(0);

      const [registration] = github.state.manifestApps;
      expect(registration!.registeredFor).toBe("user");
      const [posted] = github.callsTo("POST", "/settings/apps/new");
      expect(posted!.servedAs).toBe("web");
      expect(posted!.query.state).toMatch(/^[0-9a-f]{40}$/);
      expect(registration!.manifest).toMatchObject({
        name: "Bridge Of Tests",
        hook_attributes: { url: WEBHOOK_URL, active: true },
        public: false,
        default_events: APP_YML.default_events,
        default_permissions: APP_YML.default_permissions,
      });
      expect(String(registration!.manifest.redirect_url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const [conversion] = github.callsTo("POST", "/app-manifests/{code}/conversions");
      expect(conversion).toMatchObject({ status: 201, auth: "none", servedAs: "api", sentPath: expect.stringMatching(/^\/api\/v3\//) });

      expect(statSync(envPath).mode & 0o777).toBe(0o600);
      const text = readFileSync(envPath, "utf8");
      expect(text.startsWith(`# the service\nAGENT_RUN_API_URL=${emulator.url}\n`)).toBe(true);
      const env = parseEnv(text);
      expect(env).toMatchObject({
        APP_ID: String(registration!.app.id),
        WEBHOOK_SECRET: registration!.webhookSecret,
        GHE_HOST: new URL(github.webUrl).host,
        GHE_PROTOCOL: "http",
        ALLOWED_OWNERS: FAKE_SIGNED_IN_USER,
        AGENT_RUN_ORG_ID: String(emulator.orgId),
      });
      expect(Buffer.from(env.PRIVATE_KEY!, "base64").toString("utf8")).toBe(registration!.pem);
      expect(text.match(/^APP_ID=/gm)).toHaveLength(1);

      const printed = memory.stdout() + memory.stderr();
      for (const secret of secretsOf(registration!)) expect(printed).not.toContain(secret);
      expect(memory.stdout()).toContain(`Install it on repositories: ${github.webUrl}/apps/bridge-of-tests/installations/new`);
      expect(memory.stdout()).toContain("npx -p agent-run-bridge -p probot -p better-sqlite3 agent-run app --dotenv .env");

      // The App starts from that file alone (the environment adds only where to listen and keep state).
      const app = memoryIo({ cwd: dir, env: { PORT: "0", HOST: "127.0.0.1", DATA_DIR: join(dir, "data"), LOG_LEVEL: "fatal" } });
      const running = runCli(["app", "--dotenv", ".env"], app.io);
      await until(() => app.stderr().includes("listening on"), "the App to listen").catch((error: Error) => {
        throw new Error(`${error.message}:\n${app.stderr()}`);
      });
      expect(app.stderr()).toContain("GitHub App bridge-of-tests listening on");
      expect(github.callsTo("GET", "/app").map((call) => call.status)).toEqual([200]);
      app.signal("SIGTERM");
      expect(await running).toBe(0);
      for (const secret of secretsOf(registration!)) expect(app.stdout() + app.stderr()).not.toContain(secret);
    } finally {
      await emulator.close();
    }
  });

  it("registers for an organization with --org on that organization's page; a public App leaves ALLOWED_OWNERS unset", async () => {
    await setUp();
    const { memory, done, pageUrl } = await startRegister(["--org", "octo-org", "--public", "--out", "bridge.env"]);
    await registerInBrowser(pageUrl);
    expect(await done).toBe(0);
    expect(github.callsTo("POST", "/settings/apps/new")).toEqual([]);
    expect(github.callsTo("POST", "/organizations/octo-org/settings/apps/new")).toHaveLength(1);
    const [registration] = github.state.manifestApps;
    expect(registration!).toMatchObject({ registeredFor: "organization", app: { owner: "octo-org" }, manifest: { public: true } });
    expect(existsSync(join(dir, ".env"))).toBe(false);
    const env = parseEnv(readFileSync(join(dir, "bridge.env"), "utf8"));
    expect(env.APP_ID).toBe(String(registration!.app.id));
    expect(env.ALLOWED_OWNERS).toBeUndefined();
    expect(memory.stdout()).toContain("for octo-org.");
  });

  it("refuses a redirect whose state is not its own, exchanges nothing, and still takes GitHub's", async () => {
    await setUp();
    const { memory, done, pageUrl } = await startRegister([]);
    const forged = await fetch(new URL("/callback?code=attackers-code&state=0123456789abcdef0123456789abcdef01234567", pageUrl));
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("Not this registration");
    const noCode = await fetch(new URL("/callback", pageUrl));
    expect(noCode.status).toBe(400);
    expect(github.callsTo("POST", "/app-manifests/{code}/conversions")).toEqual([]);
    expect(memory.stderr()).toContain("refused a redirect whose state is not this registration's; still waiting");
    expect(memory.stderr()).not.toContain("attackers-code");

    await registerInBrowser(pageUrl);
    expect(await done).toBe(0);
    expect(github.callsTo("POST", "/app-manifests/{code}/conversions")).toHaveLength(1);
  });

  it("says what to do when GitHub no longer knows the code (an hour passed), and writes nothing", async () => {
    await setUp();
    const { memory, done, pageUrl } = await startRegister([]);
    const page = await registerInBrowser(pageUrl, async () => {
      clock += MANIFEST_CODE_TTL_MS + 1_000;
    });
    expect(await page.getByRole("heading").textContent()).toBe("The registration did not finish");
    expect(await done).toBe(3);
    expect(memory.stderr()).toContain("GitHub no longer knows this registration's code: a code works once, within an hour");
    expect(github.callsTo("POST", "/app-manifests/{code}/conversions").map((call) => call.status)).toEqual([404]);
    expect(existsSync(join(dir, ".env"))).toBe(false);
  });

  it("says the same of a code already used (by someone else who saw it first)", async () => {
    await setUp();
    const { memory, done, pageUrl } = await startRegister([]);
    await registerInBrowser(pageUrl, async () => {
      const { code } = github.state.manifestApps.at(-1)!;
      expect((await fetch(`${github.url}/app-manifests/${code}/conversions`, { method: "POST" })).status).toBe(201);
    });
    expect(await done).toBe(3);
    expect(memory.stderr()).toContain("GitHub no longer knows this registration's code");
    expect(existsSync(join(dir, ".env"))).toBe(false);
  });

  it("refuses bad flags with a sentence and exit 2 before asking GitHub anything; app --dotenv names a file it cannot read", async () => {
    await setUp();
    const attempt = async (args: string[]) => {
      const memory = memoryIo({ cwd: dir });
      const code = await runCli(["app", "register", "--github-url", github.webUrl, ...args], memory.io);
      return { code, stderr: memory.stderr() };
    };
    expect(await attempt(["--webhook-url", "bridge.example.com/hooks"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--webhook-url "bridge.example.com/hooks" is not a URL'),
    });
    expect(await attempt(["--webhook-url", WEBHOOK_URL, "--org", "-acme"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("is not an organization's login"),
    });
    expect(await attempt(["--webhook-url", WEBHOOK_URL, "--host", "0.0.0.0"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("no address a browser can be sent back to"),
    });
    expect(await attempt(["--webhook-url", WEBHOOK_URL, "--name", "x".repeat(40)])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("longer than GitHub's 34 characters"),
    });
    expect(github.requests).toEqual([]);
    expect(existsSync(join(dir, ".env"))).toBe(false);

    const app = memoryIo({ cwd: dir });
    expect(await runCli(["app", "--dotenv", "missing.env"], app.io)).toBe(2);
    expect(app.stderr()).toContain("cannot read --dotenv missing.env: ENOENT");
  });

  it("leaves an env file that already holds an App's credentials alone unless --force, before asking GitHub anything", async () => {
    await setUp();
    const envPath = join(dir, ".env");
    writeFileSync(envPath, "APP_ID=77\nWEBHOOK_SECRET=old\nLOG_LEVEL=debug\n");
    const memory = memoryIo({ cwd: dir });
    const code = await runCli(["app", "register", "--webhook-url", WEBHOOK_URL, "--github-url", github.webUrl], memory.io);
    expect(code).toBe(2);
    expect(memory.stderr()).toContain(".env already holds an App's credentials (APP_ID, WEBHOOK_SECRET): pass --force");
    expect(github.requests).toEqual([]);

    const { done, pageUrl } = await startRegister(["--force"]);
    await registerInBrowser(pageUrl);
    expect(await done).toBe(0);
    const text = readFileSync(envPath, "utf8");
    expect(parseEnv(text)).toMatchObject({ APP_ID: String(github.state.app.id), LOG_LEVEL: "debug" });
    expect(text.match(/^(APP_ID|WEBHOOK_SECRET)=/gm)).toHaveLength(2);
  });
});

/**
 * The App as a real child process (`agent-run app`, from source), the way `npm start` runs it:
 * configured only by the environment, GitHub reached through GHE_HOST (the fake serves /api/v3),
 * the emulator as the service. A watch survives SIGKILL: a new process on the same DATA_DIR posts
 * the result exactly once; a create cut off by SIGKILL before its answer was stored is found in the
 * service's runs list and adopted (or, without that list, reported honestly), never sent twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseMarker } from "../../../src/core/markers/read.js";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { FULL_NAME } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, SCALE, appEnv, baseSeed, postWebhook, until } from "../../helpers/app-harness.js";
import { issueCommentPayload } from "../../helpers/app-payloads.js";
import { API_PATHS } from "../../../src/service/wire.js";
import { spawnAppProcess, startAppChild, startHttpProxy, type AppChild } from "../../helpers/app-process.js";

const children: AppChild[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fake GitHub, the emulator and a data directory, removed after the test; `envFor` is the App's environment with the service at a URL. */
async function startWorld(emulatorOptions: { listRuns?: boolean } = {}) {
  const github: FakeGitHub = await startFakeGitHub({ seed: baseSeed() });
  const emulator: RunningEmulator = await startEmulator({ timeScale: SCALE, endpoints: { listRuns: emulatorOptions.listRuns ?? true } });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-app-e2e-"));
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const envFor = (serviceUrl: string) =>
    appEnv({ url: serviceUrl, token: emulator.token, orgId: emulator.orgId }, dataDir, {
      GHE_HOST: new URL(github.url).host,
      GHE_PROTOCOL: "http",
      LOG_LEVEL: "warn",
    });
  return { github, emulator, envFor };
}

describe("agent-run app as a child process", () => {
  it("lists every missing setting in one message and exits 2", async () => {
    const child = spawnAppProcess({ PORT: "not-a-port" });
    const { code } = await child.exited;
    expect(code).toBe(2);
    const message = child.stderr();
    for (const name of [
      "APP_ID",
      "PRIVATE_KEY or PRIVATE_KEY_PATH",
      "WEBHOOK_SECRET",
      "AGENT_RUN_API_URL",
      "AGENT_RUN_API_TOKEN",
      "AGENT_RUN_ORG_ID",
    ]) {
      expect(message).toContain(name);
    }
    expect(message).toContain('PORT (must be a port number from 0 to 65535, got "not-a-port")');
    expect(message.trim().split("\n")).toHaveLength(1);
  });

  it("will not guard the operators' views with a guessable token: exits 2 and says how to make one, without quoting it", async () => {
    const { emulator, envFor } = await startWorld();
    const child = spawnAppProcess({ ...envFor(emulator.url), STATUS_TOKEN: "letmein", METRICS_TOKEN: "m".repeat(40) });
    // Were it to start after all, it must not outlive the test.
    cleanups.push(() => void child.child.kill("SIGKILL"));
    const { code } = await child.exited;
    expect(code).toBe(2);
    const message = child.stderr();
    expect(message).toContain("invalid METRICS_TOKEN (uses one kind of character only;");
    expect(message).toContain("STATUS_TOKEN (is 7 characters long; it must have at least 32: make one with `openssl rand -hex 32`");
    expect(message).not.toContain("letmein");
    expect(message).not.toContain("m".repeat(40));
  });

  it("will not send its token to a service over plain http:// off loopback, and says which variable to fix", async () => {
    const { envFor } = await startWorld();
    const child = spawnAppProcess(envFor("http://agents.example.com"));
    const { code } = await child.exited;
    expect(code).toBe(2);
    expect(child.stderr()).toContain(
      'invalid AGENT_RUN_API_URL (must be an https:// URL such as https://agents.example.com (plain http:// only on loopback: 127.0.0.1, ::1 or localhost), without credentials in it, got "http://agents.example.com")',
    );
  });

  it("survives SIGKILL in the middle of a watch: the next process posts the result exactly once", async () => {
    const { github, emulator, envFor } = await startWorld();
    // 3 s of real time: long enough to kill the first process while it watches.
    emulator.control.script({ match: "long job", durationMs: 1_500_000, summary: "Did the long job." });
    const env = envFor(emulator.url);

    const first = await startAppChild(env, "the first process");
    children.push(first);
    const webhookUrl = first.webhookUrl;
    github.seed({ issueComments: [{ issue_number: 1, body: "/agent do the long job", user: "maintainer" }] });
    const trigger = github.state.issueComments.at(-1)!;
    const payload = issueCommentPayload({
      thread: { number: 1, title: "Flaky date test" },
      comment: { id: trigger.id, body: trigger.body, login: "maintainer" },
    });
    expect(await postWebhook(webhookUrl, "issue_comment", payload, "delivery-restart")).toBe(200);

    // Watching: the run exists and the tracking comment names it.
    const bot = () => github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === BOT_LOGIN);
    await until(() => bot().length === 1 && parseMarker(bot()[0]!.body)?.runId != null, "the tracking comment to name the run");
    expect(parseMarker(bot()[0]!.body)).toMatchObject({ state: "running" });
    await first.kill();
    expect((await first.exited).signal).toBe("SIGKILL");
    const run = emulator.control.runs()[0]!;
    expect(run.status).not.toBe("completed");

    const second = await startAppChild(env, "the second process");
    children.push(second);
    await until(() => parseMarker(bot()[0]?.body)?.state === "done", "the result");
    // Give a duplicate every chance to appear before judging.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await second.stop()).toEqual({ code: 0, signal: null });

    expect(bot()).toHaveLength(1);
    expect(parseMarker(bot()[0]!.body)).toMatchObject({ runId: run.id, state: "done", outcome: "succeeded" });
    expect(bot()[0]!.body).toContain("Did the long job.");
    expect(emulator.control.stats().runsCreated).toBe(1);
    expect(github.writes.filter((w) => w.kind === "comment_created")).toHaveLength(1);
    const reactions = github.state.reactions.map((r) => `${r.content} ${r.target.id}`);
    expect(reactions).toEqual([`eyes ${trigger.id}`, `rocket ${trigger.id}`]);
    // The new process's log says it stopped cleanly, and neither ever printed the token.
    expect(second.stderr()).toContain("app stopped (SIGTERM).");
    expect(first.stderr() + second.stderr()).not.toContain(emulator.token);
  });

  describe.each([
    { listRuns: true, ending: "adopted from the runs list: watched, its result posted once" },
    { listRuns: false, ending: "reported honestly when the service has no runs list, and never sent again" },
  ])("SIGKILL between sending a create and storing its answer", ({ listRuns, ending }) => {
    it(ending, async () => {
      const { github, emulator, envFor } = await startWorld({ listRuns });
      emulator.control.script({ match: "cut off", durationMs: 200_000, summary: "Did the job that was cut off." });
      // The service is reached through a proxy that lets the first create through but withholds its answer.
      let withheld = 0;
      const createPath = API_PATHS.createRun(emulator.orgId);
      const service = await startHttpProxy([emulator.url], {
        withholdAnswer: ({ method, path }) => method === "POST" && path === createPath && ++withheld === 1,
      });
      cleanups.push(() => service.close());
      const env = envFor(service.url);

      const first = await startAppChild(env, "the first process");
      children.push(first);
      github.seed({ issueComments: [{ issue_number: 1, body: "/agent do the job that was cut off", user: "maintainer" }] });
      const trigger = github.state.issueComments.at(-1)!;
      const payload = issueCommentPayload({
        thread: { number: 1, title: "Flaky date test" },
        comment: { id: trigger.id, body: trigger.body, login: "maintainer" },
      });
      expect(await postWebhook(first.webhookUrl, "issue_comment", payload, "delivery-cut-off")).toBe(200);

      // The run exists at the service, the App never heard its id: kill it there.
      await until(() => emulator.control.runs().length === 1, "the create to reach the service");
      await first.kill();
      expect((await first.exited).signal).toBe("SIGKILL");
      const run = emulator.control.runs()[0]!;
      expect(run.metadata).toMatchObject({ delivery_id: "delivery-cut-off", bridge_task_id: expect.any(String) });

      const second = await startAppChild(env, "the second process");
      children.push(second);
      const bot = () => github.commentsOn(FULL_NAME, 1).filter((c) => c.user.login === BOT_LOGIN);
      const final = () =>
        listRuns ? parseMarker(bot()[0]?.body)?.state === "done" : (bot()[0]?.body ?? "").includes("The agent run may have started");
      await until(final, "the tracking comment's final state");
      // Give a duplicate create or comment every chance to appear before judging.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await second.stop()).toEqual({ code: 0, signal: null });

      expect(emulator.control.stats().runsCreated).toBe(1);
      expect(bot()).toHaveLength(1);
      if (listRuns) {
        expect(parseMarker(bot()[0]!.body)).toMatchObject({ runId: run.id, state: "done", outcome: "succeeded" });
        expect(bot()[0]!.body).toContain("Did the job that was cut off.");
      } else {
        expect(bot()[0]!.body).toContain("**The agent run may have started.**");
        expect(bot()[0]!.body).not.toContain("could not run");
        expect(bot()[0]!.body).toContain("the service does not list runs");
      }
      expect(first.stderr() + second.stderr()).not.toContain(emulator.token);
    });
  });
});

/**
 * ALLOWED_OWNERS on a real `agent-run app` process: a signed delivery from an installation of an
 * account not on the list is answered 2xx, creates nothing at the service, stores nothing, and is
 * logged once per installation (not once per delivery); the listed owner, written in another case,
 * gets its run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { BOT_LOGIN, baseSeed, postWebhook, seedHumanComment, until } from "../../helpers/app-harness.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { childAppEnv } from "../../helpers/app-child-world.js";
import { jsonLogLines, startAppChild, type AppChild } from "../../helpers/app-process.js";
import { startServiceRecorder, type ServiceRecorder } from "../../helpers/service-recorder.js";

const STRANGER_INSTALLATION = 777_001;

let github: FakeGitHub;
let emulator: RunningEmulator;
let service: ServiceRecorder;
let app: AppChild;
let dataDir: string;

beforeAll(async () => {
  github = await startFakeGitHub({ seed: baseSeed() });
  emulator = await startEmulator();
  service = await startServiceRecorder(emulator.url);
  dataDir = mkdtempSync(join(tmpdir(), "arb-owners-"));
  app = await startAppChild(
    childAppEnv({ url: service.url, token: emulator.token, orgId: emulator.orgId }, dataDir, github.url, {
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      ALLOWED_OWNERS: "someone-else, OCTO-ORG",
      METRICS: "true",
    }),
    "app",
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await service?.close();
  await emulator?.close();
  await github?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The seeded repository's payload, moved to another account's repository and installation (as GitHub would send it from there). */
function strangersComment(id: number): object {
  const payload = issueCommentPayload({
    thread: { number: 1, title: "Spend their budget" },
    comment: { id, body: "/agent mine bitcoin", login: "stranger" },
  }) as unknown as { repository: { owner: object; full_name: string }; installation: { id: number } };
  payload.repository.owner = { ...payload.repository.owner, login: "stranger-org" };
  payload.repository.full_name = "stranger-org/widgets";
  payload.installation = { ...payload.installation, id: STRANGER_INSTALLATION };
  return payload;
}

const refusalLines = () => jsonLogLines(app.stdout()).filter((line) => String(line.msg).includes("not in ALLOWED_OWNERS"));

describe("ALLOWED_OWNERS", () => {
  it("starts nothing for another account's installation, answers 200, and logs it once; the listed owner gets its run", async () => {
    expect(await postWebhook(app.webhookUrl, "issue_comment", strangersComment(9_001), "stranger-1")).toBe(200);
    expect(await postWebhook(app.webhookUrl, "issue_comment", strangersComment(9_002), "stranger-2")).toBe(200);

    // The listed owner's comment is taken (and its run created) after the strangers' deliveries were answered.
    const ours = seedHumanComment(github, { number: 1, title: "Flaky date test" }, "/agent fix the flaky test").payload;
    expect(await postWebhook(app.webhookUrl, "issue_comment", ours, "ours-1")).toBe(200);
    await until(() => github.commentsOn(FULL_NAME, 1).some((c) => c.user.login === BOT_LOGIN), "the listed owner's tracking comment");
    await until(() => service.creates().length === 1, "the listed owner's run");
    // Give a stranger's run every chance to be created before judging.
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(service.creates()).toHaveLength(1);
    expect(String(service.creates()[0]!.prompt)).toContain("fix the flaky test");
    // Nothing of the stranger's reached GitHub either: no token asked for its installation.
    expect(github.requests.some((r) => r.path.includes(String(STRANGER_INSTALLATION)))).toBe(false);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toContain('agent_run_bridge_webhooks_received_total{event="issue_comment",receipt="not_allowed"} 2');

    const lines = refusalLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ installation: STRANGER_INSTALLATION, owner: "stranger-org", delivery: "stranger-1" });
    expect(JSON.stringify(lines[0])).not.toContain("bitcoin");
  });
});

/**
 * Tracing is free when off: an App started without OTEL_* variables that receives a delivery, runs
 * it and writes its result loads no @opentelemetry module (every module the process loads is recorded
 * by test/helpers/record-loads.mjs). The same start with OTEL_TRACES_EXPORTER=otlp loads the SDK and
 * exports spans, so the probe does see them when they are there.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub } from "../../helpers/fake-github/index.js";
import { BOT_LOGIN, SCALE, baseSeed, postWebhook, until } from "../../helpers/app-harness.js";
import { childAppEnv } from "../../helpers/app-child-world.js";
import { FULL_NAME, issueCommentPayload } from "../../helpers/app-payloads.js";
import { jsonLogLines, startAppChild } from "../../helpers/app-process.js";
import { packageOf, RECORD_LOADS } from "../../helpers/module-loads.js";
import { startOtlpReceiver } from "../../helpers/otlp-receiver.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts the App with `env`, has it run one request to its result, stops it, and returns the packages it loaded and its output. */
async function oneRun(env: Record<string, string>): Promise<{ packages: string[]; output: string }> {
  const github = await startFakeGitHub({
    seed: { ...baseSeed(), issues: [{ number: 5, title: "Five", body: "Work.", user: "maintainer" }] },
  });
  const emulator = await startEmulator({ timeScale: SCALE });
  emulator.control.script({ match: "light", durationMs: 10_000, summary: "Done lightly." });
  const dir = mkdtempSync(join(tmpdir(), "arb-tracing-off-"));
  cleanups.push(
    () => github.close(),
    () => emulator.close(),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  const loads = join(dir, "loads.txt");
  const app = await startAppChild({ ...childAppEnv(emulator, join(dir, "data"), github.url, env), RECORD_LOADS_FILE: loads }, "the app", [
    "--import",
    RECORD_LOADS,
  ]);
  cleanups.push(() => app.kill());
  github.seed({ issueComments: [{ issue_number: 5, body: "/agent light work", user: "maintainer" }] });
  const stored = github.state.issueComments.at(-1)!;
  const payload = issueCommentPayload({
    thread: { number: 5, title: "Five" },
    comment: { id: stored.id, body: stored.body, login: "maintainer" },
  });
  expect(await postWebhook(app.webhookUrl, "issue_comment", payload, randomUUID())).toBe(200);
  const result = () => github.commentsOn(FULL_NAME, 5).some((c) => c.user.login === BOT_LOGIN && c.body.includes("Done lightly."));
  await until(result, "the run's result in the thread", 30_000);
  expect((await app.stop()).code).toBe(0);
  const modules = readFileSync(loads, "utf8").split("\n").filter(Boolean);
  return { packages: [...new Set(modules.flatMap((module) => packageOf(module) ?? []))].sort(), output: app.stdout() + app.stderr() };
}

describe("tracing off", () => {
  it("loads no OpenTelemetry package through a whole delivery, and the probe sees them once tracing is on", async () => {
    const { packages: off } = await oneRun({});
    expect(off).toContain("probot");
    expect(off.filter((name) => name.startsWith("@opentelemetry/"))).toEqual([]);

    const receiver = await startOtlpReceiver();
    cleanups.push(() => receiver.close());
    const { packages: on } = await oneRun({ OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(on).toEqual(
      expect.arrayContaining(["@opentelemetry/api", "@opentelemetry/sdk-trace-node", "@opentelemetry/exporter-trace-otlp-http"]),
    );
    // Flushed at shutdown.
    expect(receiver.spans.map((span) => span.name)).toContain("result report");
  }, 120_000);
});

describe("tracing on, with a receiver that refuses the spans", () => {
  it("goes on with the work and says so in the App's log", async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(() => receiver.close());
    const { output } = await oneRun({
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/not-traces`,
      LOG_LEVEL: "warn",
      LOG_FORMAT: "json",
    });
    expect(receiver.refused.length).toBeGreaterThan(0);
    expect(jsonLogLines(output).some((line) => line.msg?.startsWith("tracing: ") && line.level === 40)).toBe(true);
  }, 60_000);
});

/**
 * One delivery, one trace, across two `agent-run app` replicas on one Redis. Replica A receives and
 * stores the delivery, takes its job and is killed while it reads GitHub; replica B takes the stalled
 * job over and processes, decides, creates the run, watches it and writes the result. An OTLP/HTTP
 * receiver in the test process gets both replicas' spans: they share one trace id, and each span's
 * parent is the one the path says (B's first span continues A's `delivery store` through the
 * `traceparent` stored with the queued job). A follow-up held behind the run is its own trace, continued
 * when the run's report releases it (the trace context stored with the task). No exported byte holds the
 * comment, the prompt or a secret.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { startFakeGitHub, type FakeGitHub } from "../../helpers/fake-github/index.js";
import { WEBHOOK_SECRET, appEnv, baseSeed, dropRedisKeys, postWebhook, redisBackendEnv, until } from "../../helpers/app-harness.js";
import { issueCommentPayload } from "../../helpers/app-payloads.js";
import { startAppChild, startHttpProxy, type AppChild, type HttpProxy } from "../../helpers/app-process.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../../helpers/otlp-receiver.js";

const TIME_SCALE = 0.01;
const ISSUE = 21;
/** In the comment, hence in the prompt, and in the agent's answer, hence in the result comment: never in a span. */
const CANARY = `canary-${randomUUID()}`;
const TASK = "trace-this-task";
const FOLLOW_UP = "then-this-follow-up";

let github: FakeGitHub;
let emulator: RunningEmulator;
let receiver: OtlpReceiver;
/** Replica A's way to GitHub: once armed, every request is held unanswered (A dies waiting). */
let gateOfA: HttpProxy;
let armed = false;
let heldRead: (path: string) => void = () => undefined;
const held = new Promise<string>((resolve) => (heldRead = resolve));
const replicas: AppChild[] = [];
let dataDir: string;
const redisEnv = redisBackendEnv();

function envOf(replica: string, githubUrl: string): Record<string, string> {
  return appEnv({ url: emulator.url, token: emulator.token, orgId: emulator.orgId }, join(dataDir, replica), {
    ...redisEnv,
    GHE_HOST: new URL(githubUrl).host,
    GHE_PROTOCOL: "http",
    AGENT_RUN_TIME_SCALE: String(TIME_SCALE),
    DELIVERY_RECOVERY_INTERVAL: "0",
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "bridge-under-test",
    OTEL_RESOURCE_ATTRIBUTES: `replica=${replica}`,
    // The SDK's own batch delay (read from the process environment): spans reach the receiver within 100 ms.
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  github = await startFakeGitHub({
    seed: { ...baseSeed(), issues: [{ number: ISSUE, title: "Traced", body: "Work.", user: "maintainer" }] },
  });
  emulator = await startEmulator({ timeScale: TIME_SCALE });
  emulator.control.script({ match: FOLLOW_UP, durationMs: 50_000, summary: "Followed up." });
  emulator.control.script({ match: TASK, durationMs: 300_000, summary: `Done; the answer quotes ${CANARY}.` });
  dataDir = mkdtempSync(join(tmpdir(), "arb-tracing-"));
  gateOfA = await startHttpProxy([github.url], {
    beforeForward: ({ path }) => {
      if (!armed) return;
      heldRead(path);
      return new Promise<void>(() => undefined);
    },
  });
  replicas.push(await startAppChild(envOf("a", gateOfA.url), "replica A"));
}, 60_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.kill()));
  await gateOfA?.close();
  await dropRedisKeys(redisEnv.REDIS_KEY_PREFIX!);
  await emulator?.close();
  await github?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReceivedSpan[], name: string) => {
  const found = named(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
};

describe("traces across two App replicas on one Redis", () => {
  it("makes one trace of a delivery received on A and processed, run and reported on B, each span under the right parent", async () => {
    const commentPayload = (body: string) => {
      github.seed({ issueComments: [{ issue_number: ISSUE, body, user: "maintainer" }] });
      const stored = github.state.issueComments.at(-1)!;
      return issueCommentPayload({ thread: { number: ISSUE, title: "Traced" }, comment: { id: stored.id, body, login: "maintainer" } });
    };
    const payload = commentPayload(`/agent ${TASK} ${CANARY}`);
    const deliveryId = randomUUID();
    const [replicaA] = replicas;
    armed = true;
    expect(await postWebhook(replicaA!.webhookUrl, "issue_comment", payload, deliveryId)).toBe(200);
    // A took the job and is stuck reading GitHub; its finished spans (the answer, the receipt, the store) are exported.
    await held;
    await until(() => named(receiver.spans, "delivery store").length === 1, "replica A's spans of the receipt", 10_000);
    await replicaA!.kill();

    // B starts after A died: the job it runs can only be the one A stored, handed over by BullMQ's stalled-job check.
    replicas.push(await startAppChild(envOf("b", github.url), "replica B"));
    await until(() => named(receiver.spans, "run create").length > 0, "replica B to create the run", 60_000);
    // While the run works: a follow-up, held behind it, then resumed once its report releases it.
    const followUpId = randomUUID();
    expect(await postWebhook(replicas[1]!.webhookUrl, "issue_comment", commentPayload(`/agent ${FOLLOW_UP}`), followUpId)).toBe(200);
    await until(() => named(receiver.spans, "result report").length === 2, "replica B to report both runs", 60_000).catch(
      (error: unknown) => {
        console.log(
          receiver.spans.map((s) => `${s.resource.replica} ${s.name} ${s.spanId} <- ${s.parentSpanId}`).join("\n"),
          receiver.refused,
        );
        console.log(replicas[1]?.stderr().slice(-3000), replicas[1]?.stdout().slice(-3000));
        throw error;
      },
    );

    const roots = named(receiver.spans, "webhook POST");
    const root = roots.find((span) => span.attributes["github.delivery.id"] === deliveryId)!;
    const followUpRoot = roots.find((span) => span.attributes["github.delivery.id"] === followUpId)!;
    expect(roots).toHaveLength(2);
    const trace = receiver.spans.filter((s) => s.traceId === root.traceId);
    const followUpTrace = receiver.spans.filter((s) => s.traceId === followUpRoot.traceId);
    expect(followUpRoot.traceId).not.toBe(root.traceId);
    // Every span exported belongs to one of the two deliveries, and every parent is a span of its trace (none dangling).
    expect(trace.length + followUpTrace.length).toBe(receiver.spans.length);
    const byId = new Map(receiver.spans.map((s) => [s.spanId, s]));
    for (const span of receiver.spans)
      if (span.parentSpanId !== "") expect(byId.get(span.parentSpanId)?.traceId, `${span.name}'s parent`).toBe(span.traceId);
    expect(receiver.spans.filter((s) => s.parentSpanId === "")).toEqual([root, followUpRoot]);
    const parentOf = (span: ReceivedSpan) => byId.get(span.parentSpanId)?.name;
    const onA = trace.filter((s) => s.resource.replica === "a");
    const onB = trace.filter((s) => s.resource.replica === "b");

    // Replica A: received → stored.
    expect(root.resource.replica).toBe("a");
    expect(root.attributes).toMatchObject({
      "github.delivery.id": deliveryId,
      "github.event": "issue_comment",
      "http.response.status_code": 200,
    });
    const receive = one(onA, "delivery receive");
    expect(receive.parentSpanId).toBe(root.spanId);
    expect(receive.attributes).toMatchObject({ "github.delivery.id": deliveryId, "github.action": "created", "bridge.receipt": "queued" });
    expect(receive.attributes["github.repository.id"]).toBe(payload.repository.id);
    const store = one(onA, "delivery store");
    expect(store.parentSpanId).toBe(receive.spanId);

    // Replica B: processed (continuing A's store through the queue) → decision → create → watched → result written.
    const process = one(onB, "delivery process");
    expect(process.parentSpanId).toBe(store.spanId);
    expect(process.attributes).toMatchObject({ "github.delivery.id": deliveryId, "bridge.job.outcome": "done" });
    const decision = one(onB, "decision");
    expect(decision.parentSpanId).toBe(process.spanId);
    expect(decision.attributes).toMatchObject({ "bridge.decision": "create", "github.thread.number": ISSUE, "bridge.task.id": 1 });
    const steps = named(onB, "task process");
    expect(steps.length).toBeGreaterThanOrEqual(3);
    for (const step of steps) {
      expect(step.parentSpanId).toBe(decision.spanId);
      expect(step.kind).toBe(5); // CONSUMER
    }
    const create = one(onB, "run create");
    expect(parentOf(create)).toBe("task process");
    expect(create.attributes["bridge.run.id"]).toBe(emulator.control.runs()[0]!.id);
    expect(parentOf(one(onB, "acknowledge"))).toBe("task process");
    expect(named(onB, "run watch").length).toBeGreaterThanOrEqual(1);
    for (const watch of named(onB, "run watch")) expect(parentOf(watch)).toBe("task process");
    // The poll that sees the run finished writes the result.
    const report = one(onB, "result report");
    expect(parentOf(report)).toBe("run watch");
    expect(report.attributes).toMatchObject({ "bridge.run.outcome": "succeeded", "bridge.run.id": create.attributes["bridge.run.id"] });
    const writes = named(onB, "github write");
    expect(writes.map((w) => w.attributes["bridge.write"])).toEqual(
      expect.arrayContaining(["reaction", "comment create", "comment update"]),
    );
    expect(writes.some((w) => w.parentSpanId === report.spanId && w.attributes["bridge.write.outcome"] === "written")).toBe(true);

    // The follow-up: its own trace from its webhook to its resume and result, though its job was queued again by the first run's report.
    const followUpDecision = one(followUpTrace, "decision");
    expect(followUpDecision.attributes).toMatchObject({ "bridge.decision": "queue" });
    expect(named(trace, "run resume")).toEqual([]);
    const resume = one(followUpTrace, "run resume");
    const resumeStep = byId.get(resume.parentSpanId)!;
    expect(resumeStep.name).toBe("task process");
    expect(resumeStep.parentSpanId).toBe(followUpDecision.spanId);
    expect(one(followUpTrace, "result report").attributes).toMatchObject({ "bridge.run.outcome": "succeeded" });

    // Ids and codes only: not the comment (nor the prompt made of it), not the agent's answer, not a secret.
    const exported = receiver.bodies.join("\n");
    for (const secret of [CANARY, TASK, emulator.token, WEBHOOK_SECRET]) expect(exported).not.toContain(secret);
    expect(receiver.refused).toEqual([]);
  }, 120_000);
});

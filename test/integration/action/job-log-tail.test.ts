/**
 * The Action's CI-fix path reads a failing job's log as a stream and keeps only its end: against the
 * fake GitHub, whose job-log endpoint answers with the 302 to a signed download, made on the fly
 * here. The log is larger than the longest string V8 can make (about 512 MiB), so a reader that took
 * the whole body before its tail would have nothing to cut it from; the prompt still holds the tail.
 * The memory this saves is a figure of bench/log-tail.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { failedCiPayload, startActionHarness, withFailingCi, type ActionHarness } from "../../helpers/action-runner.js";

const MIB = 1024 * 1024;
/** Past V8's longest string (2^29 - 24 one-byte characters). */
const LOG_BYTES = 513 * MIB;

/** `bytes` of build noise in 1 MiB chunks (one buffer sent again and again), then the failure at the end. */
async function* hugeFailingLog(bytes: number): AsyncGenerator<Uint8Array> {
  const noise = Buffer.from("ok   compiled a module of the project without a problem\n".repeat(MIB / 64).padEnd(MIB, "."));
  for (let sent = 0; sent < bytes; sent += MIB) yield noise;
  yield Buffer.from(
    "\nFAIL src/dates.test.ts › Tuesday\n  expected Tuesday, got Wednesday\n##[error]Process completed with exit code 1.\n",
  );
}

let h: ActionHarness;
afterEach(async () => {
  await h?.close();
});

describe("a failing job's log", () => {
  it("of 513 MiB: the fix prompt holds its last lines, read through the 302", async () => {
    const seed = withFailingCi();
    seed.workflowRuns![0]!.jobs![0]!.log = () => hugeFailingLog(LOG_BYTES);
    h = await startActionHarness({ seed });

    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });

    expect(step.result.failure).toBeNull();
    const [created] = h.service.creates();
    expect(created?.prompt).toContain("FAIL src/dates.test.ts › Tuesday\n  expected Tuesday, got Wednesday");
    expect(created?.prompt).toContain("Process completed with exit code 1.");
    // One request to the API, one to the signed download it redirected to.
    expect(h.github.requests.filter((r) => r.path.endsWith("/jobs/702/logs")).map((r) => r.status)).toEqual([302]);
    expect(h.github.requests.filter((r) => r.servedAs === "web" && r.path.includes("/job-logs/702")).map((r) => r.status)).toEqual([200]);
  }, 120_000);
});

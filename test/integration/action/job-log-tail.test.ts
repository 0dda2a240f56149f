/**
 * The Action's CI-fix path reads only the end of a failing job's log: against the fake GitHub, whose
 * job-log endpoint answers with the 302 to a signed download (made on the fly here) that serves byte
 * ranges as blob storage does, or ignores them. Ignored, the log is read as a stream that keeps its
 * end: the log is larger than the longest string V8 can make (about 512 MiB), so a reader that took
 * the whole body before its tail would have nothing to cut it from. The memory this saves is a
 * figure of bench/log-tail.ts.
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
  it("of 513 MiB: the fix prompt holds its last lines, and only they cross the network (ranges, as blob storage serves them)", async () => {
    const seed = withFailingCi();
    seed.workflowRuns![0]!.jobs![0]!.log = () => hugeFailingLog(LOG_BYTES);
    h = await startActionHarness({ seed });

    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });

    expect(step.result.failure).toBeNull();
    expectFailureInPrompt();
    // One request to the API; two to the signed download it redirected to: its size, then its tail.
    expect(h.github.requests.filter((r) => r.path.endsWith("/jobs/702/logs")).map((r) => r.status)).toEqual([302]);
    const downloads = h.github.state.jobLogDownloads;
    expect(downloads.map((d) => [d.range?.replace(/\d{6,}/g, "N"), d.status])).toEqual([
      ["bytes=0-0", 206],
      ["bytes=N-N", 206],
    ]);
    expect(downloads.reduce((sum, d) => sum + d.bytesSent, 0)).toBeLessThanOrEqual(64 * 1024);
  }, 120_000);

  it("of 513 MiB from a download that ignores ranges: read as a stream, the prompt still holds its last lines", async () => {
    const seed = withFailingCi();
    seed.workflowRuns![0]!.jobs![0]!.log = () => hugeFailingLog(LOG_BYTES);
    h = await startActionHarness({ seed });
    h.github.state.jobLogRanges = false;

    const step = await h.step({ eventName: "workflow_run", payload: failedCiPayload(), inputs: {} });

    expect(step.result.failure).toBeNull();
    expectFailureInPrompt();
    expect(h.github.state.jobLogDownloads.map((d) => [d.status, d.bytesSent > LOG_BYTES])).toEqual([[200, true]]);
  }, 120_000);
});

function expectFailureInPrompt(): void {
  const [created] = h.service.creates();
  expect(created?.prompt).toContain("FAIL src/dates.test.ts › Tuesday\n  expected Tuesday, got Wednesday");
  expect(created?.prompt).toContain("Process completed with exit code 1.");
}

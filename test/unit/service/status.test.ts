import { describe, expect, it } from "vitest";
import { withBridgeTaskId } from "../../../src/core/metadata.js";
import { readErrorBody } from "../../../src/service/errors.js";
import { classifyRunStatus, isFinalPhase, knownStatusTable, type RunPhase } from "../../../src/service/status.js";

/** Every status value facts.md lists for real deployments, with the class it documents for it. */
const SEEN_IN_DEPLOYMENTS: Array<[string, RunPhase]> = [
  ["ACTIVE", "in_progress"],
  ["PENDING", "in_progress"],
  ["RUNNING", "in_progress"],
  ["EVALUATION", "in_progress"],
  ["PAUSED", "waiting_for_input"],
  ["COMPLETE", "succeeded"],
  ["ERROR", "failed"],
  ["FAILED", "failed"],
  ["CANCELLED", "stopped"],
  ["STOPPED", "stopped"],
  ["TIMEOUT", "failed"],
  ["MAX_ITERATIONS_REACHED", "failed"],
  ["OUT_OF_TOKENS", "failed"],
  ["completed", "succeeded"],
  ["queued", "in_progress"],
  ["in_progress", "in_progress"],
  ["failed", "failed"],
];

describe("classifyRunStatus", () => {
  it.each(SEEN_IN_DEPLOYMENTS)("%s is %s", (status, phase) => {
    expect(classifyRunStatus(status)).toBe(phase);
    expect(classifyRunStatus(` ${status.toLowerCase()} `)).toBe(phase);
  });

  it("a missing status is still in progress; anything else unknown, and unknown is not final", () => {
    expect(classifyRunStatus(null)).toBe("in_progress");
    expect(classifyRunStatus("")).toBe("in_progress");
    expect(classifyRunStatus("HIBERNATING")).toBe("unknown");
    expect(isFinalPhase("unknown")).toBe(false);
    expect(isFinalPhase("in_progress")).toBe(false);
    for (const phase of ["succeeded", "failed", "stopped", "waiting_for_input"] as const) expect(isFinalPhase(phase)).toBe(true);
  });

  it("the documented table lists every value once, in its class", () => {
    const table = knownStatusTable();
    for (const [status, phase] of SEEN_IN_DEPLOYMENTS) {
      expect(table.filter((row) => row.status.toLowerCase() === status.toLowerCase())).toEqual([{ status: expect.any(String), phase }]);
    }
  });
});

describe("readErrorBody", () => {
  it("reads each shape real deployments answer with", () => {
    expect(readErrorBody('{"message":"Agent run not found.","status_code":404}')).toEqual({
      serverMessage: "Agent run not found.",
      fieldIssues: [],
    });
    expect(readErrorBody('{"detail":"Too many requests","status_code":429}')).toEqual({
      serverMessage: "Too many requests",
      fieldIssues: [],
    });
    expect(
      readErrorBody(
        '{"detail":[{"loc":["body","prompt"],"msg":"field required","type":"missing"},{"loc":["query","limit"],"msg":"too big","type":"less_than_equal"}]}',
      ),
    ).toEqual({
      serverMessage: "prompt: field required; query.limit: too big",
      fieldIssues: [
        { field: "prompt", message: "field required" },
        { field: "query.limit", message: "too big" },
      ],
    });
    expect(readErrorBody("<html>Bad Gateway</html>")).toEqual({ serverMessage: "<html>Bad Gateway</html>", fieldIssues: [] });
    expect(readErrorBody("")).toEqual({ fieldIssues: [] });
  });
});

describe("withBridgeTaskId", () => {
  it("adds the task id as a string, keeps the rest, refuses what looks like a secret", () => {
    expect(withBridgeTaskId({ delivery_id: "d-1", source_type: "GIT_HOST" }, 42)).toEqual({
      delivery_id: "d-1",
      source_type: "GIT_HOST",
      bridge_task_id: "42",
    });
    expect(() => withBridgeTaskId({}, "")).toThrow(RangeError);
    expect(() => withBridgeTaskId({}, `ghp_${"a".repeat(36)}`)).toThrow(RangeError);
  });
});

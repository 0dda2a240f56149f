import { describe, expect, it } from "vitest";
import { MARKER_LIMITS, type RunMarker } from "../../../src/core/markers/schema.js";
import {
  bindCommentBody,
  bindKindMarker,
  newRunMarker,
  renderKindMarker,
  renderMarker,
  renderOverLimitMarker,
  resultMarker,
  withBranches,
} from "../../../src/core/markers/write.js";
import { parseKindMarker, parseMarker } from "../../../src/core/markers/read.js";
import { renderRefusal } from "../../../src/core/render/replies.js";
import { SOURCE } from "../../../src/service/wire.js";
import { LEGACY_RUNNING_LINE, running, RUNNING_LINE } from "./fixtures.js";

describe("renderMarker / parseMarker", () => {
  it("writes one line with a fixed key order and reads it back", () => {
    expect(renderMarker(running)).toBe(RUNNING_LINE);
    expect(parseMarker(`${RUNNING_LINE}\n🤖 Agent run #123 is working`)).toEqual(running);
    const done: RunMarker = {
      ...running,
      state: "done",
      outcome: "succeeded",
      requestId: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      headSha: "a".repeat(40),
    };
    expect(parseMarker(`text before\n${renderMarker(done)}\ntext after`)).toEqual(done);
  });

  it("escapes <, > and & in the JSON, so no value can end the HTML comment", () => {
    const tricky = { ...running, branches: ["fix-->x", "a<b&c"] };
    const line = renderMarker(tricky);
    expect(line).toBe(
      '<!-- agent-run-bridge:run {"v":2,"repo":"octo-org/widgets","thread":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["fix--\\u003ex","a\\u003cb\\u0026c"],"state":"running"} -->',
    );
    expect(line.indexOf("-->")).toBe(line.length - 3);
    expect(parseMarker(line)).toEqual(tricky);
  });

  it("refuses to write an invalid marker, naming the problem", () => {
    expect(() => renderMarker({ ...running, runId: null })).toThrow(
      'renderMarker: invalid run marker (runId: a "running" marker needs a runId)',
    );
    expect(() => renderMarker({ ...running, state: "done" })).toThrow("outcome: outcome is set exactly when state is done");
    expect(() => renderMarker({ ...running, branches: ["has space"] })).toThrow(
      "branches.0: a branch name has no whitespace or control characters",
    );
  });

  it.each([
    ["no marker", "just a comment"],
    ["malformed JSON", '<!-- agent-run-bridge:run {"v":1,"runId":123,} -->'],
    ["unknown version", RUNNING_LINE.replace('"v":2', '"v":3')],
    ["a v1 marker naming a thread", RUNNING_LINE.replace('"v":2', '"v":1')],
    ["a repository without a thread", RUNNING_LINE.replace('"thread":1,', "")],
    ["a thread that is no number", RUNNING_LINE.replace('"thread":1', '"thread":"1"')],
    ["a repository that is no owner/name", RUNNING_LINE.replace("octo-org/widgets", "widgets")],
    ["an extra field", RUNNING_LINE.replace('"state":"running"', '"state":"running","admin":true')],
    ["a missing field", RUNNING_LINE.replace('"orgId":1,', "")],
    ["a wrong type", RUNNING_LINE.replace('"runId":123', '"runId":"123"')],
    ["an unknown source type", RUNNING_LINE.replace("GIT_HOST", "SOMEWHERE")],
    ["an unknown state", RUNNING_LINE.replace('"running"', '"paused"')],
    ["done without outcome", RUNNING_LINE.replace('"running"', '"done"')],
    ["runId null while running", RUNNING_LINE.replace('"runId":123', '"runId":null')],
    ["a marker inside a line", `see ${RUNNING_LINE} here`],
    ["two markers", `${RUNNING_LINE}\n${RUNNING_LINE.replace("123", "124")}`],
    ["a run marker and a kind marker", `${RUNNING_LINE}\n<!-- agent-run-bridge:refusal -->`],
    ["another spelling of the opening", `${RUNNING_LINE}\n<!--agent-run-bridge:run {} -->`],
    [
      "too many branches",
      renderMarker(running).replace(
        '["agent/run-123"]',
        JSON.stringify(Array.from({ length: MARKER_LIMITS.branches + 1 }, (_, i) => `b${i}`)),
      ),
    ],
    // Valid JSON and a valid marker but for its size: only the size bound rejects it.
    ["oversized JSON", RUNNING_LINE.replace('{"v":2,', `{"v":2,${" ".repeat(MARKER_LIMITS.json)}`)],
    ["a JSON array", "<!-- agent-run-bridge:run {} -->".replace("{}", "{[1]}")],
  ])("rejects %s", (_, body) => {
    expect(parseMarker(body)).toBeNull();
  });

  it("rejects bodies longer than GitHub allows, and empty ones", () => {
    expect(parseMarker(`${RUNNING_LINE}\n${"x".repeat(65_536)}`)).toBeNull();
    expect(parseMarker(null)).toBeNull();
    expect(parseMarker(undefined)).toBeNull();
  });

  it("reads a marker written before markers named their thread (v1), and writes it back as it was", () => {
    const legacy = parseMarker(LEGACY_RUNNING_LINE);
    expect(legacy).toEqual({ v: 1, runId: 123, orgId: 1, sourceType: "GIT_HOST", branches: ["agent/run-123"], state: "running" });
    expect(renderMarker(legacy!)).toBe(LEGACY_RUNNING_LINE);
    // A marker for a step without a thread (never posted) names none either.
    expect(newRunMarker({ place: null, runId: 9, orgId: 1, sourceType: SOURCE.api })).not.toHaveProperty("repo");
  });

  it("tells the bot's comment kinds apart", () => {
    expect(renderKindMarker("refusal")).toBe("<!-- agent-run-bridge:refusal -->");
    expect(parseMarker(`${RUNNING_LINE}\nbody`)).toEqual(running);
    expect(parseKindMarker(renderRefusal({ login: "mallory", reason: "no write access." }))?.kind).toBe("refusal");
    expect(parseKindMarker("<!-- agent-run-bridge:hand_back -->\nhanded back")?.kind).toBe("hand_back");
    expect(parseKindMarker("<!-- agent-run-bridge:run -->")).toBeNull();
    expect(parseMarker("<!-- agent-run-bridge:run -->")).toBeNull();
    expect(parseKindMarker("<!-- agent-run-bridge:unknown_kind -->")).toBeNull();
    expect(parseKindMarker("<!-- agent-run-bridge:refusal -->\n<!-- agent-run-bridge:refusal -->")).toBeNull();
  });

  it("a kind marker names its thread once bound (as every door out does), and reads back with it", () => {
    const place = { repository: "octo/app", thread: 7 };
    const stop = bindKindMarker("<!-- agent-run-bridge:stop -->\n⏹️ stopped", place);
    expect(stop).toBe('<!-- agent-run-bridge:stop {"v":2,"repo":"octo/app","thread":7} -->\n⏹️ stopped');
    expect(parseKindMarker(stop)).toEqual({ kind: "stop", place });
    // Binding twice, or a body without a marker, or a run marker: unchanged.
    expect(bindKindMarker(stop, { ...place, thread: 8 })).toBe(stop);
    expect(bindKindMarker("no marker", place)).toBe("no marker");
    expect(bindKindMarker(`${RUNNING_LINE}\nbody`, place)).toBe(`${RUNNING_LINE}\nbody`);
    // An over-limit reply keeps its limit; one written before (v1) names no thread.
    const over = bindKindMarker(`${renderOverLimitMarker("runs_per_thread_per_day")}\n⏸️`, place);
    expect(over).toMatch(/^<!-- agent-run-bridge:over_limit \{"v":2,"repo":"octo\/app","thread":7,"limit":"runs_per_thread_per_day"\} -->/);
    expect(parseKindMarker(over)).toEqual({ kind: "over_limit", place, limit: "runs_per_thread_per_day" });
    expect(parseKindMarker(`${renderOverLimitMarker("runs_per_thread_per_day")}\n⏸️`)).toMatchObject({ place: null });
    // A rendering at a maximum length leaves room for the place.
    const fitted = bindCommentBody((max) => `<!-- agent-run-bridge:refusal -->\n${"x".repeat(max - 40)}`, place);
    expect(typeof fitted === "function" && fitted(1000).length).toBeLessThanOrEqual(1000);
  });

  it("a kind marker with JSON that is not a thread is no marker", () => {
    expect(parseKindMarker('<!-- agent-run-bridge:stop {"v":2,"repo":"octo/app"} -->')).toBeNull();
    expect(parseKindMarker('<!-- agent-run-bridge:stop {"v":2,"repo":"octo/app","thread":7,"extra":1} -->')).toBeNull();
    expect(parseKindMarker('<!-- agent-run-bridge:stop {"v":2,"repo":"not a repo","thread":7} -->')).toBeNull();
    expect(parseKindMarker('<!-- agent-run-bridge:refusal {"v":1,"repo":"octo/app","thread":7} -->')).toBeNull();
    expect(parseKindMarker("<!-- agent-run-bridge:over_limit -->")).toBeNull();
  });
});

describe("marker transitions", () => {
  it("newRunMarker: queued without a run, running with one", () => {
    expect(
      newRunMarker({ place: { repository: "octo-org/widgets", thread: 1 }, runId: null, orgId: 1, sourceType: SOURCE.gitHost }),
    ).toEqual({
      v: 2,
      repo: "octo-org/widgets",
      thread: 1,
      runId: null,
      orgId: 1,
      sourceType: "GIT_HOST",
      branches: [],
      state: "queued",
    });
    expect(
      newRunMarker({
        place: { repository: "octo-org/widgets", thread: 1 },
        runId: 9,
        orgId: 1,
        sourceType: SOURCE.gitHostCheckSuite,
        branches: ["refs/heads/fix"],
        headSha: "f".repeat(40),
      }),
    ).toEqual({
      v: 2,
      repo: "octo-org/widgets",
      thread: 1,
      runId: 9,
      orgId: 1,
      sourceType: "GIT_HOST_CHECK_SUITE",
      branches: ["fix"],
      state: "running",
      headSha: "f".repeat(40),
    });
  });

  it("resultMarker: done, with the outcome and the pull requests' head branches", () => {
    const run = {
      id: 123,
      git_host_pull_requests: [{ head_branch_name: "agent/run-123" }, { head_branch_name: "agent/docs" }, { head_branch_name: null }],
    };
    expect(resultMarker(running, run, "succeeded")).toEqual({
      ...running,
      branches: ["agent/run-123", "agent/docs"],
      state: "done",
      outcome: "succeeded",
    });
    expect(resultMarker(running, run, "in_progress").outcome).toBe("watch_timed_out");
    expect(resultMarker({ ...running, runId: null, state: "queued" }, run, "failed").runId).toBe(123);
  });

  it("withBranches keeps the most recent branches within bounds and drops invalid names", () => {
    const many = Array.from({ length: 15 }, (_, i) => `b${i}`);
    const marker = withBranches(running, [...many, "has space", "x".repeat(MARKER_LIMITS.branchLength + 1), "agent/run-123"]);
    expect(marker.branches).toEqual(["b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "agent/run-123"]);
    expect(parseMarker(renderMarker(marker))).toEqual(marker);
  });
});

import { describe, expect, it } from "vitest";
import {
  countFixAttempts,
  findLatestMarkerForRun,
  findMarkerForRequest,
  findRunForBranch,
  findTrustedComment,
  findTrustedRunMarker,
  isTrustedAuthor,
  listTrustedRunMarkers,
  MARKER_LIMITS,
  newRunMarker,
  parseCommentKind,
  parseMarker,
  renderKindMarker,
  renderMarker,
  resultMarker,
  type RunMarker,
  type ThreadComment,
  withBranches,
} from "../../../src/core/markers.js";
import { renderRefusal, renderResultComment } from "../../../src/core/render.js";
import { SOURCE } from "../../../src/service/wire.js";

const APP = { botLogins: ["my-app[bot]"] };
const ACTION = { botLogins: ["github-actions[bot]"] };

const running: RunMarker = {
  v: 1,
  runId: 123,
  orgId: 1,
  sourceType: SOURCE.gitHost,
  branches: ["agent/run-123"],
  state: "running",
};
const RUNNING_LINE = '<!-- agent-run-bridge:run {"v":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["agent/run-123"],"state":"running"} -->';

const bot = (id: number, body: string, login = "my-app[bot]"): ThreadComment => ({ id, body, user: { login, type: "Bot" } });
const human = (id: number, body: string, login = "mallory"): ThreadComment => ({ id, body, user: { login, type: "User" } });

describe("renderMarker / parseMarker", () => {
  it("writes one line with a fixed key order and reads it back", () => {
    expect(renderMarker(running)).toBe(RUNNING_LINE);
    expect(parseMarker(`${RUNNING_LINE}\n🤖 Agent run #123 is working`)).toEqual(running);
    const done: RunMarker = { ...running, state: "done", outcome: "succeeded", requestId: "72d3162e-cc78-11e3-81ab-4c9367dc0958", headSha: "a".repeat(40) };
    expect(parseMarker(`text before\n${renderMarker(done)}\ntext after`)).toEqual(done);
  });

  it("escapes <, > and & in the JSON, so no value can end the HTML comment", () => {
    const tricky = { ...running, branches: ["fix-->x", "a<b&c"] };
    const line = renderMarker(tricky);
    expect(line).toBe(
      '<!-- agent-run-bridge:run {"v":1,"runId":123,"orgId":1,"sourceType":"GIT_HOST","branches":["fix--\\u003ex","a\\u003cb\\u0026c"],"state":"running"} -->',
    );
    expect(line.indexOf("-->")).toBe(line.length - 3);
    expect(parseMarker(line)).toEqual(tricky);
  });

  it("refuses to write an invalid marker, naming the problem", () => {
    expect(() => renderMarker({ ...running, runId: null })).toThrow('renderMarker: invalid run marker (runId: a "running" marker needs a runId)');
    expect(() => renderMarker({ ...running, state: "done" })).toThrow("outcome: outcome is set exactly when state is done");
    expect(() => renderMarker({ ...running, branches: ["has space"] })).toThrow("branches.0: a branch name has no whitespace or control characters");
  });

  it.each([
    ["no marker", "just a comment"],
    ["malformed JSON", '<!-- agent-run-bridge:run {"v":1,"runId":123,} -->'],
    ["unknown version", RUNNING_LINE.replace('"v":1', '"v":2')],
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
    ["too many branches", renderMarker(running).replace('["agent/run-123"]', JSON.stringify(Array.from({ length: MARKER_LIMITS.branches + 1 }, (_, i) => `b${i}`)))],
    // Valid JSON and a valid marker but for its size: only the size bound rejects it.
    ["oversized JSON", RUNNING_LINE.replace('{"v":1,', `{"v":1,${" ".repeat(MARKER_LIMITS.json)}`)],
    ["a JSON array", "<!-- agent-run-bridge:run {} -->".replace("{}", "{[1]}")],
  ])("rejects %s", (_, body) => {
    expect(parseMarker(body)).toBeNull();
  });

  it("rejects bodies longer than GitHub allows, and empty ones", () => {
    expect(parseMarker(`${RUNNING_LINE}\n${"x".repeat(65_536)}`)).toBeNull();
    expect(parseMarker(null)).toBeNull();
    expect(parseMarker(undefined)).toBeNull();
  });

  it("tells the bot's comment kinds apart", () => {
    expect(renderKindMarker("refusal")).toBe("<!-- agent-run-bridge:refusal -->");
    expect(parseCommentKind(`${RUNNING_LINE}\nbody`)).toBe("run");
    expect(parseCommentKind(renderRefusal({ login: "mallory", reason: "no write access." }))).toBe("refusal");
    expect(parseCommentKind("<!-- agent-run-bridge:hand_back -->\nhanded back")).toBe("hand_back");
    expect(parseCommentKind("<!-- agent-run-bridge:run -->")).toBeNull();
    expect(parseCommentKind("<!-- agent-run-bridge:unknown_kind -->")).toBeNull();
    expect(parseCommentKind("<!-- agent-run-bridge:refusal -->\n<!-- agent-run-bridge:refusal -->")).toBeNull();
  });
});

describe("trust", () => {
  it("ignores a human's comment holding a perfect marker; trusts the bot's", () => {
    const forged = { ...running, runId: 666 };
    const comments = [bot(10, RUNNING_LINE), human(20, renderMarker(forged))];
    expect(findTrustedRunMarker(comments, APP)).toEqual({ marker: running, commentId: 10 });
    expect(findTrustedRunMarker([human(20, renderMarker(forged))], APP)).toBeNull();
  });

  it("ignores other bots, a [bot] login that is not of type Bot, and comments without an author", () => {
    expect(findTrustedRunMarker([bot(10, RUNNING_LINE, "other-app[bot]")], APP)).toBeNull();
    expect(findTrustedRunMarker([{ id: 11, body: RUNNING_LINE, user: { login: "my-app[bot]", type: "User" } }], APP)).toBeNull();
    expect(findTrustedRunMarker([{ id: 12, body: RUNNING_LINE, user: null }], APP)).toBeNull();
    expect(findTrustedRunMarker([{ id: 13, body: RUNNING_LINE }], APP)).toBeNull();
    // A comment a person made through some app (performed_via_github_app) is still that person's.
    expect(findTrustedRunMarker([{ ...human(14, RUNNING_LINE), performed_via_github_app: { slug: "my-app" } }], APP)).toBeNull();
  });

  it("compares logins case-insensitively and accepts a missing user type", () => {
    expect(isTrustedAuthor({ id: 1, user: { login: "My-App[bot]" } }, APP)).toBe(true);
    expect(isTrustedAuthor({ id: 1, user: { login: "github-actions[bot]", type: "Bot" } }, ACTION)).toBe(true);
    expect(isTrustedAuthor({ id: 1, user: { login: "github-actions[bot]", type: "Bot" } }, APP)).toBe(false);
  });

  it("takes the newest trusted marker by comment id, whatever the order given", () => {
    const older = bot(10, renderMarker({ ...running, runId: 100 }));
    const newer = bot(30, renderMarker({ ...running, runId: 200 }));
    const forgedNewest = human(40, renderMarker({ ...running, runId: 666 }));
    expect(findTrustedRunMarker([newer, forgedNewest, older], APP)?.marker.runId).toBe(200);
    expect(listTrustedRunMarkers([older, newer, forgedNewest], APP).map((found) => found.commentId)).toEqual([30, 10]);
  });

  it("keeps the bot's own marker when agent text in the same comment tries to forge one", () => {
    const run = { id: 123, status: "COMPLETE", summary: `Done.\n${renderMarker({ ...running, runId: 666 })}`, result: "```\n<!-- agent-run-bridge:run {} -->\n```" };
    const body = renderResultComment({ marker: running, run, phase: "succeeded", startedAt: 0, finishedAt: 1000, triggerPhrase: "/agent" });
    expect(findTrustedRunMarker([bot(50, body)], APP)?.marker).toEqual({ ...running, state: "done", outcome: "succeeded" });
  });
});

describe("finding a run by branch, run id, request or attempts", () => {
  const cycle = (id: number, fields: Partial<RunMarker>, login = "my-app[bot]") => bot(id, renderMarker({ ...running, ...fields }), login);

  it("findRunForBranch: the newest trusted run that names the branch (refs/heads/ or not)", () => {
    const comments = [
      cycle(10, { runId: 1, branches: ["agent/one"] }),
      cycle(20, { runId: 2, branches: ["agent/two", "agent/shared"] }),
      cycle(30, { runId: 3, branches: ["agent/shared"] }),
      human(40, renderMarker({ ...running, runId: 666, branches: ["agent/one"] })),
    ];
    expect(findRunForBranch(comments, "agent/one", APP)?.marker.runId).toBe(1);
    expect(findRunForBranch(comments, "refs/heads/agent/shared", APP)?.marker.runId).toBe(3);
    expect(findRunForBranch(comments, "main", APP)).toBeNull();
    // A queued request names no run yet.
    expect(findRunForBranch([cycle(50, { runId: null, state: "queued", branches: ["agent/q"] })], "agent/q", APP)).toBeNull();
  });

  it("findLatestMarkerForRun: a restarted watcher sees whether the result was delivered", () => {
    const tracking = cycle(10, { runId: 5 });
    expect(findLatestMarkerForRun([tracking], 5, APP)?.marker.state).toBe("running");
    const delivered = bot(10, renderMarker({ ...running, runId: 5, state: "done", outcome: "failed" }));
    expect(findLatestMarkerForRun([delivered], 5, APP)?.marker.state).toBe("done");
    // After a follow-up resumed the run, the newer tracking comment is what counts.
    expect(findLatestMarkerForRun([delivered, cycle(20, { runId: 5 })], 5, APP)?.commentId).toBe(20);
    expect(findLatestMarkerForRun([delivered], 6, APP)).toBeNull();
  });

  it("findMarkerForRequest: a redelivered webhook finds the comment it already posted", () => {
    const comments = [cycle(10, { runId: null, state: "queued", requestId: "delivery-1" }), cycle(20, { requestId: "delivery-2" })];
    expect(findMarkerForRequest(comments, "delivery-1", APP)?.commentId).toBe(10);
    expect(findMarkerForRequest(comments, "delivery-3", APP)).toBeNull();
  });

  it("countFixAttempts: CI fix cycles on the branch and the commits they answered", () => {
    const sha = (c: string) => c.repeat(40);
    const comments = [
      cycle(10, { sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("a") }),
      cycle(20, { sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("b") }),
      cycle(30, { sourceType: SOURCE.gitHostPrReview, branches: ["feature"] }),
      cycle(40, { sourceType: SOURCE.gitHostCheckSuite, branches: ["other"], headSha: sha("c") }),
      human(50, renderMarker({ ...running, sourceType: SOURCE.gitHostCheckSuite, branches: ["feature"], headSha: sha("d") })),
    ];
    expect(countFixAttempts(comments, "refs/heads/feature", APP)).toEqual({ attempts: 2, headShas: [sha("b"), sha("a")] });
  });

  it("findTrustedComment: e.g. whether the pull request was already handed back", () => {
    const handBack = "<!-- agent-run-bridge:hand_back -->\nhanded back";
    expect(findTrustedComment([bot(10, handBack), bot(20, handBack), human(30, handBack)], "hand_back", APP)?.id).toBe(20);
    expect(findTrustedComment([human(30, handBack)], "hand_back", APP)).toBeNull();
  });
});

describe("marker transitions", () => {
  it("newRunMarker: queued without a run, running with one", () => {
    expect(newRunMarker({ runId: null, orgId: 1, sourceType: SOURCE.gitHost })).toEqual({ v: 1, runId: null, orgId: 1, sourceType: "GIT_HOST", branches: [], state: "queued" });
    expect(newRunMarker({ runId: 9, orgId: 1, sourceType: SOURCE.gitHostCheckSuite, branches: ["refs/heads/fix"], headSha: "f".repeat(40) })).toEqual({
      v: 1,
      runId: 9,
      orgId: 1,
      sourceType: "GIT_HOST_CHECK_SUITE",
      branches: ["fix"],
      state: "running",
      headSha: "f".repeat(40),
    });
  });

  it("resultMarker: done, with the outcome and the pull requests' head branches", () => {
    const run = { id: 123, git_host_pull_requests: [{ head_branch_name: "agent/run-123" }, { head_branch_name: "agent/docs" }, { head_branch_name: null }] };
    expect(resultMarker(running, run, "succeeded")).toEqual({ ...running, branches: ["agent/run-123", "agent/docs"], state: "done", outcome: "succeeded" });
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

import { describe, expect, it } from "vitest";
import {
  findLatestMarkerForRun,
  findMarkerForRequest,
  listRunsForBranch,
  findTrustedComment,
  isTrustedAuthor,
  listTrustedRunMarkers,
  runRecordNamesPlace,
  LEGACY_KIND_MARKERS,
  placeRelation,
} from "../../../src/core/markers/trust.js";
import type { RunMarker } from "../../../src/core/markers/schema.js";
import { bindKindMarker, renderMarker } from "../../../src/core/markers/write.js";
import { renderResultComment } from "../../../src/core/render/result.js";
import { ACTION, APP, bot, human, LEGACY_RUNNING_LINE, newestTrustedRunMarker, PLACE, running, RUNNING_LINE } from "./fixtures.js";

describe("trust", () => {
  it("ignores a human's comment holding a perfect marker; trusts the bot's", () => {
    const forged = { ...running, runId: 666 };
    const comments = [bot(10, RUNNING_LINE), human(20, renderMarker(forged))];
    expect(newestTrustedRunMarker(comments, APP, PLACE)).toEqual({ marker: running, commentId: 10, legacy: false });
    expect(newestTrustedRunMarker([human(20, renderMarker(forged))], APP, PLACE)).toBeNull();
  });

  it("ignores other bots, a [bot] login that is not of type Bot, and comments without an author", () => {
    expect(newestTrustedRunMarker([bot(10, RUNNING_LINE, "other-app[bot]")], APP, PLACE)).toBeNull();
    expect(newestTrustedRunMarker([{ id: 11, body: RUNNING_LINE, user: { login: "my-app[bot]", type: "User" } }], APP, PLACE)).toBeNull();
    expect(newestTrustedRunMarker([{ id: 12, body: RUNNING_LINE, user: null }], APP, PLACE)).toBeNull();
    expect(newestTrustedRunMarker([{ id: 13, body: RUNNING_LINE }], APP, PLACE)).toBeNull();
    // A comment a person made through some app (performed_via_github_app) is still that person's.
    expect(newestTrustedRunMarker([{ ...human(14, RUNNING_LINE), performed_via_github_app: { slug: "my-app" } }], APP, PLACE)).toBeNull();
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
    expect(newestTrustedRunMarker([newer, forgedNewest, older], APP, PLACE)?.marker.runId).toBe(200);
    expect(listTrustedRunMarkers([older, newer, forgedNewest], APP, PLACE).map((found) => found.commentId)).toEqual([30, 10]);
  });

  it("keeps the bot's own marker when agent text in the same comment tries to forge one", () => {
    const run = {
      id: 123,
      status: "COMPLETE",
      summary: `Done.\n${renderMarker({ ...running, runId: 666 })}`,
      result: "```\n<!-- agent-run-bridge:run {} -->\n```",
    };
    const body = renderResultComment({ marker: running, run, phase: "succeeded", startedAt: 0, finishedAt: 1000, triggerPhrase: "/agent" });
    expect(newestTrustedRunMarker([bot(50, body)], APP, PLACE)?.marker).toEqual({ ...running, state: "done", outcome: "succeeded" });
  });
});

describe("a marker belongs to its thread", () => {
  it("ignores the bot's own marker when it names another thread or repository (a copied marker)", () => {
    expect(newestTrustedRunMarker([bot(10, RUNNING_LINE)], APP, { ...PLACE, thread: 2 })).toBeNull();
    expect(newestTrustedRunMarker([bot(10, RUNNING_LINE)], APP, { ...PLACE, repository: "octo-org/other" })).toBeNull();
    // GitHub's names are case-insensitive.
    expect(newestTrustedRunMarker([bot(10, RUNNING_LINE)], APP, { ...PLACE, repository: "Octo-Org/Widgets" })?.legacy).toBe(false);
    // The copy does not hide the thread's own run either.
    const own = bot(10, renderMarker({ ...running, thread: 2, runId: 5 }));
    expect(newestTrustedRunMarker([own, bot(20, RUNNING_LINE)], APP, { ...PLACE, thread: 2 })?.marker.runId).toBe(5);
  });

  it("returns a marker that names no thread (v1) as legacy, in any thread: its run must be confirmed by the service", () => {
    expect(newestTrustedRunMarker([bot(10, LEGACY_RUNNING_LINE)], APP, { ...PLACE, thread: 9 })).toMatchObject({
      commentId: 10,
      legacy: true,
    });
  });

  it("runRecordNamesPlace: the run's metadata (repository and issue or pull-request number) or one of its pull requests", () => {
    const place = { repository: "octo-org/widgets", thread: 7 };
    const record = (metadata: Record<string, unknown> | null, prUrl?: string) => ({
      metadata,
      git_host_pull_requests: prUrl ? [{ id: 1, title: null, url: prUrl, created_at: null, head_branch_name: null }] : null,
    });
    expect(runRecordNamesPlace(record({ repository: "octo-org/widgets", issue_number: 7 }), place)).toBe(true);
    expect(runRecordNamesPlace(record({ repository: "OCTO-ORG/widgets", pull_request_number: 7 }), place)).toBe(true);
    expect(runRecordNamesPlace(record({ repository: "octo-org/widgets", issue_number: 8 }), place)).toBe(false);
    expect(runRecordNamesPlace(record({ repository: "octo-org/other", issue_number: 7 }), place)).toBe(false);
    expect(runRecordNamesPlace(record({ repository: "octo-org/widgets", issue_number: "7" }), place)).toBe(false);
    expect(runRecordNamesPlace(record({ issue_number: 7 }), place)).toBe(false);
    expect(runRecordNamesPlace(record(null), place)).toBe(false);
    expect(runRecordNamesPlace(record(null, "https://github.com/octo-org/widgets/pull/7"), place)).toBe(true);
    expect(runRecordNamesPlace(record(null, "https://ghe.example.com/octo-org/widgets/pull/7"), place)).toBe(true);
    expect(runRecordNamesPlace(record(null, "https://github.com/octo-org/widgets/pull/70"), place)).toBe(false);
    expect(runRecordNamesPlace(record(null, "https://github.com/evil/widgets/pull/7"), place)).toBe(false);
  });
});

describe("finding a run by branch, run id or request", () => {
  const cycle = (id: number, fields: Partial<RunMarker>, login = "my-app[bot]") => bot(id, renderMarker({ ...running, ...fields }), login);

  it("listRunsForBranch: the trusted runs that name the branch (refs/heads/ or not), newest first", () => {
    const comments = [
      cycle(10, { runId: 1, branches: ["agent/one"] }),
      cycle(20, { runId: 2, branches: ["agent/two", "agent/shared"] }),
      cycle(30, { runId: 3, branches: ["agent/shared"] }),
      human(40, renderMarker({ ...running, runId: 666, branches: ["agent/one"] })),
    ];
    expect(listRunsForBranch(comments, "agent/one", APP, PLACE)[0]?.marker.runId).toBe(1);
    expect(listRunsForBranch(comments, "refs/heads/agent/shared", APP, PLACE)[0]?.marker.runId).toBe(3);
    expect(listRunsForBranch(comments, "agent/shared", APP, PLACE).map((found) => found.marker.runId)).toEqual([3, 2]);
    expect(listRunsForBranch(comments, "main", APP, PLACE)).toEqual([]);
    // A queued request names no run yet.
    expect(listRunsForBranch([cycle(50, { runId: null, state: "queued", branches: ["agent/q"] })], "agent/q", APP, PLACE)).toEqual([]);
  });

  it("findLatestMarkerForRun: a restarted watcher sees whether the result was delivered", () => {
    const tracking = cycle(10, { runId: 5 });
    expect(findLatestMarkerForRun([tracking], 5, APP, PLACE)?.marker.state).toBe("running");
    const delivered = bot(10, renderMarker({ ...running, runId: 5, state: "done", outcome: "failed" }));
    expect(findLatestMarkerForRun([delivered], 5, APP, PLACE)?.marker.state).toBe("done");
    // After a follow-up resumed the run, the newer tracking comment is what counts.
    expect(findLatestMarkerForRun([delivered, cycle(20, { runId: 5 })], 5, APP, PLACE)?.commentId).toBe(20);
    expect(findLatestMarkerForRun([delivered], 6, APP, PLACE)).toBeNull();
  });

  it("findMarkerForRequest: a redelivered webhook finds the comment it already posted", () => {
    const comments = [cycle(10, { runId: null, state: "queued", requestId: "delivery-1" }), cycle(20, { requestId: "delivery-2" })];
    expect(findMarkerForRequest(comments, "delivery-1", APP, PLACE)?.commentId).toBe(10);
    expect(findMarkerForRequest(comments, "delivery-3", APP, PLACE)).toBeNull();
  });

  it("findTrustedComment: e.g. whether the pull request was already handed back", () => {
    const handBack = bindKindMarker("<!-- agent-run-bridge:hand_back -->\nhanded back", PLACE);
    expect(findTrustedComment([bot(10, handBack), bot(20, handBack), human(30, handBack)], "hand_back", APP, PLACE)?.id).toBe(20);
    expect(findTrustedComment([human(30, handBack)], "hand_back", APP, PLACE)).toBeNull();
  });

  it("a kind marker bound to another thread is not believed; a legacy one only for the kinds that hold back CI fixes", () => {
    const handBack = bindKindMarker("<!-- agent-run-bridge:hand_back -->\nhanded back", { ...PLACE, thread: PLACE.thread + 1 });
    expect(findTrustedComment([bot(10, handBack)], "hand_back", APP, PLACE)).toBeNull();
    const legacyStop = "<!-- agent-run-bridge:stop -->\nstopped";
    const legacyRefusal = "<!-- agent-run-bridge:refusal -->\n🚫 @x, no";
    expect(findTrustedComment([bot(11, legacyStop)], "stop", APP, PLACE)?.id).toBe(11);
    expect(findTrustedComment([bot(12, legacyRefusal)], "refusal", APP, PLACE)).toBeNull();
    expect(findTrustedComment([bot(13, bindKindMarker(legacyRefusal, PLACE))], "refusal", APP, PLACE)?.id).toBe(13);
    expect(LEGACY_KIND_MARKERS).toEqual({
      stop: "believed",
      hand_back: "ignored",
      refusal: "ignored",
      over_limit: "ignored",
      config_error: "ignored",
      service_error: "ignored",
    });
  });

  it("placeRelation: here (repository case-insensitively), elsewhere, or legacy", () => {
    expect(placeRelation({ repository: PLACE.repository.toUpperCase(), thread: PLACE.thread }, PLACE)).toBe("here");
    expect(placeRelation({ repository: PLACE.repository, thread: PLACE.thread + 1 }, PLACE)).toBe("elsewhere");
    expect(placeRelation(null, PLACE)).toBe("legacy");
  });
});

/** CI auto-fix: failing check suites on a pull request, the head-SHA guard, the attempt cap, forks. */
import { afterEach, describe, expect, it } from "vitest";
import { parseKindMarker, parseMarker } from "../../../src/core/markers/read.js";
import { parseCommentKind } from "../../helpers/comment-kind.js";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { FULL_NAME, checkSuiteCompletedPayload } from "../../helpers/app-payloads.js";
import { BOT_LOGIN, PR_HEAD_SHA, baseSeed, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

const AUTO_FIX = 'check_suite:\n  enabled: true\n  max_attempts: 2\n  ignore_checks: ["lint*"]\n';
const SHAS = [PR_HEAD_SHA, "b".repeat(40), "c".repeat(40), "d".repeat(40)];

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

/** A failing suite per head commit of PR #2: unit tests fail with an annotation, lint fails (ignored), build passes. */
function seedWithSuites(): FakeGitHubSeed {
  const seed = baseSeed();
  seed.checkSuites = SHAS.map((sha, index) => ({
    id: 700 + index,
    head_sha: sha,
    head_branch: "agent/fix-dates",
    conclusion: "failure" as const,
    check_runs: [
      {
        name: "unit tests",
        conclusion: "failure" as const,
        output: { title: "1 test failed", summary: "dates.test.ts: expected Tuesday, got Wednesday" },
        annotations: [{ path: "src/dates.test.ts", start_line: 12, message: "expected 'Tuesday' but received 'Wednesday'" }],
      },
      { name: "lint", conclusion: "failure" as const, output: { title: "2 warnings", summary: "style" } },
      { name: "build", conclusion: "success" as const },
    ],
  }));
  return seed;
}

const failure = (index: number, extra: Partial<Parameters<typeof checkSuiteCompletedPayload>[0]> = {}) =>
  checkSuiteCompletedPayload({
    id: 700 + index,
    conclusion: "failure",
    headSha: SHAS[index]!,
    headBranch: "agent/fix-dates",
    pullRequests: [{ number: 2 }],
    ...extra,
  });

describe("a failing check suite with auto-fix on", () => {
  it("fixes with GIT_HOST_CHECK_SUITE, never twice for one head commit, resumes its own run, then hands the PR back once", async () => {
    harness = await startAppHarness({ seed: seedWithSuites(), config: AUTO_FIX });
    // The fix run works on the pull request's own branch.
    harness.emulator.control.script({
      match: "CI failed",
      pullRequests: [{ title: "Fix the flaky date test", head_branch_name: "agent/fix-dates" }],
    });

    await harness.deliver("check_suite", failure(0));
    await harness.idle();
    const [create] = harness.service.creates();
    expect(harness.service.creates()).toHaveLength(1);
    expect(create!.metadata).toMatchObject({
      source_type: "GIT_HOST_CHECK_SUITE",
      trigger_flow: "check_suite",
      check_suite_id: 700,
      head_sha: SHAS[0],
      head_branch: "agent/fix-dates",
      pull_request_number: 2,
      conclusion: "failure",
    });
    const prompt = String(create!.prompt);
    expect(prompt).toContain("CI failed on pull request octo-org/widgets#2 (https://github.com/octo-org/widgets/pull/2), commit ");
    expect(prompt).toContain("head branch name (access unknown):\n```text\nagent/fix-dates\n```");
    expect(prompt).toContain("## Failed check 1 (failure)");
    expect(prompt).toContain("check run name (CI output):\n```text\nunit tests\n```");
    expect(prompt).toContain("check run title (CI output):\n```text\n1 test failed\n```");
    expect(prompt).toContain(
      "annotation (CI output):\n```text\nsrc/dates.test.ts:12 (failure): expected 'Tuesday' but received 'Wednesday'\n```",
    );
    expect(prompt).toContain("This is fix attempt 1 of 2.");
    expect(prompt).not.toContain("## Failed check 2");
    expect(harness.botComments(2).map((c) => parseMarker(c.body))).toMatchObject([{ sourceType: "GIT_HOST_CHECK_SUITE", state: "done" }]);
    // Annotations are read for the prompt of a run that starts, never for a failure that starts nothing.
    const annotationReads = () => harness.github.requests.filter((r) => r.path.endsWith("/annotations")).length;
    expect(annotationReads()).toBe(1);

    // The same head commit again (another suite, or a redelivery under a new id): nothing.
    const writes = harness.github.writes.length;
    await harness.deliver("check_suite", failure(0));
    await harness.idle();
    expect(harness.github.writes).toHaveLength(writes);
    expect(harness.service.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(annotationReads()).toBe(1);

    // A new commit fails: the run that works on this branch is resumed (attempt 2 of 2).
    const run = harness.emulator.control.runs()[0]!;
    await harness.deliver("check_suite", failure(1));
    await harness.idle();
    expect(harness.service.resumes().map((r) => r.agent_run_id)).toEqual([run.id]);
    expect(harness.service.resumes()[0]!.prompt).toContain("CI failed again on pull request octo-org/widgets#2");
    expect(harness.service.resumes()[0]!.prompt).toContain("This is fix attempt 2 of 2.");
    expect(annotationReads()).toBe(2);

    // A third failure: the cap is reached, one hand-back comment, no run.
    await harness.deliver("check_suite", failure(2));
    await harness.idle();
    const handBacks = harness.botComments(2).filter((c) => parseCommentKind(c.body) === "hand_back");
    expect(handBacks).toHaveLength(1);
    expect(handBacks[0]!.body).toContain("I tried to fix [this pull request](https://github.com/octo-org/widgets/pull/2) 2 times");
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toHaveLength(1);
    expect(annotationReads()).toBe(2);

    // A fourth: already handed back, silence.
    const before = harness.github.writes.length;
    await harness.deliver("check_suite", failure(3));
    await harness.idle();
    expect(harness.github.writes).toHaveLength(before);
    expect(harness.botComments(2)).toHaveLength(3);
  });

  it("stays quiet for a fork's pull request, a passing suite, its own suites, and when auto-fix is off", async () => {
    harness = await startAppHarness({ seed: seedWithSuites(), config: AUTO_FIX });
    await harness.deliver("check_suite", failure(0, { pullRequests: [{ number: 2, fromFork: true }] }));
    await harness.deliver("check_suite", failure(1, { conclusion: "success" }));
    await harness.deliver("check_suite", failure(2, { appSlug: "agent-run-bridge" }));
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    expect(harness.service.requests).toEqual([]);

    await harness.close();
    harness = await startAppHarness({ seed: seedWithSuites() });
    await harness.deliver("check_suite", failure(0));
    await harness.idle();
    expect(harness.github.writes).toEqual([]);
    expect(harness.service.requests).toEqual([]);
  });
});

describe("a stop reply belongs to its thread", () => {
  it("the bot's stop reply in an issue, copied into the pull request, does not pause its CI auto-fix; a stop said there does", async () => {
    harness = await startAppHarness({ seed: seedWithSuites(), config: AUTO_FIX });
    const say = async (thread: { number: number; title: string; pullRequest?: boolean }, body: string) => {
      expect((await harness.deliver("issue_comment", harness.humanComment(thread, body).payload)).status).toBe(200);
      await harness.idle();
    };
    await say({ number: 1, title: "Flaky date test" }, "/agent stop");
    const stop = harness.botComments(1).at(-1)!;
    expect(parseKindMarker(stop.body)).toEqual({ kind: "stop", place: { repository: FULL_NAME, thread: 1 } });
    // Echoed into the pull request under the bot's own login (the App's comments are the App's: only a copy of its own text).
    harness.github.seed({ issueComments: [{ issue_number: 2, user: BOT_LOGIN, body: stop.body, performed_via_github_app: true }] });

    await harness.deliver("check_suite", failure(0));
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);

    await say({ number: 2, title: "Fix the flaky date test", pullRequest: true }, "/agent stop");
    await harness.deliver("check_suite", failure(1));
    await harness.idle();
    expect(harness.service.creates()).toHaveLength(1);
    expect(harness.service.resumes()).toEqual([]);
  });
});

/**
 * A repository's `check_suite.branches` is written by whoever can push its config: a pattern built
 * to make a backtracking matcher explode must not stall the App, which serves every repository of
 * the installation from one process.
 */
import { afterEach, describe, expect, it } from "vitest";
import { checkSuiteCompletedPayload } from "../../helpers/app-payloads.js";
import { PR_HEAD_SHA, baseSeed, startAppHarness, type AppHarness } from "../../helpers/app-harness.js";

let harness: AppHarness;
afterEach(async () => {
  await harness?.close();
});

// A branch git accepts (well under 255 bytes) on which `*a*a…*b` backtracks for hours as a regular expression.
const BRANCH = `${"a".repeat(60)}c`;

describe("a hostile glob in check_suite.branches", () => {
  it("is matched in linear time: the next pattern matches and the fix run starts", async () => {
    const seed = baseSeed();
    seed.checkSuites = [
      {
        id: 700,
        head_sha: PR_HEAD_SHA,
        head_branch: BRANCH,
        conclusion: "failure",
        check_runs: [{ name: "unit tests", conclusion: "failure", output: { title: "1 test failed", summary: "boom" } }],
      },
    ];
    harness = await startAppHarness({
      seed,
      config: 'check_suite:\n  enabled: true\n  branches: ["*a*a*a*a*a*a*a*a*a*a*a*b", "**c"]\n',
    });
    const { status } = await harness.deliver(
      "check_suite",
      checkSuiteCompletedPayload({
        id: 700,
        conclusion: "failure",
        headSha: PR_HEAD_SHA,
        headBranch: BRANCH,
        pullRequests: [{ number: 2 }],
      }),
    );
    expect(status).toBe(200);
    await harness.idle();
    const creates = harness.service.creates();
    expect(creates).toHaveLength(1);
    expect(String(creates[0]!.prompt)).toContain(["head branch name (access unknown):", "```text", BRANCH, "```"].join("\n"));
  });
});

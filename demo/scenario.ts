/**
 * The demo's story as data: the repository it seeds, what the agent "does" at each step (emulator
 * scripts), and what people and CI send. Pure: demo.ts turns it into seeds and webhook deliveries.
 */
import type { RunScript } from "../src/emulator/index.js";
import { fakeSha, type CheckSuiteSeed, type FakeGitHubSeed, type ReviewSeed } from "../test/helpers/fake-github/index.js";
import { FULL_NAME, OWNER, REPO, REPO_ID, type PullSpec, type ThreadSpec } from "../test/helpers/app-payloads.js";

export { FULL_NAME, OWNER, REPO };

/** Emulated time runs 25× faster: the scripted 20–40 s runs take about a second each. */
export const DEMO_TIME_SCALE = 0.04;

export const MAINTAINER = "maintainer";
/** Who opens the agent's pull requests: the service's own git integration, not this App. */
export const SERVICE_GIT_USER = "agent-run-service[bot]";

export const ISSUE: Required<Pick<ThreadSpec, "number" | "title" | "body">> = {
  number: 1,
  title: "CSV export drops the last row",
  body: "Exporting a report to CSV loses its final line when the data has no trailing newline.",
};

/** CI fix attempts per pull request before the bot hands it back to people. */
export const MAX_FIX_ATTEMPTS = 2;

/**
 * `.github/agent-run.yml` of the demo repository: the defaults, plus CI auto-fix, and follow-ups that
 * reach a working agent at once (the demo's emulator takes them: `resumeWhileRunning: "interrupt"`).
 */
export const REPO_CONFIG = ["follow_up: interrupt", "check_suite:", "  enabled: true", `  max_attempts: ${MAX_FIX_ATTEMPTS}`, ""].join(
  "\n",
);

/** The instruction of the maintainer's course correction: what the tracking comment quotes. */
export const COURSE_CORRECTION = "keep the fix small: no new dependencies";

/** The texts people write, each with a phrase the matching emulator script keys on. */
export const TEXTS = {
  trigger: "/agent fix the CSV export: the last row goes missing",
  /** Written while the first run works: it reaches the agent at once (`follow_up: interrupt`). */
  courseCorrection: `/agent ${COURSE_CORRECTION}`,
  followUp: "/agent also cover an empty export (headers only)",
  review: "Please stream the rows instead of building one big string.",
  /** On the agent's pull request: review mode, one pull-request review with inline comments. */
  askReview: "/agent review the streaming change",
  reviewInline: "This buffers the whole file; write each row as it comes.",
} as const;

/** The failing CI on the agent's pull request: one failing check with annotations, one passing. */
export const FAILING_CHECK = {
  suiteId: 7001,
  name: "unit tests",
  title: "1 test failed",
  summary: "export.test.ts: 1 failed, 23 passed",
  annotation: { path: "src/export.test.ts", line: 42, message: "expected 3 rows with a CRLF export, got 2" },
} as const;

const REVIEW_ID = 9001;
const REVIEW_COMMENT_ID = 9101;

/** The pull request the first run opens (once the course correction has reached it). */
const FIRST_PULL_REQUEST = { title: "Keep the last CSV row when there is no trailing newline", head_branch_name: "agent/csv-last-row" };

/**
 * What the agent does at each step. Scripts match a phrase of their step's prompt; the resumes are
 * added first because a script's `match` is looked up in insertion order (a later prompt may quote
 * the thread's earlier comments). The first run is long enough for the course correction to reach
 * it while it works; that message shapes the rest of its work, which opens the pull request.
 */
export function agentScripts(): Array<Partial<RunScript> & { match: string }> {
  return [
    {
      match: "review the streaming change",
      durationMs: 18_000,
      logSteps: 6,
      pullRequests: [],
      summary: "Reviewed the streaming change: one thing to fix.",
      review: {
        summary: "The rows stream now; one line still buffers.",
        comments: [
          {
            path: REVIEWED_FILE,
            line: REVIEWED_LINE,
            body: "This still joins every row in memory; write each line to the stream.",
            suggestion: '  for (const row of rows) stream.write(toLine(row) + "\\n")',
          },
        ],
      },
    },
    {
      match: "cover an empty export",
      durationMs: 24_000,
      logSteps: 8,
      pullRequests: [],
      summary: "Added a test for an export with headers only; it passes without further changes.",
      result: "Pushed 1 commit to `agent/csv-last-row`: a test for a headers-only export.",
    },
    {
      match: TEXTS.review,
      durationMs: 30_000,
      logSteps: 10,
      pullRequests: [],
      summary: "Rows are now written to the stream one by one; memory stays flat on large reports.",
      result: "Pushed 1 commit to `agent/csv-last-row`: `exportCsv` writes each row as it is read.",
    },
    {
      match: FAILING_CHECK.annotation.path,
      durationMs: 22_000,
      logSteps: 8,
      pullRequests: [],
      summary: "Line endings are normalised before splitting, so CRLF exports keep their last row too.",
      result: "Pushed 1 commit to `agent/csv-last-row`; `src/export.test.ts` passes locally.",
    },
    {
      match: "no new dependencies",
      durationMs: 16_000,
      logSteps: 6,
      pullRequests: [FIRST_PULL_REQUEST],
      summary:
        "The row splitter dropped a final line without `\\n`. It now keeps it, with a regression test; as asked, the fix stays small and adds no dependency.",
      result: "Opened a pull request from `agent/csv-last-row` with the fix and a regression test.",
    },
    {
      match: "the last row goes missing",
      // Cut short by the course correction: the rest of the run follows the script above.
      durationMs: 90_000,
      logSteps: 12,
      pullRequests: [FIRST_PULL_REQUEST],
      summary: "The row splitter dropped a final line without `\\n`. It now keeps it, with a regression test.",
      result: "Opened a pull request from `agent/csv-last-row` with the fix and a regression test.",
    },
  ];
}

/** The service's side: it lists the demo repository, so the runs carry its repo_id without any configuration. */
export const SERVICE_REPOSITORIES = [{ id: 7, full_name: FULL_NAME, github_id: REPO_ID }];

/** The demo repository before anything happens: the issue, a maintainer with write access, the config. */
export function demoSeed(): FakeGitHubSeed {
  return {
    repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
    issues: [{ number: ISSUE.number, title: ISSUE.title, body: ISSUE.body, user: MAINTAINER }],
    collaborators: [{ login: MAINTAINER, permission: "write" }],
    files: [{ path: ".github/agent-run.yml", content: REPO_CONFIG }],
  };
}

/** The pull request the service opened for the run, as its git integration would on GitHub. */
export function producedPull(input: { number: number; title: string; branch: string }): PullSpec {
  return {
    number: input.number,
    title: input.title,
    headRef: input.branch,
    headSha: fakeSha(`${FULL_NAME}:${input.branch}`),
    body: "Opened by the agent run.",
  };
}

/** The file the review's finding is on, and its line: an added line of the pull request's diff. */
export const REVIEWED_FILE = "src/export.ts";
export const REVIEWED_LINE = 15;
const EXPORT_PATCH = [
  "@@ -15,3 +15,4 @@ export function exportCsv(rows, stream) {",
  '-  return rows.join("\\n")',
  '+  const out = rows.map(toLine).join("\\n")',
  "+  return out",
  "   // the last row is kept",
  " }",
].join("\n");

export function pullSeed(pr: PullSpec): FakeGitHubSeed {
  return {
    pulls: [
      {
        number: pr.number,
        title: pr.title,
        body: pr.body ?? "",
        head: { ref: pr.headRef, sha: pr.headSha },
        user: SERVICE_GIT_USER,
        patches: { [REVIEWED_FILE]: EXPORT_PATCH },
      },
    ],
  };
}

/** The maintainer's review requesting changes, with one inline comment (GitHub keeps both). */
export function reviewSeed(pr: PullSpec): { seed: FakeGitHubSeed; reviewId: number } {
  const review: ReviewSeed = {
    pull_number: pr.number,
    id: REVIEW_ID,
    user: MAINTAINER,
    state: "CHANGES_REQUESTED",
    body: TEXTS.review,
    commit_id: pr.headSha,
    comments: [
      {
        id: REVIEW_COMMENT_ID,
        path: "src/export.ts",
        line: 18,
        body: TEXTS.reviewInline,
        diff_hunk: '@@ -15,4 +15,6 @@\n-  return rows.join("\\n")\n+  const out = rows.map(toLine).join("\\n")\n+  return out',
      },
    ],
  };
  return { seed: { reviews: [review] }, reviewId: REVIEW_ID };
}

/** CI on the pull request's head commit: unit tests fail with an annotation, the build passes. */
export function failingSuiteSeed(pr: PullSpec): FakeGitHubSeed {
  const suite: CheckSuiteSeed = {
    id: FAILING_CHECK.suiteId,
    head_sha: pr.headSha,
    head_branch: pr.headRef,
    conclusion: "failure",
    check_runs: [
      {
        name: FAILING_CHECK.name,
        conclusion: "failure",
        output: { title: FAILING_CHECK.title, summary: FAILING_CHECK.summary },
        annotations: [
          { path: FAILING_CHECK.annotation.path, start_line: FAILING_CHECK.annotation.line, message: FAILING_CHECK.annotation.message },
        ],
      },
      { name: "build", conclusion: "success" },
    ],
  };
  return { checkSuites: [suite] };
}

import { describe, expect, it } from "vitest";
import type { FakeGitHubSeed } from "../../helpers/fake-github/index.js";
import { listFailedCheckRuns, listFailedJobs, readFailedJobLogs } from "../../../src/github/index.js";
import { tailBytes } from "../../../src/github/job-log.js";
import { unreadFailedJob } from "../../helpers/failed-job.js";
import { REPO, callSummary, octokitFor, startFake } from "./setup.js";

const many = (n: number, level: "failure" | "warning" | "notice") =>
  Array.from({ length: n }, (_, i) => ({
    path: `src/${level}${i}.ts`,
    start_line: i + 1,
    annotation_level: level,
    message: `${level} ${i}`,
  }));

const checksSeed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  checkSuites: [
    {
      id: 300,
      head_sha: "c".repeat(40),
      head_branch: "fix/crash",
      check_runs: [
        { id: 301, name: "build", conclusion: "success" },
        {
          id: 302,
          name: "test (ubuntu-latest, 20)",
          conclusion: "failure",
          output: { title: "2 tests failed", summary: "widget.test.ts failed" },
          annotations: [...many(3, "notice"), ...many(130, "warning"), ...many(4, "failure")],
        },
        { id: 303, name: "Lint / eslint", conclusion: "failure", output: { title: "lint" }, annotations: many(2, "failure") },
        { id: 304, name: "deploy-preview", conclusion: "timed_out" },
        { id: 305, name: "optional", conclusion: "cancelled" },
      ],
    },
  ],
};

describe("listFailedCheckRuns", () => {
  it("lists failed and timed-out runs not ignored, failure annotations first, bounded", async () => {
    const fake = await startFake(checksSeed);
    const failed = await listFailedCheckRuns(octokitFor(fake), REPO, 300, { ignore: ["lint*"], maxAnnotations: 5 });
    expect(failed.map((r) => [r.name, r.conclusion, r.annotations.length, r.annotationsTotal])).toEqual([
      ["test (ubuntu-latest, 20)", "failure", 5, 137],
      ["deploy-preview", "timed_out", 0, 0],
    ]);
    const test = failed[0]!;
    expect(test).toMatchObject({
      id: 302,
      title: "2 tests failed",
      summary: "widget.test.ts failed",
      htmlUrl: "https://github.com/acme/widgets/runs/302",
    });
    expect(test.annotations.map((a) => a.level)).toEqual(["failure", "failure", "failure", "failure", "warning"]);
    expect(test.annotations[0]).toEqual({
      path: "src/failure0.ts",
      startLine: 1,
      endLine: 1,
      level: "failure",
      title: null,
      message: "failure 0",
    });
    // Annotations were read in pages of 100 for the one failed run that has some; none for the ignored lint run.
    expect(callSummary(fake)).toEqual([
      "GET /repos/acme/widgets/check-suites/300/check-runs?filter=latest&per_page=100&page=1 → 200",
      "GET /repos/acme/widgets/check-runs/302/annotations?per_page=100&page=1 → 200",
      "GET /repos/acme/widgets/check-runs/302/annotations?per_page=100&page=2 → 200",
    ]);
  });

  it("does not read annotations when none are wanted, and returns nothing for a green suite", async () => {
    const fake = await startFake({
      ...checksSeed,
      checkSuites: [
        ...checksSeed.checkSuites!,
        { id: 400, head_sha: "d".repeat(40), check_runs: [{ name: "build", conclusion: "success" }] },
      ],
    });
    const octokit = octokitFor(fake);
    const failed = await listFailedCheckRuns(octokit, REPO, 300, { maxAnnotations: 0 });
    expect(failed.map((r) => r.name)).toEqual(["test (ubuntu-latest, 20)", "Lint / eslint", "deploy-preview"]);
    expect(await listFailedCheckRuns(octokit, REPO, 400)).toEqual([]);
    expect(fake.callsTo("GET", "/repos/acme/widgets/check-runs/**")).toEqual([]);
  });
});

const longLog = Array.from({ length: 400 }, (_, i) => `2024-05-01T12:00:00.0000000Z line ${i + 1}`).join("\n") + "\n";

const actionsSeed: FakeGitHubSeed = {
  repositories: [{ owner: "acme", name: "widgets" }],
  workflowRuns: [
    {
      id: 700,
      head_branch: "fix/crash",
      head_sha: "e".repeat(40),
      jobs: [
        { id: 701, name: "build", conclusion: "success", log: "all good\n" },
        {
          id: 702,
          name: "test",
          conclusion: "failure",
          steps: [{ name: "Set up job" }, { name: "Run npm test", conclusion: "failure" }, { name: "Post", conclusion: "skipped" }],
          log: longLog,
        },
        { id: 703, name: "e2e", conclusion: "failure", steps: [{ name: "Run e2e", conclusion: "failure" }], log: null },
        { id: 704, name: "lint", conclusion: "failure", log: "lint failed\n" },
      ],
    },
  ],
};

describe("listFailedJobs", () => {
  it("lists failed jobs with their failed steps and the tail of their logs (through GitHub's 302)", async () => {
    const fake = await startFake(actionsSeed);
    const jobs = await listFailedJobs(octokitFor(fake), REPO, 700, { maxLogBytes: 200, ignore: ["LINT"] });
    expect(jobs.map((j) => j.name)).toEqual(["test", "e2e"]);

    const test = jobs[0]!;
    expect(test.failedSteps).toEqual([{ number: 2, name: "Run npm test", conclusion: "failure" }]);
    expect(test.logTruncated).toBe(true);
    expect(Buffer.byteLength(test.logTail)).toBeLessThanOrEqual(200);
    expect(test.logTail.endsWith("line 400\n")).toBe(true);
    expect(test.logTail.startsWith("2024-05-01T12:00:00.0000000Z line ")).toBe(true);
    expect(test.logUnavailable).toBeNull();
    expect(test.htmlUrl).toBe("https://github.com/acme/widgets/actions/runs/700/job/702");

    // An expired log is a note, not a failure.
    expect(jobs[1]).toMatchObject({ name: "e2e", logTail: "", logTruncated: false });
    expect(jobs[1]!.logUnavailable).toContain("(410)");

    const summary = callSummary(fake);
    expect(summary).toEqual([
      "GET /repos/acme/widgets/actions/runs/700/jobs?filter=latest&per_page=100&page=1 → 200",
      "GET /repos/acme/widgets/actions/jobs/702/logs → 302",
      `GET /_fake/job-logs/702?sig=${fake.requests[2]!.query.sig} → 206`,
      `GET /_fake/job-logs/702?sig=${fake.requests[2]!.query.sig} → 206`,
      "GET /repos/acme/widgets/actions/jobs/703/logs → 410",
    ]);
    // The signed download needs no token, like GitHub's blob URL.
    expect(fake.requests[2]!.route).toBe("/_fake/job-logs/:job_id");
  });

  it("asks the download for its size, then for the tail alone; the token never goes there", async () => {
    const fake = await startFake(actionsSeed);
    const size = Buffer.byteLength(longLog);
    const [test] = await readFailedJobLogs(octokitFor(fake, "ghs_secret"), REPO, [unreadFailedJob(702)], 200);

    const downloads = fake.requests.filter((r) => r.route === "/_fake/job-logs/:job_id");
    expect(downloads.map((r) => r.auth)).toEqual(["none", "none"]);
    expect(fake.requests.find((r) => r.path.endsWith("/jobs/702/logs"))!.auth).not.toBe("none");
    expect(test).toMatchObject({ logTruncated: true, logUnavailable: null });
    expect(test!.logTail).toBe(tailBytes(longLog, 200).text);
    expect(fake.state.jobLogDownloads).toEqual([
      { jobId: 702, range: "bytes=0-0", status: 206, bytesSent: 1 },
      { jobId: 702, range: `bytes=${size - 200}-${size - 1}`, status: 206, bytesSent: 200 },
    ]);
  });

  it("reads the tail of a download that ignores ranges from its whole answer, in one request", async () => {
    const fake = await startFake(actionsSeed);
    fake.state.jobLogRanges = false;
    const [test] = await readFailedJobLogs(octokitFor(fake), REPO, [unreadFailedJob(702)], 200);

    expect(test).toMatchObject({ logTail: tailBytes(longLog, 200).text, logTruncated: true, logUnavailable: null });
    expect(fake.state.jobLogDownloads).toEqual([{ jobId: 702, range: "bytes=0-0", status: 200, bytesSent: Buffer.byteLength(longLog) }]);
  });

  it("reads a log shorter than the tail whole, an empty one as empty (416), and says when the download refuses", async () => {
    const fake = await startFake(actionsSeed);
    fake.seed({
      workflowRuns: [
        { id: 710, head_branch: "main", head_sha: "f".repeat(40), jobs: [{ id: 711, name: "empty", conclusion: "failure", log: "" }] },
      ],
    });
    fake.injectFault({ method: "GET", path: "/_fake/job-logs/704", status: 403, body: "AuthenticationFailed" });
    const [short, empty] = await readFailedJobLogs(octokitFor(fake), REPO, [unreadFailedJob(701), unreadFailedJob(711)], 200);
    const [refused] = await readFailedJobLogs(octokitFor(fake), REPO, [unreadFailedJob(704)], 200);

    expect(short).toMatchObject({ logTail: "all good\n", logTruncated: false, logUnavailable: null });
    expect(empty).toMatchObject({ logTail: "", logTruncated: false, logUnavailable: null });
    expect(fake.state.jobLogDownloads.map((d) => [d.jobId, d.range, d.status])).toEqual([
      [701, "bytes=0-0", 206],
      [701, "bytes=0-8", 206],
      [711, "bytes=0-0", 416],
    ]);
    expect(refused).toMatchObject({ logTail: "", logTruncated: false });
    expect(refused!.logUnavailable).toBe("the log download answered 403 Forbidden while downloading the log of job 704");
  });

  it("keeps a short log whole", async () => {
    const fake = await startFake(actionsSeed);
    const jobs = await listFailedJobs(octokitFor(fake), REPO, 700, { maxLogBytes: 1_000_000 });
    expect(jobs.find((j) => j.name === "lint")).toMatchObject({ logTail: "lint failed\n", logTruncated: false });
    expect(jobs.find((j) => j.name === "test")!.logTail).toBe(longLog);
  });

  it("lists without downloading a log when maxLogBytes is 0, and readFailedJobLogs reads them later", async () => {
    const fake = await startFake(actionsSeed);
    const listed = await listFailedJobs(octokitFor(fake), REPO, 700, { maxLogBytes: 0 });
    expect(listed.map((j) => [j.name, j.logTail, j.logUnavailable])).toEqual([
      ["test", "", null],
      ["e2e", "", null],
      ["lint", "", null],
    ]);
    expect(callSummary(fake)).toEqual(["GET /repos/acme/widgets/actions/runs/700/jobs?filter=latest&per_page=100&page=1 → 200"]);

    const read = await readFailedJobLogs(octokitFor(fake), REPO, listed, 1_000_000);
    expect(read.find((j) => j.name === "lint")!.logTail).toBe("lint failed\n");
    expect(fake.requests.filter((r) => r.path.endsWith("/logs"))).toHaveLength(3);
  });
});

describe("tailBytes", () => {
  it("cuts on bytes, never inside a character, and starts at a full line", () => {
    expect(tailBytes("ab\ncd\n", 100)).toEqual({ text: "ab\ncd\n", truncated: false });
    expect(tailBytes("first line\nsecond\n", 9)).toEqual({ text: "second\n", truncated: true });
    const cut = tailBytes("xx\nééé", 5);
    expect(cut.truncated).toBe(true);
    expect(cut.text).toBe("éé");
  });
});

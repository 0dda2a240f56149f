import type { FailedJob } from "../../src/github/checks.js";

/** A failed job as listFailedJobs gives it before its log is read (no steps, no link). */
export function unreadFailedJob(id: number, name = `job ${id}`): FailedJob {
  return {
    id,
    name,
    conclusion: "failure",
    htmlUrl: null,
    failedSteps: [],
    logTail: "",
    logTruncated: false,
    logUnavailable: null,
  };
}

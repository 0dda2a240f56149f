/**
 * What failed in CI, for a prompt that asks the agent to fix it: failed check runs of a check suite
 * with their annotations (the App), failed jobs of a workflow run with their steps and the tail of
 * their logs (the Action).
 */
import { firstMatchingGlob } from "../config/glob.js";
import { collectPages, type GitHubClient, type PageParams, type RepoRef } from "./client.js";
import { readJobLogTail } from "./job-log.js";

/** Conclusions that mean "the code needs fixing" (cancelled, skipped, action_required do not). */
const FAILED_CONCLUSIONS: readonly string[] = ["failure", "timed_out", "startup_failure"];
const DEFAULT_MAX_ANNOTATIONS = 20;
export const DEFAULT_MAX_LOG_BYTES = 20_000;
/** Upper bound on check runs or jobs read from one suite or workflow run. */
const MAX_LISTED = 500;

/** Check and job names compare like the config's `ignore_checks`: case-insensitive, `*` crosses `/`. */
function isIgnored(name: string, ignore: readonly string[]): boolean {
  return firstMatchingGlob(name, ignore, { pathAware: false, ignoreCase: true }) !== undefined;
}

/** A page of a check suite's runs or a workflow run's jobs, of their latest attempt only. */
type LatestPageParams = { filter: "latest" } & PageParams;

/**
 * The check runs or jobs of the latest attempt (at most MAX_LISTED) that failed in a way code can
 * fix and that `ignore_checks` does not name, in GitHub's order.
 */
async function listLatestFailures<T extends { name: string; conclusion: string | null }>(
  doing: string,
  ignore: readonly string[],
  fetchPage: (paging: LatestPageParams) => Promise<{ items: T[]; link: string | undefined }>,
): Promise<(T & { conclusion: string })[]> {
  const listed = await collectPages(doing, (paging) => fetchPage({ filter: "latest", ...paging }), MAX_LISTED);
  return listed.filter(
    (item): item is T & { conclusion: string } =>
      !!item.conclusion && FAILED_CONCLUSIONS.includes(item.conclusion) && !isIgnored(item.name, ignore),
  );
}

interface CheckAnnotation {
  path: string;
  startLine: number;
  endLine: number;
  level: string;
  title: string | null;
  message: string;
}

export interface FailedCheckRun {
  id: number;
  name: string;
  conclusion: string;
  title: string | null;
  summary: string | null;
  text: string | null;
  htmlUrl: string | null;
  /** Failure-level annotations first, at most `maxAnnotations`. */
  annotations: CheckAnnotation[];
  /** How many annotations the run has in all. */
  annotationsTotal: number;
}

const LEVEL_ORDER: Record<string, number> = { failure: 0, warning: 1, notice: 2 };

export async function listFailedCheckRuns(
  octokit: GitHubClient,
  repo: RepoRef,
  checkSuiteId: number,
  options: { ignore?: readonly string[]; maxAnnotations?: number } = {},
): Promise<FailedCheckRun[]> {
  const ignore = options.ignore ?? [];
  const maxAnnotations = options.maxAnnotations ?? DEFAULT_MAX_ANNOTATIONS;
  const where = `${repo.owner}/${repo.repo}`;
  const runs = await listLatestFailures(`listing the check runs of check suite ${checkSuiteId} in ${where}`, ignore, async (paging) => {
    const response = await octokit.request("GET /repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs", {
      ...repo,
      check_suite_id: checkSuiteId,
      ...paging,
    });
    return { items: response.data.check_runs, link: response.headers.link };
  });

  const listedRuns: FailedCheckRun[] = runs.map((run) => ({
    id: Number(run.id),
    name: run.name,
    conclusion: run.conclusion,
    title: run.output.title ?? null,
    summary: run.output.summary ?? null,
    text: run.output.text ?? null,
    htmlUrl: run.html_url ?? run.details_url ?? null,
    annotations: [],
    annotationsTotal: run.output.annotations_count,
  }));
  return readCheckRunAnnotations(octokit, repo, listedRuns, maxAnnotations);
}

/**
 * The same check runs with their annotations read (failures first, at most `maxAnnotations` each).
 * Apart from listing, so that a caller can decide on the list alone and read annotations only for a run it starts.
 */
export async function readCheckRunAnnotations(
  octokit: GitHubClient,
  repo: RepoRef,
  runs: readonly FailedCheckRun[],
  maxAnnotations: number = DEFAULT_MAX_ANNOTATIONS,
): Promise<FailedCheckRun[]> {
  const read: FailedCheckRun[] = [];
  for (const run of runs) {
    const total = run.annotationsTotal;
    const annotations = total > 0 && maxAnnotations > 0 ? await listAnnotations(octokit, repo, run.id, total, maxAnnotations) : [];
    read.push({ ...run, annotations });
  }
  return read;
}

async function listAnnotations(
  octokit: GitHubClient,
  repo: RepoRef,
  checkRunId: number,
  total: number,
  max: number,
): Promise<CheckAnnotation[]> {
  // Read enough to choose the failures first, but never more than a few pages.
  const wanted = Math.min(total, Math.max(max, 300));
  const items = await collectPages(
    `listing the annotations of check run ${checkRunId}`,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations", {
        ...repo,
        check_run_id: checkRunId,
        ...paging,
      });
      return { items: response.data, link: response.headers.link };
    },
    wanted,
  );
  return items
    .map((a) => ({
      path: a.path,
      startLine: a.start_line,
      endLine: a.end_line,
      level: a.annotation_level ?? "notice",
      title: a.title,
      message: a.message ?? "",
    }))
    .sort((a, b) => (LEVEL_ORDER[a.level] ?? 3) - (LEVEL_ORDER[b.level] ?? 3))
    .slice(0, max);
}

export interface FailedJob {
  id: number;
  name: string;
  conclusion: string;
  htmlUrl: string | null;
  failedSteps: { number: number; name: string; conclusion: string }[];
  /** The last `maxLogBytes` bytes of the job's log, starting at a line boundary when cut. */
  logTail: string;
  logTruncated: boolean;
  /** Why there is no log (expired, no access), or null. */
  logUnavailable: string | null;
}

export async function listFailedJobs(
  octokit: GitHubClient,
  repo: RepoRef,
  workflowRunId: number,
  options: { maxLogBytes?: number; ignore?: readonly string[] } = {},
): Promise<FailedJob[]> {
  const maxLogBytes = options.maxLogBytes ?? DEFAULT_MAX_LOG_BYTES;
  const ignore = options.ignore ?? [];
  const jobs = await listLatestFailures(
    `listing the jobs of workflow run ${workflowRunId} in ${repo.owner}/${repo.repo}`,
    ignore,
    async (paging) => {
      const response = await octokit.request("GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs", {
        ...repo,
        run_id: workflowRunId,
        ...paging,
      });
      return { items: response.data.jobs, link: response.headers.link };
    },
  );

  const listedJobs: FailedJob[] = jobs.map((job) => ({
    id: Number(job.id),
    name: job.name,
    conclusion: job.conclusion,
    htmlUrl: job.html_url,
    failedSteps: (job.steps ?? [])
      .filter((s) => s.conclusion !== null && FAILED_CONCLUSIONS.includes(s.conclusion))
      .map((s) => ({ number: s.number, name: s.name, conclusion: s.conclusion as string })),
    logTail: "",
    logTruncated: false,
    logUnavailable: null,
  }));
  return readFailedJobLogs(octokit, repo, listedJobs, maxLogBytes);
}

/**
 * The same jobs with the last `maxLogBytes` of each log read (one download per job; none when
 * `maxLogBytes` is 0). Apart from listing, so that a caller can decide on the list alone and download
 * logs only for a run it starts.
 */
export async function readFailedJobLogs(
  octokit: GitHubClient,
  repo: RepoRef,
  jobs: readonly FailedJob[],
  maxLogBytes: number = DEFAULT_MAX_LOG_BYTES,
): Promise<FailedJob[]> {
  if (maxLogBytes <= 0) return [...jobs];
  const read: FailedJob[] = [];
  for (const job of jobs) {
    const log = await readJobLogTail(octokit, repo, job.id, maxLogBytes);
    read.push({ ...job, logTail: log.text, logTruncated: log.truncated, logUnavailable: log.unavailable });
  }
  return read;
}

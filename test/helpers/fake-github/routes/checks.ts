/** Check suites, check runs and annotations; workflow runs, jobs and job-log downloads. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendJobLog } from "../job-log-download.js";
import { notFound, paginate, queryOf } from "../http.js";
import { renderAnnotation, renderCheckRun, renderJob, renderWorkflowRun } from "../render.js";
import type { FakeCheckRun, FakeCheckSuite } from "../state.js";
import { intParam, repositoryOf, type RouteContext } from "./context.js";

/** Path of the signed, token-free download the log endpoint redirects to (like GitHub's blob URLs). */
export const JOB_LOG_DOWNLOAD_PATH = "/_fake/job-logs";

export function registerCheckRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const suiteOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { check_suite_id?: string }).check_suite_id);
    const suite = found && ctx.state.checkSuites.find((s) => s.repo === found.key && s.id === id);
    return suite ?? undefined;
  };
  const runOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { check_run_id?: string }).check_run_id);
    if (!found) return undefined;
    for (const suite of ctx.state.checkSuites.filter((s) => s.repo === found.key)) {
      const run = suite.check_runs.find((r) => r.id === id);
      if (run) return { suite, run };
    }
    return undefined;
  };
  /** GitHub's check-run list filters: check_name, status, filter=latest|all (latest by default). */
  const listRuns = (request: FastifyRequest, pairs: { suite: FakeCheckSuite; run: FakeCheckRun }[]) => {
    const query = queryOf(request);
    let selected = pairs
      .filter((p) => query.check_name === undefined || p.run.name === query.check_name)
      .filter((p) => query.status === undefined || p.run.status === query.status);
    if (query.filter !== "all") {
      const latest = new Map<string, { suite: FakeCheckSuite; run: FakeCheckRun }>();
      for (const p of selected) {
        const seen = latest.get(p.run.name);
        if (!seen || seen.run.id < p.run.id) latest.set(p.run.name, p);
      }
      selected = selected.filter((p) => latest.get(p.run.name) === p);
    }
    return selected;
  };

  app.get("/repos/:owner/:repo/check-suites/:check_suite_id", async (request, reply) => {
    const suite = suiteOf(request);
    if (!suite) return notFound(reply);
    return {
      id: suite.id,
      head_branch: suite.head_branch,
      head_sha: suite.head_sha,
      status: suite.status,
      conclusion: suite.conclusion,
      app: suite.app,
      latest_check_runs_count: suite.check_runs.length,
      check_runs_url: `${ctx.api}/repos/${suite.repo}/check-suites/${suite.id}/check-runs`,
    };
  });

  app.get("/repos/:owner/:repo/check-suites/:check_suite_id/check-runs", async (request, reply) => {
    const suite = suiteOf(request);
    if (!suite) return notFound(reply);
    const selected = listRuns(
      request,
      suite.check_runs.map((run) => ({ suite, run })),
    );
    const page = paginate(request, reply, ctx.api, selected);
    return { total_count: selected.length, check_runs: page.map((p) => renderCheckRun(ctx, p.suite, p.run)) };
  });

  app.get("/repos/:owner/:repo/commits/:ref/check-runs", async (request, reply) => {
    const found = repositoryOf(ctx, request);
    if (!found) return notFound(reply);
    const { ref } = request.params as { ref: string };
    const suites = ctx.state.checkSuites.filter((s) => s.repo === found.key && (s.head_sha === ref || s.head_branch === ref));
    const selected = listRuns(
      request,
      suites.flatMap((suite) => suite.check_runs.map((run) => ({ suite, run }))),
    );
    const page = paginate(request, reply, ctx.api, selected);
    return { total_count: selected.length, check_runs: page.map((p) => renderCheckRun(ctx, p.suite, p.run)) };
  });

  app.get("/repos/:owner/:repo/check-runs/:check_run_id", async (request, reply) => {
    const found = runOf(request);
    return found ? renderCheckRun(ctx, found.suite, found.run) : notFound(reply);
  });

  app.get("/repos/:owner/:repo/check-runs/:check_run_id/annotations", async (request, reply) => {
    const found = runOf(request);
    if (!found) return notFound(reply);
    return paginate(request, reply, ctx.api, found.run.annotations).map((a) => renderAnnotation(ctx, found.suite, a));
  });

  const workflowRunOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { run_id?: string }).run_id);
    return (found && ctx.state.workflowRuns.find((w) => w.repo === found.key && w.id === id)) || undefined;
  };
  const jobOf = (request: FastifyRequest) => {
    const found = repositoryOf(ctx, request);
    const id = intParam((request.params as { job_id?: string }).job_id);
    if (!found) return undefined;
    for (const run of ctx.state.workflowRuns.filter((w) => w.repo === found.key)) {
      const job = run.jobs.find((j) => j.id === id);
      if (job) return { run, job };
    }
    return undefined;
  };

  app.get("/repos/:owner/:repo/actions/runs/:run_id", async (request, reply) => {
    const run = workflowRunOf(request);
    return run ? renderWorkflowRun(ctx, run) : notFound(reply);
  });

  app.get("/repos/:owner/:repo/actions/runs/:run_id/jobs", async (request, reply) => {
    const run = workflowRunOf(request);
    if (!run) return notFound(reply);
    const page = paginate(request, reply, ctx.api, run.jobs);
    return { total_count: run.jobs.length, jobs: page.map((job) => renderJob(ctx, run, job)) };
  });

  app.get("/repos/:owner/:repo/actions/jobs/:job_id", async (request, reply) => {
    const found = jobOf(request);
    return found ? renderJob(ctx, found.run, found.job) : notFound(reply);
  });

  app.get("/repos/:owner/:repo/actions/jobs/:job_id/logs", async (request, reply) => {
    const found = jobOf(request);
    if (!found) return notFound(reply);
    if (found.job.log === null) {
      return reply
        .code(410)
        .send({ message: "Gone", documentation_url: "https://docs.github.com/rest/actions/workflow-jobs", status: "410" });
    }
    const location = `${ctx.downloads}${JOB_LOG_DOWNLOAD_PATH}/${found.job.id}?sig=${ctx.downloadSignature}`;
    return reply.code(302).header("location", location).send();
  });

  app.get(`${JOB_LOG_DOWNLOAD_PATH}/:job_id`, { config: { public: true } }, async (request, reply) => {
    const id = intParam((request.params as { job_id: string }).job_id);
    if (queryOf(request).sig !== ctx.downloadSignature) return reply.code(403).type("text/plain").send("Signature invalid");
    const job = ctx.state.workflowRuns.flatMap((w) => w.jobs).find((j) => j.id === id);
    if (!job || job.log === null) return reply.code(404).type("text/plain").send("Not found");
    return sendJobLog(ctx.state, job.id, job.log, request.headers.range, reply);
  });
}

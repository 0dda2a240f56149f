import { describe, expect, it } from "vitest";
import { API_ROUTES, buildEmulator } from "../../src/emulator/index.js";
import type { ApiRouteName } from "../../src/emulator/index.js";
import { AGENT_TYPES, API_PATHS, AgentRunSchema, AgentRunWithLogsSchema, SOURCE } from "../../src/service/wire.js";
import { call, createRun, emulator, finishAllRuns, getRun, resumeRun, runLogs } from "./helpers.js";

const ROUTE_NAMES = Object.keys(API_PATHS) as ApiRouteName[];

describe("routes follow API_PATHS", () => {
  it("has one fastify route per API path, at the path API_PATHS builds", async () => {
    const { app } = buildEmulator();
    await app.ready();
    expect(Object.keys(API_ROUTES).sort()).toEqual([...ROUTE_NAMES].sort());
    for (const name of ROUTE_NAMES) {
      const route = API_ROUTES[name];
      expect(app.hasRoute({ method: route.method, url: route.url }), `${name} ${route.url}`).toBe(true);
    }
    // The pattern, filled with ids, is exactly the path API_PATHS gives.
    const fill = (url: string) => url.replace(":org_id", "7").replace(":agent_run_id", "42");
    expect(fill(API_ROUTES.createRun.url)).toBe(API_PATHS.createRun(7));
    expect(fill(API_ROUTES.getRun.url)).toBe(API_PATHS.getRun(7, 42));
    expect(fill(API_ROUTES.resumeRun.url)).toBe(API_PATHS.resumeRun(7));
    expect(fill(API_ROUTES.runLogs.url)).toBe(API_PATHS.runLogs(7, 42));
    await app.close();
  });

  it("routes a real request on each API path to its handler", async () => {
    const emu = await emulator();
    const run = await createRun(emu, { prompt: "route check" });
    finishAllRuns(emu);
    await getRun(emu, run.body.id);
    await runLogs(emu, run.body.id);
    await resumeRun(emu, run.body.id, "again");
    expect(emu.control.stats().byRoute).toEqual({ createRun: 1, getRun: 1, runLogs: 1, resumeRun: 1 });
  });
});

describe("create", () => {
  it("answers the run object of spec §2.1, source API, metadata as sent", async () => {
    const emu = await emulator();
    const metadata = { source_type: SOURCE.gitHost, issue: { number: 12 }, tags: ["a"] };
    const answer = await createRun(emu, {
      prompt: "Add a health check endpoint",
      metadata,
      repo_id: 5,
      model: "big-model",
      agent_type: AGENT_TYPES[0],
      images: ["data:image/png;base64,iVBORw0KGgo="],
    });
    expect(answer.status).toBe(200);
    const run = answer.body;
    expect(AgentRunSchema.parse(run)).toBeTruthy();
    expect(Object.keys(run).sort()).toEqual(
      [
        "created_at",
        "git_host_pull_requests",
        "id",
        "metadata",
        "organization_id",
        "result",
        "source_type",
        "status",
        "summary",
        "web_url",
      ].sort(),
    );
    expect(run).toMatchObject({
      organization_id: emu.orgId,
      status: "queued",
      source_type: SOURCE.api,
      metadata,
      result: null,
      summary: null,
      git_host_pull_requests: [],
      web_url: `${emu.url}/runs/${run.id}`,
    });
    expect(Number.isNaN(Date.parse(run.created_at!))).toBe(false);
    expect(run.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("gives increasing ids and null metadata when none is sent", async () => {
    const emu = await emulator();
    const first = await createRun(emu, { prompt: "one" });
    const second = await createRun(emu, { prompt: "two", metadata: null });
    expect(second.body.id).toBeGreaterThan(first.body.id);
    expect(first.body.metadata).toBeNull();
    expect(second.body.metadata).toBeNull();
  });
});

describe("get", () => {
  it("returns the run, and its outcome with one pull request once completed", async () => {
    const emu = await emulator();
    const created = await createRun(emu, { prompt: "Refactor the billing module" });
    finishAllRuns(emu);
    const answer = await getRun(emu, created.body.id);
    expect(answer.status).toBe(200);
    const run = answer.body;
    expect(run.status).toBe("completed");
    expect(run.summary).toContain("Refactor the billing module");
    expect(run.result).toContain("agent/run-");
    expect(run.git_host_pull_requests).toHaveLength(1);
    const pr = run.git_host_pull_requests![0]!;
    expect(pr).toEqual({
      id: expect.any(Number),
      title: expect.stringContaining("Refactor the billing module"),
      url: `${emu.url}/fake-git-host/pr/${pr.id}`,
      created_at: expect.stringMatching(/Z$/),
      head_branch_name: `agent/run-${run.id}`,
    });
    expect(run.result).toContain(pr.url);
  });
});

describe("logs", () => {
  it("answers AgentRunWithLogsResponse with exactly the spec's fields", async () => {
    const emu = await emulator();
    const created = await createRun(emu, { prompt: "Explain the cache layer" });
    finishAllRuns(emu);
    const answer = await runLogs(emu, created.body.id);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      ["created_at", "id", "logs", "organization_id", "page", "pages", "result", "size", "status", "total_logs", "web_url"].sort(),
    );
    const page = AgentRunWithLogsSchema.parse(answer.body);
    expect(page).toMatchObject({ id: created.body.id, status: "completed", total_logs: 12, page: 1, size: 100, pages: 1 });
    for (const entry of page.logs) {
      expect(Object.keys(entry).sort()).toEqual(
        ["agent_run_id", "created_at", "message_type", "observation", "thought", "tool_input", "tool_name", "tool_output"].sort(),
      );
      expect(entry.agent_run_id).toBe(created.body.id);
    }
  });
});

describe("resume", () => {
  it("appends the prompt as USER_MESSAGE, runs again, then completes with more logs", async () => {
    const emu = await emulator();
    const created = await createRun(emu, { prompt: "Add input validation to the signup form" });
    finishAllRuns(emu);
    const before = await runLogs(emu, created.body.id);
    expect(before.body.total_logs).toBe(12);

    const resumed = await resumeRun(emu, created.body.id, "Please also cover the email field");
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: created.body.id, status: "running", result: null, summary: null });
    expect(AgentRunSchema.parse(resumed.body).git_host_pull_requests).toHaveLength(1);

    const during = await runLogs(emu, created.body.id);
    expect(during.body.total_logs).toBe(13);
    expect(during.body.logs.at(-1)).toMatchObject({ message_type: "USER_MESSAGE", observation: "Please also cover the email field" });

    finishAllRuns(emu);
    const after = await runLogs(emu, created.body.id);
    expect(after.body.status).toBe("completed");
    expect(after.body.total_logs).toBe(24);
    expect(after.body.logs.at(-1)?.message_type).toBe("FINAL_ANSWER");
    const run = await getRun(emu, created.body.id);
    expect(run.body.summary).toContain("Please also cover the email field");
    // Without a script of its own, a follow-up updates the existing branch instead of opening a PR.
    expect(run.body.git_host_pull_requests).toHaveLength(1);
    expect(emu.control.stats()).toMatchObject({ runsCreated: 1, runsResumed: 1 });
  });

  it("opens another pull request when the follow-up is scripted to", async () => {
    const emu = await emulator();
    const created = await createRun(emu, { prompt: "first" });
    finishAllRuns(emu);
    emu.control.script({ match: "second PR", pullRequests: [{ title: "Follow-up", head_branch_name: "agent/follow-up" }] });
    await resumeRun(emu, created.body.id, "open a second PR please");
    finishAllRuns(emu);
    const run = await getRun(emu, created.body.id);
    expect(run.body.git_host_pull_requests?.map((p) => p.head_branch_name)).toEqual([`agent/run-${created.body.id}`, "agent/follow-up"]);
  });

  it("answers the run through /_emulator/runs and the control alike", async () => {
    const emu = await emulator();
    await createRun(emu, { prompt: "listed" });
    const listed = await call<unknown[]>(emu, "GET", "/_emulator/runs", { token: null });
    expect(listed.body).toEqual(emu.control.runs());
    expect(listed.body).toHaveLength(1);
  });
});

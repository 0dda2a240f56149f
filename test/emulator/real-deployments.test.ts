/**
 * What real deployments of the service do beyond the spec, as the emulator serves it over HTTP:
 * FastAPI's error shapes (422 and `{message, status_code}`), the logs under `/v1/alpha/`, the
 * organization's runs and repositories, each optional endpoint switchable off.
 */
import { describe, expect, it } from "vitest";
import { API_PATHS } from "../../src/service/wire.js";
import { call, createRun, emulator, getRun, issueLocations, resumeRun, runLogs } from "./helpers.js";

describe("errorStyle: fastapi answers as real deployments do", () => {
  it("validation failures are 422 with FastAPI's detail list, in the body and for malformed JSON", async () => {
    const emu = await emulator({ errorStyle: "fastapi" });
    const missing = await createRun(emu, { agent_type: "robot" });
    expect(missing.status).toBe(422);
    expect(issueLocations(missing.body)).toEqual(expect.arrayContaining(["body.prompt", "body.agent_type"]));
    const malformed = await call(emu, "POST", API_PATHS.createRun(emu.orgId), {
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(422);
    expect(issueLocations(malformed.body)).toEqual(["body"]);
    const badQuery = await call(emu, "GET", `${API_PATHS.listRuns(emu.orgId)}?limit=500`);
    expect(badQuery.status).toBe(422);
    expect(issueLocations(badQuery.body)).toEqual(["query.limit"]);
  });

  it("other errors are {message, status_code}: 401, 403, 404, 409, 429", async () => {
    const emu = await emulator({ errorStyle: "fastapi", tokens: [{ token: "t-one", orgIds: [1] }], timeScale: 0.001 });
    expect((await getRun(emu, 1, { token: "wrong" })).body).toEqual({
      message: expect.stringContaining("invalid API token"),
      status_code: 401,
    });
    expect((await call(emu, "GET", API_PATHS.getRun(2, 1))).body).toEqual({
      message: expect.stringContaining("organization 2"),
      status_code: 403,
    });
    expect((await getRun(emu, 99)).body).toEqual({ message: "Agent run not found.", status_code: 404 });
    emu.control.script({ durationMs: 3_600_000 });
    const run = await createRun(emu, { prompt: "long" });
    expect((await resumeRun(emu, run.body.id, "more")).body).toEqual({
      message: expect.stringContaining("still running"),
      status_code: 409,
    });
    emu.control.setFaults({ rateLimitStorm: { count: 1 } });
    const limited = await getRun(emu, run.body.id);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.stringContaining("rate limit exceeded"), status_code: 429 });
  });

  it("the spec style keeps 400 and {detail}", async () => {
    const emu = await emulator();
    expect((await createRun(emu, {})).status).toBe(400);
    expect((await getRun(emu, 99)).body).toEqual({ detail: "agent run 99 not found" });
  });
});

describe("the logs endpoint on both paths", () => {
  it("serves the same page at the spec's path and under /v1/alpha/", async () => {
    const emu = await emulator();
    const run = await createRun(emu, { prompt: "p" });
    emu.control.advanceTime(60_000);
    const spec = await runLogs(emu, run.body.id, "?limit=5");
    const alpha = await call(emu, "GET", `${API_PATHS.runLogsAlpha(emu.orgId, run.body.id)}?limit=5`);
    expect(alpha.status).toBe(200);
    expect(alpha.body).toEqual(spec.body);
    expect(emu.control.stats().byRoute).toMatchObject({ runLogs: 1, runLogsAlpha: 1 });
  });

  it("either path can be switched off: it answers 404 Not Found, counted, before any other check", async () => {
    const emu = await emulator({ endpoints: { logs: ["alpha"] } });
    const run = await createRun(emu, { prompt: "p" });
    const off = await runLogs(emu, run.body.id, "", { token: null });
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ detail: "Not Found" });
    expect((await call(emu, "GET", API_PATHS.runLogsAlpha(emu.orgId, run.body.id))).status).toBe(200);
    emu.control.setEndpoints({ logs: ["spec"] });
    expect((await call(emu, "GET", API_PATHS.runLogsAlpha(emu.orgId, run.body.id))).status).toBe(404);
    expect((await runLogs(emu, run.body.id)).status).toBe(200);
    expect(emu.control.stats().byRoute).toMatchObject({ runLogs: 2, runLogsAlpha: 2 });
  });
});

describe("the organization's runs", () => {
  it("lists runs newest first in pages of {items, total, page, size, pages}, with their metadata", async () => {
    const emu = await emulator({ rateLimits: false });
    for (let i = 1; i <= 7; i++) await createRun(emu, { prompt: `task ${i}`, metadata: { n: i } });
    const first = await call<{
      items: Array<{ id: number; metadata: { n: number } }>;
      total: number;
      page: number;
      size: number;
      pages: number;
    }>(emu, "GET", `${API_PATHS.listRuns(emu.orgId)}?limit=3`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 7, page: 1, size: 3, pages: 3 });
    expect(first.body.items.map((r) => r.metadata.n)).toEqual([7, 6, 5]);
    const last = await call<{ items: Array<{ id: number }>; page: number }>(emu, "GET", `${API_PATHS.listRuns(emu.orgId)}?skip=6&limit=3`);
    expect(last.body.items.map((r) => r.id)).toEqual([1]);
    expect(last.body.page).toBe(3);
  });

  it("filters by user_id (the creating token's user) and source_type, and keeps organizations apart", async () => {
    const emu = await emulator({
      rateLimits: false,
      tokens: [
        { token: "alice-token", orgIds: [1], userId: 11 },
        { token: "bob-token", orgIds: [1, 2] },
      ],
    });
    await createRun(emu, { prompt: "a" }, { token: "alice-token" });
    await createRun(emu, { prompt: "b" }, { token: "bob-token" });
    await call(emu, "POST", API_PATHS.createRun(2), { body: { prompt: "other org" }, token: "bob-token" });
    const ids = async (query: string) =>
      (
        await call<{ items: Array<{ id: number }> }>(emu, "GET", `${API_PATHS.listRuns(1)}${query}`, { token: "alice-token" })
      ).body.items.map((r) => r.id);
    expect(await ids("")).toEqual([2, 1]);
    expect(await ids("?user_id=11")).toEqual([1]);
    expect(await ids("?user_id=2")).toEqual([2]);
    expect(await ids("?source_type=API")).toEqual([2, 1]);
    expect(await ids("?source_type=GIT_HOST")).toEqual([]);
    const bad = await call(emu, "GET", `${API_PATHS.listRuns(1)}?source_type=NOPE&user_id=x`, { token: "alice-token" });
    expect(bad.status).toBe(400);
    expect(issueLocations(bad.body)).toEqual(["query.user_id"]);
  });

  it("can be switched off (404), by option or through /_emulator/endpoints", async () => {
    const emu = await emulator({ endpoints: { listRuns: false } });
    expect((await call(emu, "GET", API_PATHS.listRuns(emu.orgId))).status).toBe(404);
    const admin = await fetch(`${emu.url}/_emulator/endpoints`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ listRuns: true }),
    });
    expect(admin.status).toBe(200);
    expect((await call(emu, "GET", API_PATHS.listRuns(emu.orgId))).status).toBe(200);
    const wrong = await fetch(`${emu.url}/_emulator/endpoints`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ logs: ["beta"] }),
    });
    expect(wrong.status).toBe(400);
  });
});

describe("the organization's repositories", () => {
  const repositories = [
    { id: 12, full_name: "octo-org/widgets", github_id: 4242 },
    { id: 3, full_name: "octo-org/gadgets" },
    { id: 40, full_name: "other-org/tools", orgId: 2 },
  ];

  it("lists the organization's repositories by id, with name and github_id", async () => {
    const emu = await emulator({ repositories });
    const page = await call<{ items: unknown[]; total: number }>(emu, "GET", API_PATHS.listRepositories(emu.orgId));
    expect(page.body).toEqual({
      items: [
        { id: 3, full_name: "octo-org/gadgets", name: "gadgets", github_id: null, organization_id: 1 },
        { id: 12, full_name: "octo-org/widgets", name: "widgets", github_id: 4242, organization_id: 1 },
      ],
      total: 2,
      page: 1,
      size: 100,
      pages: 1,
    });
  });

  it("a create naming a repo_id the organization does not list is a validation failure on repo_id", async () => {
    const emu = await emulator({ repositories, errorStyle: "fastapi" });
    const wrong = await createRun(emu, { prompt: "p", repo_id: 40 });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      detail: [{ loc: ["body", "repo_id"], msg: "repository 40 is not a repository of organization 1", type: "value_error" }],
    });
    expect((await createRun(emu, { prompt: "p", repo_id: 12 })).status).toBe(200);
  });

  it("is scriptable through the control and /_emulator/repositories, and can be switched off", async () => {
    const emu = await emulator();
    expect((await call<{ items: unknown[] }>(emu, "GET", API_PATHS.listRepositories(emu.orgId))).body.items).toEqual([]);
    // No list, no check: any repo_id goes, as before repositories were scripted.
    expect((await createRun(emu, { prompt: "p", repo_id: 999 })).status).toBe(200);
    const admin = await fetch(`${emu.url}/_emulator/repositories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ repositories: [{ id: 7, full_name: "octo-org/widgets" }] }),
    });
    expect(admin.status).toBe(200);
    expect(
      (await call<{ items: Array<{ id: number }> }>(emu, "GET", API_PATHS.listRepositories(emu.orgId))).body.items.map((r) => r.id),
    ).toEqual([7]);
    expect(() => emu.control.setRepositories([{ id: 1, full_name: "no-slash" }])).toThrow(/full_name must look like owner\/name/);
    emu.control.setEndpoints({ listRepositories: false });
    expect((await call(emu, "GET", API_PATHS.listRepositories(emu.orgId))).status).toBe(404);
  });
});

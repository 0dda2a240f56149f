import { describe, expect, it } from "vitest";
import { AGENT_TYPES, API_PATHS } from "../../src/service/wire.js";
import { call, createRun, emulator, finishAllRuns, getRun, issueLocations, resumeRun, routePath, runLogs } from "./helpers.js";

type Detail = { detail: Array<{ loc: Array<string | number>; msg: string; type: string }> };

describe("400: invalid parameters, in FastAPI's shape", () => {
  const badCreates: Array<[string, unknown, string, string]> = [
    ["missing prompt", {}, "body.prompt", "missing"],
    ["empty prompt", { prompt: "" }, "body.prompt", "string_too_short"],
    ["blank prompt", { prompt: "   " }, "body.prompt", "string_too_short"],
    ["prompt not a string", { prompt: 5 }, "body.prompt", "string_type"],
    ["bad agent_type", { prompt: "p", agent_type: "robot" }, "body.agent_type", "enum"],
    ["image not a data URI", { prompt: "p", images: ["https://example.com/a.png"] }, "body.images.0", "string_pattern_mismatch"],
    ["image data URI not base64", { prompt: "p", images: ["data:image/png,rawbytes"] }, "body.images.0", "string_pattern_mismatch"],
    ["metadata an array", { prompt: "p", metadata: [1, 2] }, "body.metadata", "dict_type"],
    ["metadata a string", { prompt: "p", metadata: "x" }, "body.metadata", "dict_type"],
    ["unknown body field", { prompt: "p", priority: "high" }, "body.priority", "extra_forbidden"],
    ["repo_id not an integer", { prompt: "p", repo_id: 1.5 }, "body.repo_id", "int_type"],
    ["body not an object", ["prompt"], "body", "dict_type"],
  ];

  it.each(badCreates)("create: %s", async (_name, body, loc, type) => {
    const emu = await emulator();
    const answer = await createRun(emu, body);
    expect(answer.status).toBe(400);
    const detail = (answer.body as unknown as Detail).detail;
    expect(detail).toContainEqual({ loc: loc.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), msg: expect.any(String), type });
    expect(detail.every((d) => d.msg.length > 0)).toBe(true);
    expect(emu.control.stats().runsCreated).toBe(0);
  });

  it("create: names the fix in the message", async () => {
    const emu = await emulator();
    const answer = await createRun(emu, { prompt: "p", agent_type: "robot", metadata: [1] });
    const msgs = (answer.body as unknown as Detail).detail.map((d) => d.msg).join(" | ");
    expect(msgs).toContain(`agent_type must be one of: ${AGENT_TYPES.join(", ")}`);
    expect(msgs).toContain("metadata must be a JSON object");
  });

  it("create: malformed JSON", async () => {
    const emu = await emulator();
    const answer = await call(emu, "POST", API_PATHS.createRun(emu.orgId), {
      rawBody: '{"prompt": "unterminated',
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: [{ loc: ["body"], msg: expect.stringContaining("not valid JSON"), type: "json_invalid" }] });
  });

  it("create: empty body", async () => {
    const emu = await emulator();
    const withType = await call(emu, "POST", API_PATHS.createRun(emu.orgId), {
      rawBody: "",
      headers: { "content-type": "application/json" },
    });
    expect(withType.status).toBe(400);
    expect(issueLocations(withType.body)).toEqual(["body"]);
    const without = await call(emu, "POST", API_PATHS.createRun(emu.orgId));
    expect(without.status).toBe(400);
    expect(issueLocations(without.body)).toEqual(["body"]);
  });

  it("create: a non-JSON content type is refused with 415", async () => {
    const emu = await emulator();
    const answer = await call(emu, "POST", API_PATHS.createRun(emu.orgId), {
      rawBody: "prompt=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ detail: expect.stringContaining("Content-Type: application/json") });
  });

  it("non-integer ids in the path", async () => {
    const emu = await emulator();
    const get = await call(emu, "GET", routePath("getRun", { org_id: 1, agent_run_id: "abc" }));
    expect(get.status).toBe(400);
    expect(get.body).toEqual({
      detail: [{ loc: ["path", "agent_run_id"], msg: expect.stringContaining("valid integer"), type: "int_parsing" }],
    });
    const logs = await call(emu, "GET", routePath("runLogs", { org_id: "one", agent_run_id: "1.5" }));
    expect(logs.status).toBe(400);
    expect(issueLocations(logs.body)).toEqual(["path.org_id", "path.agent_run_id"]);
    const create = await call(emu, "POST", routePath("createRun", { org_id: "x" }), { body: { prompt: "p" } });
    expect(create.status).toBe(400);
    expect(issueLocations(create.body)).toEqual(["path.org_id"]);
  });

  it("resume: body must be exactly {agent_run_id, prompt}", async () => {
    const emu = await emulator();
    const path = API_PATHS.resumeRun(emu.orgId);
    const cases: Array<[unknown, string]> = [
      [{ prompt: "p" }, "body.agent_run_id"],
      [{ agent_run_id: 1 }, "body.prompt"],
      [{ agent_run_id: "1", prompt: "p" }, "body.agent_run_id"],
      [{ agent_run_id: 0, prompt: "p" }, "body.agent_run_id"],
      [{ agent_run_id: 1, prompt: "" }, "body.prompt"],
      [{ agent_run_id: 1, prompt: "p", images: [] }, "body.images"],
    ];
    for (const [body, loc] of cases) {
      const answer = await call(emu, "POST", path, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(issueLocations(answer.body)).toContain(loc);
    }
  });

  it("logs: limit 0, limit over 100, negative skip, non-integer values", async () => {
    const emu = await emulator();
    const run = await createRun(emu, { prompt: "p" });
    const cases: Array<[string, string, string]> = [
      ["?limit=0", "query.limit", "greater_than_equal"],
      ["?limit=101", "query.limit", "less_than_equal"],
      ["?skip=-1", "query.skip", "greater_than_equal"],
      ["?limit=ten", "query.limit", "int_parsing"],
      ["?skip=1.5", "query.skip", "int_parsing"],
    ];
    for (const [query, loc, type] of cases) {
      const answer = await runLogs(emu, run.body.id, query);
      expect(answer.status, query).toBe(400);
      expect((answer.body as unknown as Detail).detail).toEqual([{ loc: loc.split("."), msg: expect.any(String), type }]);
    }
    expect((await runLogs(emu, run.body.id, "?limit=100&skip=0&unrelated=1")).status).toBe(200);
  });
});

describe("401: missing or unknown token", () => {
  it("refuses every endpoint without a token, or with an unknown one", async () => {
    const emu = await emulator();
    const run = await createRun(emu, { prompt: "p" });
    for (const token of [null, "not-a-token"]) {
      const answers = [
        await createRun(emu, { prompt: "p" }, { token }),
        await getRun(emu, run.body.id, { token }),
        await resumeRun(emu, run.body.id, "p", { token }),
        await runLogs(emu, run.body.id, "", { token }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.headers.get("www-authenticate")).toBe("Bearer");
        expect(answer.body).toEqual({ detail: expect.stringContaining("Authorization: Bearer") });
      }
    }
    const wrongScheme = await call(emu, "GET", API_PATHS.getRun(emu.orgId, run.body.id), {
      token: null,
      headers: { authorization: `Basic ${emu.token}` },
    });
    expect(wrongScheme.status).toBe(401);
  });

  it("checks the token before validating the body", async () => {
    const emu = await emulator();
    const answer = await call(emu, "POST", API_PATHS.createRun(emu.orgId), {
      token: null,
      rawBody: "{bad json",
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(401);
  });
});

describe("403 and 404: organizations and runs", () => {
  const tokens = [
    { token: "token-a", orgIds: [1, 2] },
    { token: "token-b", orgIds: [3] },
  ];

  it("403 for an organization the token cannot access, on every endpoint", async () => {
    const emu = await emulator({ tokens });
    const run = await createRun(emu, { prompt: "p" });
    const answers = [
      await call(emu, "POST", API_PATHS.createRun(3), { body: { prompt: "p" } }),
      await call(emu, "GET", API_PATHS.getRun(3, run.body.id)),
      await call(emu, "POST", API_PATHS.resumeRun(3), { body: { agent_run_id: run.body.id, prompt: "p" } }),
      await call(emu, "GET", API_PATHS.runLogs(3, run.body.id)),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ detail: expect.stringContaining("organization 3") });
    }
  });

  it("404 for an unknown run, and for a run of another organization", async () => {
    const emu = await emulator({ tokens });
    const inOrg1 = await createRun(emu, { prompt: "p" });
    finishAllRuns(emu);
    for (const answer of [
      await getRun(emu, 999),
      await runLogs(emu, 999),
      await resumeRun(emu, 999, "p"),
      await call(emu, "GET", API_PATHS.getRun(2, inOrg1.body.id)),
      await call(emu, "GET", API_PATHS.runLogs(2, inOrg1.body.id)),
      await call(emu, "POST", API_PATHS.resumeRun(2), { body: { agent_run_id: inOrg1.body.id, prompt: "p" } }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: expect.stringMatching(/^agent run \d+ not found$/) });
    }
    // Token b cannot see organization 1 at all.
    const other = await call(emu, "GET", API_PATHS.getRun(1, inOrg1.body.id), { token: "token-b" });
    expect(other.status).toBe(403);
  });

  it("HEAD is not an API method: 404 without touching a run", async () => {
    const emu = await emulator();
    await createRun(emu, { prompt: "p" });
    const answer = await fetch(`${emu.url}${API_PATHS.getRun(emu.orgId, 1)}`, { method: "HEAD" });
    expect(answer.status).toBe(404);
  });

  it("404 with a FastAPI body for unknown paths", async () => {
    const emu = await emulator();
    const answer = await call(emu, "GET", `${API_PATHS.getRun(emu.orgId, 1)}/unknown`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: "Not Found" });
  });
});

describe("409: resuming a run in progress", () => {
  it("refuses while queued or running, accepts once finished", async () => {
    const emu = await emulator();
    const run = await createRun(emu, { prompt: "long task" });
    const queued = await resumeRun(emu, run.body.id, "more");
    expect(queued.status).toBe(409);
    expect(queued.body).toEqual({ detail: `agent run ${run.body.id} is still running; resume it once it has finished` });
    emu.control.advanceTime(5_000);
    expect((await getRun(emu, run.body.id)).body.status).toBe("running");
    expect((await resumeRun(emu, run.body.id, "more")).status).toBe(409);
    finishAllRuns(emu);
    expect((await resumeRun(emu, run.body.id, "more")).status).toBe(200);
    expect((await resumeRun(emu, run.body.id, "even more")).status).toBe(409);
    expect(emu.control.stats().runsResumed).toBe(1);
  });

  it("accepts resuming a failed run", async () => {
    const emu = await emulator({ defaultScript: { outcome: "failed" } });
    const run = await createRun(emu, { prompt: "doomed" });
    finishAllRuns(emu);
    expect((await getRun(emu, run.body.id)).body.status).toBe("failed");
    expect((await resumeRun(emu, run.body.id, "try again")).status).toBe(200);
  });
});

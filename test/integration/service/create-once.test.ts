/**
 * createRunOnce over real HTTP: the emulator behind a proxy that loses the answer to a create
 * (passes it on, then answers 5xx, drops the socket or never answers). A lost answer is never
 * followed by a blind second create: the run is found in the runs list, or the create is sent again
 * only when the list shows it certainly absent, or an OutcomeUnknownError says where to look.
 * An answer that certainly made nothing (402, 422) is thrown as is, without reading the list.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import {
  AgentRunClient,
  OutcomeUnknownError,
  ServerError,
  answerLost,
  createRunOnce,
  type CreateRunRequest,
} from "../../../src/service/index.js";
import { losingCreates, startServiceRecorder, type LostAnswer, type ServiceRecorder } from "../../helpers/service-recorder.js";

let emulator: RunningEmulator | undefined;
let proxy: ServiceRecorder | undefined;
afterEach(async () => {
  await proxy?.close();
  await emulator?.close();
  proxy = emulator = undefined;
});

const REQUEST: CreateRunRequest = { prompt: "Fix the flaky test", metadata: { bridge_task_id: "task-7", delivery_id: "d-7" } };

/** The emulator behind a proxy that loses the answers to the first `times` creates; a client through it. */
async function world(lost: LostAnswer, options: { times?: number; listRuns?: boolean; timeoutMs?: number } = {}) {
  emulator = await startEmulator({ timeScale: 0.01, rateLimits: false, endpoints: { listRuns: options.listRuns ?? true } });
  proxy = await startServiceRecorder(emulator.url, losingCreates(lost, options.times));
  return new AgentRunClient({
    baseUrl: proxy.url,
    token: emulator.token,
    orgId: emulator.orgId,
    backoff: { minMs: 5, maxMs: 20 },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

const creates = () => emulator!.control.stats().byRoute.createRun ?? 0;

describe("createRunOnce", () => {
  it("no answer within the timeout (the service made the run): the run is found in the list, one create", async () => {
    const client = await world({ forward: true, answer: "hang" }, { timeoutMs: 1_000 });
    const lost: string[] = [];
    // The pause is what lets a create still under way behind the proxy land before the list is read (on a loaded machine too).
    const result = await createRunOnce(client, REQUEST, { settleMs: 1_500, onAnswerLost: (error) => lost.push(error.name) });

    expect(lost).toEqual(["TimeoutError"]);
    expect(result).toMatchObject({ kind: "adopted", run: { id: emulator!.control.runs()[0]!.id } });
    expect(creates()).toBe(1);
  });

  it.each([502, 503, 504, "reset"] as const)("%s after the service made the run: adopted, never created twice", async (answer) => {
    const client = await world({ forward: true, answer });
    const result = await createRunOnce(client, REQUEST, { settleMs: 10 });
    expect(result.kind).toBe("adopted");
    expect(emulator!.control.runs()).toHaveLength(1);
    expect(creates()).toBe(1);
  });

  it("a 504 before the create reached the service: the list shows no run, so it is sent again and answered", async () => {
    const client = await world({ forward: false, answer: 504 });
    const result = await createRunOnce(client, REQUEST, { settleMs: 10 });
    expect(result.kind).toBe("created");
    expect(creates()).toBe(1);
    expect(proxy!.requests.filter((r) => r.method === "GET" && r.path.endsWith("/agent/runs")).length).toBeGreaterThanOrEqual(1);
  });

  it("answers lost more often than it may send again: the last lost answer is thrown, no run was made", async () => {
    const client = await world({ forward: false, answer: 503 }, { times: 10 });
    await expect(createRunOnce(client, REQUEST, { settleMs: 10, resends: 2 })).rejects.toBeInstanceOf(ServerError);
    expect(proxy!.lostAnswers).toHaveLength(3);
    expect(emulator!.control.runs()).toEqual([]);
  });

  it("without the runs list: OutcomeUnknownError, saying when and by what to look; nothing sent again", async () => {
    const client = await world({ forward: true, answer: 504 }, { listRuns: false });
    const error = await createRunOnce(client, REQUEST, { settleMs: 10 }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const unknown = error as OutcomeUnknownError;
    expect(unknown.what).toBe("a 504 came back instead of the run (a proxy in front of the service may have given up waiting)");
    expect(unknown.reason).toBe("the service does not list runs, so the bridge cannot check");
    expect(unknown.match).toEqual({ delivery_id: "d-7", bridge_task_id: "task-7" });
    expect(unknown.message).toContain("The agent run may have started");
    expect(creates()).toBe(1);
    expect(emulator!.control.runs()).toHaveLength(1);
  });

  it("a create the service rejected (a repo_id it does not know) is thrown as is: it made nothing, the list is not read", async () => {
    const client = await world({ forward: false, answer: 504 }, { times: 0 });
    emulator!.control.setRepositories([{ id: 5, full_name: "octo-org/widgets" }]);
    const error = await createRunOnce(client, { ...REQUEST, repo_id: 999 }, { settleMs: 10 }).catch((e: unknown) => e);
    expect(answerLost(error)).toBe(false);
    expect((error as Error).name).toMatch(/BadRequestError|UnprocessableError/);
    expect(proxy!.requests.filter((r) => r.method === "GET")).toEqual([]);
    expect(emulator!.control.runs()).toEqual([]);
  });

  it("refuses a create without the bridge's ids: its run could not be told apart", async () => {
    const client = await world({ forward: true, answer: 504 });
    await expect(createRunOnce(client, { prompt: "x", metadata: { ticket: "A-1" } })).rejects.toThrow(/delivery_id or bridge_task_id/);
    expect(creates()).toBe(0);
  });
});

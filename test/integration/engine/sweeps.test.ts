/**
 * Watching through sweeps of the runs list, on the embedded backend and on Redis: real HTTP against
 * the emulator (behind a recording proxy, runs of other users and sources mixed in) and the fake
 * GitHub, every step taken from the real work queue. Sweeps show the runs' statuses a page at a
 * time; a run seen final is handed to its task's job; a run the sweep did not show is read on its
 * own; a service without the list is watched run by run; two engines over one Redis sweep one at a time.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunEngineOptions, SweepReport } from "../../../src/app/engine.js";
import type { Task } from "../../../src/app/store/types.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import type { EmulatorOptions } from "../../../src/emulator/index.js";
import { createInProcessBudget } from "../../../src/service/budget.js";
import { AgentRunClient, SOURCE } from "../../../src/service/index.js";
import { APP_BACKENDS, type AppBackendKind } from "../../helpers/app-harness.js";
import { queueTaskStep, type EngineHarness } from "../../helpers/engine-harness.js";
import { closeEngineWorlds, FULL_NAME, startEngineWorld, type EngineWorld, type TaskDraft } from "../../helpers/engine-world.js";
import type { ServiceRecorder, ServiceRecorderOptions } from "../../helpers/service-recorder.js";

const ISSUES = 8;
/** Emulated ms: 1.2 s real, long enough for several sweeps while the runs work. */
const RUN_MS = 600_000;

interface World extends EngineWorld {
  sweeps: SweepReport[];
  /** Another engine over the same store, queue prefix and sweep lease (a second replica on Redis). */
  startReplica(): Promise<{ harness: EngineHarness; sweeps: SweepReport[] }>;
  submit(issueNumber: number, overrides?: Partial<TaskDraft>): Promise<Task>;
}

let world: World | undefined;
afterEach(closeEngineWorlds);

async function startWorld(
  backend: AppBackendKind,
  options: {
    emulator?: Omit<EmulatorOptions, "timeScale">;
    engine?: Partial<RunEngineOptions>;
    hold?: ServiceRecorderOptions["hold"];
    /** The one time scale of the emulator, the budget and the engine (default SCALE). */
    scale?: number;
  } = {},
): Promise<World> {
  const base = await startEngineWorld(backend, {
    emulator: {
      defaultScript: { durationMs: RUN_MS, logSteps: 12 },
      // One run of another user or source beside each of ours: GIT_HOST and CHAT the filter hides, API by another user it does not.
      otherRuns: { perCreate: 3, sourceTypes: ["GIT_HOST", "CHAT", "API"] },
      ...options.emulator,
    },
    seed: {
      issues: Array.from({ length: ISSUES }, (_, i) => ({ number: i + 1, title: `Task ${i + 1}`, body: "Do it.", user: "maintainer" })),
    },
    scale: options.scale,
    recorder: { hold: options.hold },
    engine: options.engine,
    draft: { installationId: 1, prompt: (issueNumber) => `task ${issueNumber}` },
    untilTimeoutMs: 15_000,
  });
  const sweeps: SweepReport[] = [];
  base.harness.engine.onSweep((report) => sweeps.push(report));
  return {
    ...base,
    sweeps,
    async startReplica() {
      const { harness } = await base.startProcess();
      const replicaSweeps: SweepReport[] = [];
      harness.engine.onSweep((report) => replicaSweeps.push(report));
      return { harness, sweeps: replicaSweeps };
    },
    submit: (issueNumber, overrides = {}) => base.harness.add(base.draft(issueNumber, overrides)),
  };
}

const pathOf = (path: string) => path.split("?")[0]!;
const listPages = (service: ServiceRecorder) => service.requests.filter((r) => pathOf(r.path).endsWith("/agent/runs"));
const runReads = (service: ServiceRecorder, runId: number) =>
  service.requests.filter((r) => r.method === "GET" && new RegExp(`/agent/run/${runId}(?:/logs)?$`).test(pathOf(r.path)));

/** Every thread has one bot comment, turned into its result, posted once. */
function expectOneResultPerThread(w: World, threads: number[]): void {
  for (const issueNumber of threads) {
    expect(w.github.callsTo("POST", `/repos/${FULL_NAME}/issues/${issueNumber}/comments`)).toHaveLength(1);
    const comments = w.botComments(issueNumber);
    expect(comments).toHaveLength(1);
    expect(parseMarker(comments[0]!.body)).toMatchObject({ state: "done", outcome: "succeeded" });
  }
}

describe.each(APP_BACKENDS)("sweeps of the runs list on the %s backend", (backend) => {
  it("learns the runs' statuses from list pages filtered to the API's runs, and hands each run seen final straight to its report", async () => {
    // Own reads far apart (0.4 s real) and sweeps every few ms: most runs are first seen final by a sweep.
    world = await startWorld(backend, { engine: { pollIntervalMs: { initial: 200_000, max: 200_000 } } });
    const threads = [1, 2, 3, 4, 5, 6];
    const tasks = await Promise.all(threads.map((n) => world!.submit(n)));
    await world.harness.idle();

    expectOneResultPerThread(world, threads);
    const pages = listPages(world.service);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.query).toMatchObject({ limit: "100", source_type: SOURCE.api });
    }
    // The pages held other users' API runs too (the filter cannot hide them): none of them was read or reported.
    const ours = new Set((await Promise.all(tasks.map((t) => world!.harness.store.getTask(t.id)))).map((t) => t!.runId!));
    const others = world.emulator.control.runs().filter((r) => !ours.has(r.id));
    expect(others.filter((r) => r.source_type === SOURCE.api).length).toBeGreaterThan(0);
    for (const other of others) expect(runReads(world.service, other.id)).toEqual([]);
    // Sweeps saw every watched run; the runs they saw final were reported without a read of the run itself.
    expect(world.sweeps.some((s) => s.watched === threads.length && s.seen === threads.length)).toBe(true);
    const handedOver = new Set(world.sweeps.flatMap((s) => s.handedOver));
    expect(handedOver.size).toBeGreaterThan(0);
    // A run seen final by a sweep is reported from what the page showed: the run itself is not read again.
    const runGets = (runId: number) => world!.service.requests.filter((r) => pathOf(r.path).endsWith(`/agent/run/${runId}`)).length;
    expect([...ours].filter((runId) => runGets(runId) === 0).length).toBeGreaterThan(0);
  });

  it("hands a run seen final on a sweep's first page over before the sweep reads its next page", async () => {
    // Without the logs endpoint a swept run has no reads of its own: only a sweep can see it end.
    // Each create brings 60 API runs of another user: the long run sits on page 2, the short one on page 1.
    const shortRun: { runId?: number; taskId?: number } = {};
    let firstPageShowsEnd = false;
    const heldPages: boolean[] = [];
    // A slower clock than the other tests': a run a sweep showed counts as swept for 1.2 s real, longer than any hold below.
    world = await startWorld(backend, {
      scale: 0.01,
      emulator: { endpoints: { logs: [] }, otherRuns: { perCreate: 60, sourceTypes: ["API"] } },
      hold: async ({ method, path, query }) => {
        const { runId, taskId } = shortRun;
        if (runId === undefined || taskId === undefined) return;
        const ended = world!.emulator.control.runs().find((r) => r.id === runId)?.status === "completed";
        const reported = async () => (await world!.harness.store.getTask(taskId))?.state === "done";
        if (method === "GET" && path.endsWith(`/agent/run/${runId}`) && ended) {
          // The run's own reads after its end wait for its result: only a sweep can report it.
          await world!.until(reported, "the short run's report", 3_000).catch(() => undefined);
        } else if (path.endsWith("/agent/runs") && Number(query.skip ?? 0) === 0) {
          firstPageShowsEnd = ended;
        } else if (path.endsWith("/agent/runs") && firstPageShowsEnd && heldPages.length === 0) {
          // The second page of the first sweep whose first page showed the short run ended waits (at most 0.6 s) for its result.
          await world!.until(reported, "the short run's report", 600).catch(() => undefined);
          heldPages.push(await reported());
        }
      },
    });
    world.emulator.control.script({ match: "task 1", durationMs: 5_000_000 });
    world.emulator.control.script({ match: "task 2", durationMs: 100_000 });
    const long = await world.submit(1);
    await world.until(async () => (await world!.harness.store.getTask(long.id))?.runId != null, "the long run to start");
    const short = await world.submit(2);
    await world.until(async () => (await world!.harness.store.getTask(short.id))?.runId != null, "the short run to start");
    shortRun.runId = (await world.harness.store.getTask(short.id))!.runId!;
    shortRun.taskId = short.id;
    await world.until(async () => (await world!.harness.store.getTask(short.id))?.state === "done", "the short run's result");
    await world.until(() => heldPages.length > 0, "a sweep's second page after the short run's end");

    expectOneResultPerThread(world, [2]);
    // Its result was written while the sweep that saw it final held its second page back.
    expect(heldPages).toEqual([true]);
    expect(listPages(world.service).some((p) => p.query.skip === "100")).toBe(true);
  });

  it("reads a watched run the filtered sweep did not show on its own, then sweeps without the filter", async () => {
    world = await startWorld(backend, { emulator: { otherRuns: { perCreate: 1, sourceTypes: ["CHAT"] } } });
    // A run started from chat that the bridge watches (adopted into a thread): `source_type=API` hides it.
    await world.submit(1);
    await world.until(() => world!.emulator.control.runs().some((r) => r.source_type === "CHAT"), "a chat run to exist");
    const chatRun = world.emulator.control.runs().find((r) => r.source_type === "CHAT")!;
    const adopted = await world.harness.store.insertTask({
      ...world.draft(2, { state: "watching", runId: chatRun.id }),
      deadlineAt: Date.now() + 60_000,
    });
    await queueTaskStep(world.harness.queue, adopted.id);
    await world.harness.idle();

    expectOneResultPerThread(world, [1]);
    expect(parseMarker(world.botComments(2)[0]?.body ?? "")).toMatchObject({ runId: chatRun.id, state: "done" });
    const first = world.sweeps.find((s) => s.seen < s.watched);
    expect(first?.ownReadsBroughtForward).toBeGreaterThan(0);
    const pages = listPages(world.service);
    expect(pages.some((p) => p.query.source_type === SOURCE.api)).toBe(true);
    expect(pages.some((p) => p.query.source_type === undefined)).toBe(true);
    expect(runReads(world.service, chatRun.id).length).toBeGreaterThan(0);
    expect((await world.harness.store.getTask(adopted.id))?.state).toBe("done");
  });

  it("without a runs list, watches every run on its own: the list is asked once and every result is written once", async () => {
    world = await startWorld(backend, { emulator: { endpoints: { listRuns: false } } });
    const threads = [1, 2, 3];
    await Promise.all(threads.map((n) => world!.submit(n)));
    await world.harness.idle();

    expectOneResultPerThread(world, threads);
    expect(world.sweeps).toEqual([]);
    expect(listPages(world.service).map((r) => r.status)).toEqual([404]);
    expect(world.service.requests.filter((r) => r.method === "GET" && /\/agent\/run\/\d+/.test(r.path)).length).toBeGreaterThan(0);
  });
});

describe.each(APP_BACKENDS)("own reads without a runs list on the %s backend", (backend) => {
  it("reads the watched runs round robin when they fill the budget: between two reads of one run, no other run is read twice", async () => {
    // 20 runs whose share of the budget (one read each per 21 s) is longer than their own backoff (0.5 s): the budget sets the pace.
    // The emulator counts nothing here; the engine's own budget keeps it to 60 reads per 60 s.
    world = await startWorld(backend, {
      scale: 0.05,
      emulator: { endpoints: { listRuns: false }, rateLimits: false, otherRuns: { perCreate: 0 } },
      engine: { pollIntervalMs: { initial: 500, max: 500 } },
    });
    // Runs that show no new steps: no progress edit waits its turn at GitHub between two reads.
    world.emulator.control.script({ match: "task ", durationMs: RUN_MS, logSteps: 0 });
    const wide = { points: 10_000, durationMs: 1_000 };
    const creator = new AgentRunClient({
      baseUrl: world.emulator.url,
      token: world.emulator.token,
      orgId: world.emulator.orgId,
      budget: createInProcessBudget({ windows: { shared: wide, create: wide }, marginMs: 0 }),
    });
    const runIds: number[] = [];
    for (let n = 1; n <= 20; n++) {
      const run = await creator.createRun({ prompt: `task ${n}` });
      runIds.push(run.id);
      const task = await world.harness.store.insertTask({
        ...world.draft(n, { state: "watching", runId: run.id }),
        deadlineAt: Date.now() + 600_000,
      });
      await queueTaskStep(world.harness.queue, task.id);
    }
    const ours = new Set(runIds);
    const reads = () =>
      world!.service.requests.flatMap((r) => {
        const runId = Number(/\/agent\/run\/(\d+)\/logs$/.exec(pathOf(r.path))?.[1]);
        return ours.has(runId) ? [{ runId, at: r.at }] : [];
      });
    // Four rounds after the first.
    await world.until(() => reads().length >= 5 * runIds.length, "five rounds of reads", 30_000);

    // Reads that arrive within 20 ms of each other (2% of a round) count as together: two jobs due together may start in either order.
    const together = 20;
    const sequence = reads();
    const readTwice: string[] = [];
    for (const runId of runIds) {
      const own = sequence.filter((r) => r.runId === runId);
      for (let k = 1; k < own.length; k++) {
        const [from, to] = [own[k - 1]!.at + together, own[k]!.at - together];
        const between = sequence.filter((r) => r.runId !== runId && r.at > from && r.at < to);
        const twice = runIds.filter((other) => between.filter((r) => r.runId === other).length > 1);
        if (twice.length > 0) readTwice.push(`between reads ${k} and ${k + 1} of run ${runId}: ${twice.join(", ")}`);
      }
    }
    expect(readTwice).toEqual([]);
  });
});

describe("sweeps with two engines over one Redis", () => {
  it("one engine sweeps at a time; the other's runs are handed to it through the store and queue, each reported once", async () => {
    world = await startWorld("redis");
    const second = await world.startReplica();
    const threads = [1, 2, 3, 4];
    await Promise.all(threads.map((n) => world!.submit(n)));
    await world.harness.idle();

    expectOneResultPerThread(world, threads);
    // Both engines took task steps; only the lease holder swept.
    expect(world.sweeps.length + second.sweeps.length).toBeGreaterThan(0);
    expect(Math.min(world.sweeps.length, second.sweeps.length)).toBe(0);

    // The holder stops (and gives the lease up): the other one sweeps from then on.
    const [holder, other] =
      world.sweeps.length > 0 ? [world.harness, second] : [second.harness, { harness: world.harness, sweeps: world.sweeps }];
    await holder.stop();
    const before = other.sweeps.length;
    await Promise.all([5, 6].map((n) => other.harness.add(world!.draft(n))));
    await world.until(() => other.sweeps.length > before, "the other engine to sweep");
    await other.harness.idle();
    expectOneResultPerThread(world, [5, 6]);
  });
});

describe.each(APP_BACKENDS)("a run a sweep handed over, with follow-ups for the working agent, on the %s backend", (backend) => {
  /**
   * The state a sweep leaves when the run ends while this process is down: the task still watched,
   * the final run stored with it (`sweptAt`: when that sweep began), its job not yet taken.
   */
  async function handedOverWhileDown() {
    world = await startWorld(backend, { emulator: { resumeWhileRunning: "interrupt", otherRuns: { perCreate: 0 } } });
    const task = await world.submit(1);
    await world.until(async () => (await world!.harness.store.getTask(task.id))?.state === "watching", "the run to be watched");
    await world.harness.stop();
    const runId = (await world.harness.store.getTask(task.id))!.runId!;
    await world.until(() => world!.emulator.control.runs().find((r) => r.id === runId)?.status === "completed", "the run to end", 30_000);
    const reader = new AgentRunClient({ baseUrl: world.emulator.url, token: world.emulator.token, orgId: world.emulator.orgId });
    const sweptFinal = await reader.getRun(runId);
    await world.harness.store.updateTask(task.id, { finalRun: sweptFinal as Record<string, unknown>, sweptAt: Date.now() - 1 });
    return { task, runId, reader, store: world.harness.store };
  }

  /** That state, with a follow-up for the working agent held for the run meanwhile; then the engine starts again. */
  async function handedOverWithFollowUp(interrupt: { firstLine: string; sendingSince?: number }) {
    const { task, runId, store } = await handedOverWhileDown();
    const followUp = await store.insertTask({
      ...world!.draft(1, { kind: "resume", state: "held", runId, request: { prompt: interrupt.firstLine } }),
      interrupt,
      deadlineAt: Date.now() + 60_000,
    });
    const resumesBefore = world!.service.resumes().length;
    const { harness } = await world!.startReplica();
    await harness.idle();
    return { task, runId, followUp, resumesBefore, harness };
  }

  it("sends a pending follow-up before reporting, and reports the run's real end, not the end the sweep saw", async () => {
    const { task, runId, followUp, resumesBefore, harness } = await handedOverWithFollowUp({ firstLine: "also fix the docs" });
    // Reported once the run had ended again (its new part takes another 1.2 s): not from the sweep's stale view.
    expect(world!.emulator.control.runs().find((r) => r.id === runId)?.status).toBe("completed");

    // The follow-up reached the agent, which worked again: the result is of the run as it ended after that.
    expect(world!.service.resumes().slice(resumesBefore)).toEqual([{ agent_run_id: runId, prompt: "also fix the docs" }]);
    const reported = (await harness.store.getTask(task.id))!;
    expect(reported.state).toBe("done");
    expect(reported.delivered.map((m) => [m.taskId, m.confirmed])).toEqual([[followUp.id, true]]);
    const log = await new AgentRunClient({
      baseUrl: world!.emulator.url,
      token: world!.emulator.token,
      orgId: world!.emulator.orgId,
    }).listLogs(runId, { limit: 100 });
    const lastEntry = log.logs.length;
    expect(log.logs.some((e) => e.message_type === "USER_MESSAGE")).toBe(true);
    // Its trace was followed past the follow-up to the end: the steps it shows include those after the message.
    expect(reported.progress.logsSeen).toBe(lastEntry);
    expect((await harness.store.getTask(followUp.id))?.state).toBe("done");
    expectOneResultPerThread(world!, [1]);
  });

  it("a later sweep that sees the resumed run going does not make an earlier sweep's final view look new", async () => {
    // A sweep saw the run final and handed it over…
    const { task, runId, reader, store } = await handedOverWhileDown();
    // …then a follow-up reached the agent, which works again…
    const followUp = await store.insertTask({
      ...world!.draft(1, { kind: "resume", state: "done", runId, request: { prompt: "also fix the docs" } }),
      deadlineAt: Date.now() + 60_000,
    });
    await reader.resumeRun(runId, "also fix the docs");
    await store.updateTask(task.id, {
      delivered: [{ taskId: followUp.id, firstLine: "also fix the docs", at: Date.now(), reaction: null, confirmed: true }],
    });
    // …and a later sweep showed it going again.
    await store.markSwept([task.id], Date.now() + 1);
    const { harness } = await world!.startReplica();
    await harness.idle();

    // Reported at the run's real end, not from the first sweep's view.
    expect(world!.emulator.control.runs().find((r) => r.id === runId)?.status).toBe("completed");
    const log = await reader.listLogs(runId, { limit: 100 });
    expect((await harness.store.getTask(task.id))!.progress.logsSeen).toBe(log.logs.length);
    expectOneResultPerThread(world!, [1]);
  });

  it("records a follow-up a cut-off step had already claimed, and never sends it again as a resume", async () => {
    const { task, followUp, resumesBefore, harness } = await handedOverWithFollowUp({
      firstLine: "also fix the docs",
      sendingSince: Date.now() - 1_000,
    });

    // It may have reached the agent before the cut-off: it is not sent a second time, neither now nor after the result.
    expect(world!.service.resumes().slice(resumesBefore)).toEqual([]);
    const reported = (await harness.store.getTask(task.id))!;
    expect(reported.state).toBe("done");
    expect(reported.delivered.map((m) => [m.taskId, m.confirmed])).toEqual([[followUp.id, false]]);
    expect((await harness.store.getTask(followUp.id))?.state).toBe("done");
    expectOneResultPerThread(world!, [1]);
  });
});

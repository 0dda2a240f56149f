/**
 * The write pacer against the fake GitHub on loopback, through a real octokit: the fake's arrival
 * log shows the spacing, the order and the retries. Every window is scaled (`timeScale`), and
 * only minimum spacings are asserted: a slow machine makes gaps longer, never shorter.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createOctokitThreadWriter, createPacedThreadWriter } from "../../../src/app/thread-writer.js";
import type { TaskThread } from "../../../src/app/store/types.js";
import { secondaryRateLimitFault, type FakeGitHub, type RecordedRequest } from "../../helpers/fake-github/index.js";
import {
  GitHubPermissionError,
  GitHubRateLimitError,
  WritePacerStoppedError,
  createComment,
  createWritePacer,
  type RateLimitedEvent,
  type WriteEvent,
  type WritePacer,
  type WritePacerOptions,
  type WritePriority,
} from "../../../src/github/index.js";
import { octokitFor, startFake } from "./setup.js";
import { TEST_REDIS } from "../../helpers/redis.js";

/**
 * Writes are spaced from the end of one to the start of the next, so arrivals are too; across
 * replicas (Redis) and for the minute and hour windows, starts are what the pacer controls, and
 * loopback latency can bring two arrivals a little closer than their starts were.
 */
const JITTER_MS = 15;
/**
 * The pacer stamps a start a moment before the write itself does; on a loaded machine that moment
 * is the event loop's delay (5 ms and 21 ms seen on clean-clone runs). The minute and hour tests
 * allow a fifth of their window for it: without the window, the gaps they check would be a few ms.
 */
const START_SLACK = 0.2;

const WIDGETS: TaskThread = { installationId: 1, owner: "acme", repo: "widgets", issueNumber: 7 };
const GADGETS: TaskThread = { installationId: 2, owner: "octo", repo: "gadgets", issueNumber: 3 };
const COMMENTS_OF = (t: TaskThread) => `/repos/${t.owner}/${t.repo}/issues/${t.issueNumber}/comments`;

const seed = {
  repositories: [
    { owner: "acme", name: "widgets" },
    { owner: "octo", name: "gadgets" },
    { owner: "warm", name: "up" },
  ],
  issues: [
    { repo: "acme/widgets", number: 7, title: "Crash on start", user: "alice" },
    { repo: "octo/gadgets", number: 3, title: "Slow build", user: "bob" },
    { repo: "warm/up", number: 1, title: "Warm-up", user: "carol" },
  ],
};

const pacers: WritePacer[] = [];
afterEach(async () => {
  await Promise.all(pacers.splice(0).map((p) => p.stop()));
});

function pacer(options: WritePacerOptions): WritePacer {
  const created = createWritePacer(options);
  pacers.push(created);
  return created;
}

/** Writes (not reads) to a thread's repository, in arrival order. */
function writesTo(fake: FakeGitHub, thread: TaskThread): RecordedRequest[] {
  return fake.requests.filter((r) => r.method !== "GET" && r.path.startsWith(`/repos/${thread.owner}/${thread.repo}/`));
}

function bodyOf(request: RecordedRequest): string {
  return (request.body as { body?: string; content?: string }).body ?? (request.body as { content: string }).content;
}

function expectSpacedAtLeast(requests: RecordedRequest[], ms: number): void {
  const times = requests.map((r) => r.receivedAt).sort((a, b) => a - b);
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!, `gap ${i}`).toBeGreaterThanOrEqual(ms - JITTER_MS);
}

/** The fake, with a first (slow) comment already posted elsewhere, so arrival times show pacing, not warm-up. */
async function startWarmFake(): Promise<FakeGitHub> {
  const fake = await startFake(seed);
  await createComment(octokitFor(fake), { owner: "warm", repo: "up" }, 1, "warm-up");
  fake.clearRequests();
  return fake;
}

/** A paced comment write that resolves with the time it started (the pacer let it go). */
async function timedPost(fake: FakeGitHub, p: WritePacer, thread: TaskThread, body: string): Promise<number> {
  const octokit = octokitFor(fake);
  let startedAt = Number.NaN;
  await p.schedule(thread.installationId, "result", () => {
    startedAt = Date.now();
    return createComment(octokit, thread, thread.issueNumber, body);
  });
  return startedAt;
}

/** A comment write through the pacer, straight on the octokit (the same call the thread writer makes). */
function post(fake: FakeGitHub, p: WritePacer, thread: TaskThread, body: string, priority: WritePriority = "result") {
  const octokit = octokitFor(fake);
  return p.schedule(thread.installationId, priority, () => createComment(octokit, thread, thread.issueNumber, body));
}

describe("pacing one installation", () => {
  it("starts its writes at least minInterval apart, one at a time", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.1 }); // one write per 100 ms
    const octokit = octokitFor(fake);
    let inFlight = 0;
    let mostInFlight = 0;
    const outcomes = await Promise.all(
      ["one", "two", "three", "four", "five"].map((body) =>
        p.schedule(1, "result", async () => {
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          try {
            return (await createComment(octokit, WIDGETS, 7, body)).id;
          } finally {
            inFlight--;
          }
        }),
      ),
    );

    expect(outcomes.every((o) => o.kind === "written")).toBe(true);
    const writes = writesTo(fake, WIDGETS);
    expect(writes.map(bodyOf)).toEqual(["one", "two", "three", "four", "five"]);
    expectSpacedAtLeast(writes, 100);
    expect(mostInFlight).toBe(1);
  });

  // GitHub counts a window's requests as they arrive; the pacer controls when they start, so these
  // two read the start times (stamped by the write itself) and the fake's log for what arrived.
  it("lets at most perMinute writes start in any (scaled) minute", async () => {
    const fake = await startWarmFake();
    // A minute of 300 ms, three writes in it; the 1 s spacing shrinks to 5 ms.
    const p = pacer({ timeScale: 0.005, perMinute: 3 });
    const starts = await Promise.all(["a", "b", "c", "d", "e"].map((body) => timedPost(fake, p, WIDGETS, body)));
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual(["a", "b", "c", "d", "e"]);
    expect(starts[3]! - starts[0]!).toBeGreaterThanOrEqual(300 * (1 - START_SLACK));
    expect(starts[4]! - starts[1]!).toBeGreaterThanOrEqual(300 * (1 - START_SLACK));
  });

  it("lets at most perHour writes start in any (scaled) hour", async () => {
    const fake = await startWarmFake();
    // An hour of 360 ms, two writes in it.
    const p = pacer({ timeScale: 0.0001, perHour: 2 });
    const starts = await Promise.all(["a", "b", "c"].map((body) => timedPost(fake, p, WIDGETS, body)));
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual(["a", "b", "c"]);
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(360 * (1 - START_SLACK));
  });

  it("serves acknowledgements, then results, then courtesies, then progress, first come first served within each", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.02 });
    const scheduled = [
      post(fake, p, WIDGETS, "progress 1", "progress"),
      post(fake, p, WIDGETS, "courtesy 1", "courtesy"),
      post(fake, p, WIDGETS, "progress 2", "progress"),
      post(fake, p, WIDGETS, "result 1", "result"),
      post(fake, p, WIDGETS, "ack 1", "acknowledge"),
      post(fake, p, WIDGETS, "result 2", "result"),
      post(fake, p, WIDGETS, "ack 2", "acknowledge"),
    ];
    expect(p.waiting(1)).toBe(7);
    expect(p.waiting(2)).toBe(0);
    await Promise.all(scheduled);
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual([
      "ack 1",
      "ack 2",
      "result 1",
      "result 2",
      "courtesy 1",
      "progress 1",
      "progress 2",
    ]);
    expect(p.waiting()).toBe(0);
  });
});

describe("installations", () => {
  it("never wait behind each other: each has its own lane", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.1 });
    // All of installation 1's writes are scheduled first: one process-wide queue would send them all before any of 2's.
    const first = ["w1", "w2", "w3", "w4"].map((body) => post(fake, p, WIDGETS, body));
    const second = ["g1", "g2", "g3", "g4"].map((body) => post(fake, p, GADGETS, body));
    expect(p.waiting()).toBe(8);
    await Promise.all([...first, ...second]);

    const widgets = writesTo(fake, WIDGETS);
    const gadgets = writesTo(fake, GADGETS);
    expectSpacedAtLeast(widgets, 100);
    expectSpacedAtLeast(gadgets, 100);
    expect(gadgets[0]!.receivedAt).toBeLessThan(widgets[1]!.receivedAt);
    expect(gadgets[2]!.receivedAt).toBeLessThan(widgets[3]!.receivedAt);
  });
});

describe("dropping progress writes", () => {
  it("drops a progress edit that a later edit of the same comment made pointless; results are never dropped", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.05 });
    const writer = createPacedThreadWriter(
      createOctokitThreadWriter(async () => octokitFor(fake), { botLogins: ["agent-run-bridge[bot]"] }),
      p,
    );
    const tracking = await writer.createComment(WIDGETS, "Working on it…", { priority: "acknowledge" });
    const other = await writer.createComment(WIDGETS, "Another run", { priority: "result" });

    const step1 = writer.updateComment(WIDGETS, tracking, "step 1", { priority: "progress" });
    const step2 = writer.updateComment(WIDGETS, tracking, "step 2", { priority: "progress" });
    const otherStep = writer.updateComment(WIDGETS, other, "other step", { priority: "progress" });
    const done = writer.updateComment(WIDGETS, tracking, "done", { priority: "result" });
    const doneAgain = writer.updateComment(WIDGETS, tracking, "done, with links", { priority: "result" });

    expect(await step1).toBe("dropped");
    expect(await step2).toBe("dropped");
    expect(await otherStep).toBe("ok");
    expect(await done).toBe("ok");
    expect(await doneAgain).toBe("ok");

    const edits = writesTo(fake, WIDGETS)
      .filter((r) => r.method === "PATCH")
      .map(bodyOf);
    expect(edits).toEqual(["done", "done, with links", "other step"]);
    expect(fake.commentsOn("acme/widgets", 7).map((c) => c.body)).toEqual(["done, with links", "other step"]);
  });

  it("drops a progress write or a courtesy that could not start within maxWaitMs; acknowledgements wait however long it takes", async () => {
    const fake = await startWarmFake();
    const events: WriteEvent[] = [];
    const p = pacer({ timeScale: 0.2, onWrite: (e) => events.push(e) }); // 200 ms between writes
    const first = post(fake, p, WIDGETS, "first");
    await new Promise((resolve) => setTimeout(resolve, 20)); // "first" is under way
    const octokit = octokitFor(fake);
    const stale = p.schedule(1, "progress", () => createComment(octokit, WIDGETS, 7, "stale progress"), { maxWaitMs: 30 });
    const staleCourtesy = p.schedule(1, "courtesy", () => createComment(octokit, WIDGETS, 7, "stale courtesy"), { maxWaitMs: 30 });
    const patient = p.schedule(1, "progress", () => createComment(octokit, WIDGETS, 7, "patient progress"), { maxWaitMs: 5_000 });
    const ack = p.schedule(1, "acknowledge", () => createComment(octokit, WIDGETS, 7, "ack"), { maxWaitMs: 1 });

    expect(await stale).toEqual({ kind: "dropped", reason: "stale" });
    expect(await staleCourtesy).toEqual({ kind: "dropped", reason: "stale" });
    expect((await patient).kind).toBe("written");
    expect((await ack).kind).toBe("written");
    await first;
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual(["first", "ack", "patient progress"]);
    const staleEvent = events.find((e) => e.outcome === "stale" && e.priority === "progress")!;
    expect(
      events
        .filter((e) => e.outcome === "stale")
        .map((e) => e.priority)
        .sort(),
    ).toEqual(["courtesy", "progress"]);
    expect(staleEvent).toMatchObject({ installationId: 1, priority: "progress", attempts: 0 });
    expect(staleEvent.queuedMs).toBeGreaterThanOrEqual(30);
    // The acknowledgement waited out the 200 ms spacing after "first" (less the 20 ms it was scheduled after it), far past its maxWaitMs.
    expect(events.find((e) => e.priority === "acknowledge")!.queuedMs).toBeGreaterThanOrEqual(200 - 20 - JITTER_MS);
  });

  it("never drops a write before its maxWaitMs, even when the stale timer fires before the wall clock gets there", async () => {
    // Node's timers run on a monotonic clock and may fire a millisecond before Date.now() reaches the
    // deadline. Faking setTimeout alone (not Date) makes that gap as wide as we like.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const events: WriteEvent[] = [];
      const p = pacer({ onWrite: (e) => events.push(e) });
      let release!: () => void;
      const blocker = p.schedule(1, "acknowledge", () => new Promise<void>((resolve) => (release = resolve)));
      await vi.waitFor(() => expect(release).toBeTypeOf("function"));
      const scheduledAt = Date.now();
      const stale = p.schedule(1, "progress", async () => "written too late", { maxWaitMs: 30 });

      vi.advanceTimersByTime(30); // the timer's 30 ms are up; the wall clock's are not
      await Promise.resolve();
      expect(events.filter((e) => e.outcome === "stale")).toEqual([]);

      while (Date.now() < scheduledAt + 31); // the wall clock catches up
      vi.advanceTimersToNextTimer();
      expect(await stale).toEqual({ kind: "dropped", reason: "stale" });
      expect(events.find((e) => e.outcome === "stale")!.queuedMs).toBeGreaterThanOrEqual(30);
      release();
      await blocker;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("GitHub's rate-limit answers", () => {
  it("403 secondary limit: the installation pauses for retry-after, then the same write is retried; others go on", async () => {
    const fake = await startWarmFake();
    const limited: RateLimitedEvent[] = [];
    // 1 s spacing → 5 ms; GitHub's retry-after of 90 s → 450 ms (its default minute would be 300 ms).
    const p = pacer({ timeScale: 0.005, onRateLimited: (e) => limited.push(e) });
    fake.injectFault(secondaryRateLimitFault("POST", COMMENTS_OF(WIDGETS), 1, 90));
    const a = post(fake, p, WIDGETS, "a");
    const b = post(fake, p, WIDGETS, "b");
    // Installation 2 writes while installation 1 is paused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const c = await post(fake, p, GADGETS, "c");
    await Promise.all([a, b]);

    expect(c.kind).toBe("written");
    const widgets = writesTo(fake, WIDGETS);
    expect(widgets.map((r) => `${r.status} ${bodyOf(r)}`)).toEqual(["403 a", "201 a", "201 b"]);
    expect(widgets[1]!.receivedAt - widgets[0]!.receivedAt).toBeGreaterThanOrEqual(450);
    expect(writesTo(fake, GADGETS)[0]!.receivedAt).toBeLessThan(widgets[1]!.receivedAt);
    expect(limited).toEqual([{ installationId: 1, priority: "result", status: 403, pauseMs: 450, attempt: 1, willRetry: true }]);
  });

  it("429 with retry-after is honoured; a 429 without advice waits GitHub's minute", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.005 }); // retry-after 75 s → 375 ms; GitHub's minute → 300 ms
    fake.injectFault({
      method: "POST",
      path: COMMENTS_OF(WIDGETS),
      status: 429,
      headers: { "retry-after": "75" },
      body: { message: "Too many requests" },
    });
    await post(fake, p, WIDGETS, "after retry-after");
    fake.injectFault({ method: "POST", path: COMMENTS_OF(GADGETS), status: 429, body: { message: "Too many requests" } });
    await post(fake, p, GADGETS, "after a minute");

    const widgets = writesTo(fake, WIDGETS);
    expect(widgets.map((r) => r.status)).toEqual([429, 201]);
    expect(widgets[1]!.receivedAt - widgets[0]!.receivedAt).toBeGreaterThanOrEqual(375);
    const gadgets = writesTo(fake, GADGETS);
    expect(gadgets.map((r) => r.status)).toEqual([429, 201]);
    expect(gadgets[1]!.receivedAt - gadgets[0]!.receivedAt).toBeGreaterThanOrEqual(300);
  });

  it("no requests remaining: waits until x-ratelimit-reset", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 0.005 }); // GitHub's default minute → 300 ms
    const resetEpochSeconds = Math.floor(Date.now() / 1000) + 200; // 199–200 s away → about 1 s
    fake.injectFault({
      method: "POST",
      path: COMMENTS_OF(WIDGETS),
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(resetEpochSeconds) },
      body: { message: "API rate limit exceeded for installation ID 1." },
    });
    await post(fake, p, WIDGETS, "after the reset");

    const [refused, retried] = writesTo(fake, WIDGETS);
    expect([refused!.status, retried!.status]).toEqual([403, 201]);
    const scaledWait = (resetEpochSeconds * 1000 - refused!.receivedAt) * 0.005;
    expect(retried!.receivedAt - refused!.receivedAt).toBeGreaterThanOrEqual(Math.floor(scaledWait));
    expect(scaledWait).toBeGreaterThan(300);
  });

  it("a 403 that is not a rate limit fails at once, unretried, and pauses nothing", async () => {
    const fake = await startWarmFake();
    const limited: RateLimitedEvent[] = [];
    const events: WriteEvent[] = [];
    const p = pacer({ timeScale: 0.01, onRateLimited: (e) => limited.push(e), onWrite: (e) => events.push(e) });
    fake.injectFault({
      method: "POST",
      path: COMMENTS_OF(WIDGETS),
      status: 403,
      body: { message: "Resource not accessible by integration" },
    });
    const refused = post(fake, p, WIDGETS, "refused");
    const next = post(fake, p, WIDGETS, "next");

    await expect(refused).rejects.toBeInstanceOf(GitHubPermissionError);
    expect((await next).kind).toBe("written");
    expect(writesTo(fake, WIDGETS).map((r) => `${r.status} ${bodyOf(r)}`)).toEqual(["403 refused", "201 next"]);
    expect(limited).toEqual([]);
    expect(events.map((e) => [e.outcome, e.attempts])).toEqual([
      ["failed", 1],
      ["written", 1],
    ]);
  });

  it("gives up after maxRetries rate-limit answers and passes GitHub's error on", async () => {
    const fake = await startWarmFake();
    const limited: RateLimitedEvent[] = [];
    const p = pacer({ timeScale: 0.01, maxRetries: 2, onRateLimited: (e) => limited.push(e) });
    fake.injectFault({ ...secondaryRateLimitFault("POST", COMMENTS_OF(WIDGETS), 10, 0) });

    await expect(post(fake, p, WIDGETS, "never")).rejects.toBeInstanceOf(GitHubRateLimitError);
    expect(writesTo(fake, WIDGETS).map((r) => r.status)).toEqual([403, 403, 403]);
    expect(limited.map((e) => [e.attempt, e.willRetry])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });
});

describe("replicas sharing Redis", () => {
  const redisA = new Redis({ ...TEST_REDIS, maxRetriesPerRequest: 1 });
  const redisB = new Redis({ ...TEST_REDIS, maxRetriesPerRequest: 1 });
  afterAll(async () => {
    await redisA.quit();
    await redisB.quit();
  });
  const uniquePrefix = () => `arb-test:pacing:${randomUUID()}`;

  it("two pacers on one prefix space one installation's writes together", async () => {
    const fake = await startWarmFake();
    const keyPrefix = uniquePrefix();
    const a = pacer({ timeScale: 0.1, redis: redisA, keyPrefix });
    const b = pacer({ timeScale: 0.1, redis: redisB, keyPrefix });
    await Promise.all([
      ...["a1", "a2", "a3"].map((body) => post(fake, a, WIDGETS, body)),
      ...["b1", "b2", "b3"].map((body) => post(fake, b, WIDGETS, body)),
      // Another installation has its own keys: not held back by these six.
      post(fake, b, GADGETS, "g1"),
    ]);
    const widgets = writesTo(fake, WIDGETS);
    expect(widgets.map(bodyOf).sort()).toEqual(["a1", "a2", "a3", "b1", "b2", "b3"]);
    expectSpacedAtLeast(widgets, 100);
    expect(writesTo(fake, GADGETS)[0]!.receivedAt).toBeLessThan(widgets[2]!.receivedAt);
  });

  it("a rate-limit pause seen by one replica holds the other back", async () => {
    const fake = await startWarmFake();
    const keyPrefix = uniquePrefix();
    let paused!: () => void;
    const pauseSeen = new Promise<void>((resolve) => (paused = resolve));
    const a = pacer({ timeScale: 0.01, redis: redisA, keyPrefix, onRateLimited: () => paused() });
    const b = pacer({ timeScale: 0.01, redis: redisB, keyPrefix });
    fake.injectFault(secondaryRateLimitFault("POST", COMMENTS_OF(WIDGETS), 1, 50)); // 500 ms
    const fromA = post(fake, a, WIDGETS, "from a");
    await pauseSeen;
    await post(fake, b, WIDGETS, "from b");
    await fromA;

    const widgets = writesTo(fake, WIDGETS);
    expect(widgets[0]).toMatchObject({ status: 403 });
    const fromB = widgets.find((r) => bodyOf(r) === "from b")!;
    expect(fromB.receivedAt - widgets[0]!.receivedAt).toBeGreaterThanOrEqual(500 - JITTER_MS);
  });

  it("keeps writing, paced by this process alone, when Redis is unreachable", async () => {
    const fake = await startWarmFake();
    // A port nothing listens on; no offline queue and no reconnects, so each call fails at once.
    const broken = new Redis({
      host: "127.0.0.1",
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    broken.on("error", () => undefined);
    const errors: Error[] = [];
    const p = pacer({ timeScale: 0.1, redis: broken, keyPrefix: uniquePrefix(), onSharedPacingError: (e) => errors.push(e) });
    await Promise.all(["x", "y", "z"].map((body) => post(fake, p, WIDGETS, body)));
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual(["x", "y", "z"]);
    expectSpacedAtLeast(writesTo(fake, WIDGETS), 100);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    broken.disconnect();
  });
});

describe("the pacer itself", () => {
  it("stop() refuses queued writes, lets the one under way finish, and refuses new ones", async () => {
    const fake = await startWarmFake();
    const p = createWritePacer({ timeScale: 0.5 });
    const under = post(fake, p, WIDGETS, "under way");
    const queued = post(fake, p, WIDGETS, "queued");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(p.waiting(1)).toBe(1);
    await p.stop();
    expect((await under).kind).toBe("written");
    await expect(queued).rejects.toBeInstanceOf(WritePacerStoppedError);
    await expect(post(fake, p, WIDGETS, "late")).rejects.toBeInstanceOf(WritePacerStoppedError);
    expect(writesTo(fake, WIDGETS).map(bodyOf)).toEqual(["under way"]);
  });

  it("says what is wrong with bad options", async () => {
    expect(() => createWritePacer({ timeScale: 0 })).toThrow(/timeScale must be a positive number, got 0/);
    expect(() => createWritePacer({ perMinute: 2.5 })).toThrow(/perMinute must be a positive whole number/);
    expect(() => createWritePacer({ maxRetries: -1 })).toThrow(/maxRetries must be a whole number, 0 or more/);
    const p = pacer({});
    const write = () => Promise.resolve(1);
    await expect(p.schedule(1.5, "result", write)).rejects.toThrow(/installationId must be an integer or null/);
    await expect(p.schedule(1, "urgent" as "result", write)).rejects.toThrow(
      /priority must be one of acknowledge, result, courtesy, progress/,
    );
    await expect(p.schedule(1, "progress", write, { maxWaitMs: -1 })).rejects.toThrow(/maxWaitMs must be/);
  });

  it("a reaction to a review writes nothing and takes no turn", async () => {
    const fake = await startWarmFake();
    const p = pacer({ timeScale: 1 });
    const writer = createPacedThreadWriter(
      createOctokitThreadWriter(async () => octokitFor(fake), { botLogins: ["agent-run-bridge[bot]"] }),
      p,
    );
    await writer.react(WIDGETS, { kind: "issue", id: 7 }, "eyes", { priority: "acknowledge" });
    // At real scale the next write of this installation would wait a second; a review reaction does not.
    await writer.react(WIDGETS, { kind: "review", id: 99 }, "rocket", { priority: "result" });
    expect(p.waiting(1)).toBe(0);
    expect(writesTo(fake, WIDGETS).map((r) => `${r.method} ${r.path}`)).toEqual(["POST /repos/acme/widgets/issues/7/reactions"]);
  });
});

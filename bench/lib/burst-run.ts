/**
 * One burst of `/agent` comments through the App, as the burst and replicas benchmarks play it: signed
 * `issue_comment.created` deliveries POSTed to the App's webhook endpoint (one App process, or several
 * over one Redis behind a round-robin front), each comment in its own issue, the issues spread over
 * one or several installations of the App. What the benchmarks read from it: when each delivery was
 * answered and with which status, when its thread got the 👀 reaction and the tracking comment (the
 * fake GitHub's clock), when each create reached the service and how many 429s the service answered.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_INSTALLATION_ID, startFakeGitHub, type FakeWrite } from "../../test/helpers/fake-github/index.js";
import { GITHUB_WRITE_LIMITS } from "../../src/github/pacing.js";
import { API_PATHS, RATE_LIMITS } from "../../src/service/index.js";
import { startHttpProxy, type HttpProxy } from "../../test/helpers/app-process.js";
import { OWNER, REPO, REPO_ID, appEnv, deliverWebhook, issueCommentCreated, startAppProcess, type AppProcess } from "./app.js";
import { BENCH_ORG_ID, WATCHER_TOKEN, startBenchEmulator } from "./service.js";
import { sleep } from "./stats.js";

export interface BurstPlan {
  comments: number;
  /** Unscaled seconds over which the comments arrive. */
  burstS: number;
  /** Installations the issues are spread over, round robin (1 = all in one). */
  installations: number;
  /** App processes; more than one share a Redis (`redisUrl`) behind a round-robin front. */
  replicas: number;
  redisUrl?: string;
  /** Deliveries sent a second time with the same delivery id, half during the burst and half after. */
  redeliveries: number;
  /** Also wait until every run is created (creates are paced at 10 per emulated minute). */
  waitForCreates: boolean;
  scale: number;
  bundle: string;
  /**
   * The comments arrive over `burstS` real seconds instead of scaled ones: answering a webhook is
   * real-time work, and a compressed arrival would multiply the rate by 1/scale.
   */
  realTimeArrivals?: boolean;
  /** Extra flags for each App process's `node` (e.g. --cpu-prof, to see where its time goes). */
  nodeArgs?: string[];
}

interface BurstDelivery {
  issueNumber: number;
  installationId: number;
  /** performance.now() in this process. */
  sentAt: number;
  answeredAt?: number;
  /** 0: no answer (the connection failed). */
  status?: number;
}

export interface BurstOutcome {
  deliveries: BurstDelivery[];
  redelivered: BurstDelivery[];
  /** Per issue: when the fake stored the bot's first write there (the 👀 reaction or a comment). */
  firstAckAt: Map<number, number>;
  /** Per issue: when the fake stored the bot's first comment there (the tracking comment). */
  trackingAt: Map<number, number>;
  /** Per issue: how many comments the bot created there. */
  botComments: Map<number, number>;
  /** Emulator arrival times (ms, its clock) of the creates. */
  createArrivals: number[];
  runsCreated: number;
  rateLimited: number;
  writesByKind: Record<string, number>;
}

const BOT = "agent-run-bridge[bot]";
const MAINTAINER = "maintainer";
/** The installations of a spread burst: the fake's own first, then others (other organizations). */
const installationIds = (count: number) =>
  Array.from({ length: count }, (_, i) => (i === 0 ? DEFAULT_INSTALLATION_ID : DEFAULT_INSTALLATION_ID + i));
const commentId = (issue: number) => 3_000_000 + issue;

export async function playBurst(plan: BurstPlan): Promise<BurstOutcome> {
  const issues = Array.from({ length: plan.comments }, (_, i) => i + 1);
  const installations = installationIds(plan.installations);
  const installationOf = (issue: number) => installations[(issue - 1) % installations.length]!;

  const bench = await startBenchEmulator({ timeScale: plan.scale });
  const github = await startFakeGitHub({
    seed: {
      repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
      otherInstallations: installations.slice(1).map((id) => ({ id })),
      collaborators: [{ login: MAINTAINER, permission: "write" }],
      issues: issues.map((n) => ({ number: n, title: `Issue ${n}`, body: "The nightly build fails.", user: "octocat" })),
      issueComments: issues.map((n) => ({
        issue_number: n,
        id: commentId(n),
        body: `/agent fix the nightly build (${n})`,
        user: MAINTAINER,
      })),
      // The burst is one repository's: its spend limit (30 runs an hour by default) is raised to let all of it through.
      files: [{ path: ".github/agent-run.yml", content: `limits:\n  runs_per_repo_per_hour: ${Math.max(30, plan.comments)}\n` }],
    },
  });
  const dataDirs = Array.from({ length: plan.replicas }, () => mkdtempSync(join(tmpdir(), "arb-bench-burst-")));

  const outcome: BurstOutcome = {
    deliveries: [],
    redelivered: [],
    firstAckAt: new Map(),
    trackingAt: new Map(),
    botComments: new Map(),
    createArrivals: [],
    runsCreated: 0,
    rateLimited: 0,
    writesByKind: {},
  };
  const offWrite = github.onWrite((write: FakeWrite) => {
    const at = performance.now();
    if (write.kind === "reaction_added") {
      if (write.reaction.user.login !== BOT || write.reaction.target.kind !== "issue_comment") return;
      const issue = write.reaction.target.id - 3_000_000;
      if (!outcome.firstAckAt.has(issue)) outcome.firstAckAt.set(issue, at);
      return;
    }
    if (write.kind !== "comment_created" || write.comment.user.login !== BOT) return;
    outcome.botComments.set(write.issueNumber, (outcome.botComments.get(write.issueNumber) ?? 0) + 1);
    if (!outcome.trackingAt.has(write.issueNumber)) outcome.trackingAt.set(write.issueNumber, at);
    if (!outcome.firstAckAt.has(write.issueNumber)) outcome.firstAckAt.set(write.issueNumber, at);
  });
  const createPath = API_PATHS.createRun(BENCH_ORG_ID);
  const offArrival = bench.onArrival((a) => {
    if (a.method === "POST" && a.path === createPath && a.token === WATCHER_TOKEN) outcome.createArrivals.push(a.atMs);
  });

  const apps: AppProcess[] = [];
  let front: HttpProxy | undefined;
  const keyPrefix = `arb-bench-${randomUUID()}`;
  try {
    for (const dataDir of dataDirs) {
      const env = appEnv({
        githubUrl: github.url,
        serviceUrl: bench.url,
        serviceToken: WATCHER_TOKEN,
        orgId: BENCH_ORG_ID,
        dataDir,
        timeScale: plan.scale,
      });
      if (plan.redisUrl) Object.assign(env, { REDIS_URL: plan.redisUrl, REDIS_KEY_PREFIX: keyPrefix });
      apps.push(await startAppProcess(plan.bundle, env, plan.nodeArgs));
    }
    front = apps.length > 1 ? await startHttpProxy(apps.map((app) => app.url)) : undefined;
    const webhookUrl = front?.webhookUrl ?? apps[0]!.webhookUrl;
    const send = (d: BurstDelivery, deliveryId: string, payload: object) =>
      deliverWebhook(webhookUrl, "issue_comment", payload, deliveryId).then(
        ({ status, answeredAt }) => {
          d.status = status;
          d.answeredAt = answeredAt;
        },
        () => {
          d.status = 0;
        },
      );

    // The burst: one comment every burstS/comments (scaled, unless real-time), each sent without waiting for the others.
    const spacingMs = (plan.burstS * 1000 * (plan.realTimeArrivals ? 1 : plan.scale)) / plan.comments;
    const began = performance.now();
    const inFlight: Array<Promise<void>> = [];
    const sent: Array<{ delivery: BurstDelivery; deliveryId: string; payload: object }> = [];
    for (const [i, issueNumber] of issues.entries()) {
      await sleep(began + i * spacingMs - performance.now());
      const installationId = installationOf(issueNumber);
      const payload = issueCommentCreated({
        issueNumber,
        commentId: commentId(issueNumber),
        body: `/agent fix the nightly build (${issueNumber})`,
        login: MAINTAINER,
        installationId,
      });
      const delivery: BurstDelivery = { issueNumber, installationId, sentAt: performance.now() };
      const deliveryId = randomUUID();
      outcome.deliveries.push(delivery);
      sent.push({ delivery, deliveryId, payload });
      inFlight.push(send(delivery, deliveryId, payload));
    }
    const redeliver = (original: (typeof sent)[number]) => {
      const copy: BurstDelivery = { ...original.delivery, sentAt: performance.now(), answeredAt: undefined, status: undefined };
      outcome.redelivered.push(copy);
      return send(copy, original.deliveryId, original.payload);
    };
    const every = Math.max(1, Math.floor(plan.comments / Math.max(1, plan.redeliveries)));
    const again = sent.filter((_, i) => i % every === 0).slice(0, plan.redeliveries);
    const early = again.slice(0, Math.ceil(again.length / 2));
    for (const original of early) inFlight.push(redeliver(original));

    // Bounded wait: every thread acknowledged (and, when asked, every run created).
    const perInstallation = Math.ceil(plan.comments / plan.installations);
    const ackBoundMs = perInstallation * 2 * GITHUB_WRITE_LIMITS.minIntervalMs * 3;
    const createBoundMs = plan.waitForCreates ? (plan.comments / RATE_LIMITS.create.points) * 60_000 * 1.5 : 0;
    const deadline = performance.now() + (ackBoundMs + createBoundMs) * plan.scale + 60_000;
    const done = () =>
      outcome.trackingAt.size >= plan.comments && (!plan.waitForCreates || bench.control.stats().runsCreated >= plan.comments);
    while (!done() && performance.now() < deadline) await sleep(25);
    await Promise.all(inFlight);
    for (const original of again.slice(early.length)) await redeliver(original);
    // A duplicate would show up within a few paced writes: give it that long.
    await sleep(10 * GITHUB_WRITE_LIMITS.minIntervalMs * plan.scale + 500);
  } finally {
    offWrite();
    offArrival();
    await Promise.all(apps.map((app) => app.stop()));
    await front?.close();
  }
  const stats = bench.control.stats();
  outcome.runsCreated = stats.runsCreated;
  outcome.rateLimited = stats.rateLimited;
  for (const write of github.writes) outcome.writesByKind[write.kind] = (outcome.writesByKind[write.kind] ?? 0) + 1;
  await github.close();
  await bench.close();
  for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  return outcome;
}

/**
 * The floor GitHub's per-installation pacing sets for a burst. A thread is acknowledged visibly by
 * one write (its tracking comment; the 👀 reaction is a second, cheaper sign), and one installation's
 * writes start at least `minIntervalMs` apart, at most `perMinute` in any minute and `perHour` in any
 * hour. With writes of no duration, served first come first served, the k-th thread of an
 * installation cannot be acknowledged before the k-th write those rules allow. Returns, per issue,
 * the earliest unscaled seconds after its delivery was sent at which it can carry an acknowledgement.
 */
export function acknowledgementFloor(
  arrivals: ReadonlyArray<{ issueNumber: number; installationId: number; atS: number }>,
): Map<number, number> {
  const { minIntervalMs, perMinute, perHour } = GITHUB_WRITE_LIMITS;
  const lanes = new Map<number, number[]>();
  const floors = new Map<number, number>();
  for (const arrival of [...arrivals].sort((a, b) => a.atS - b.atS)) {
    const starts = lanes.get(arrival.installationId) ?? [];
    lanes.set(arrival.installationId, starts);
    let at = Math.max(arrival.atS, (starts.at(-1) ?? Number.NEGATIVE_INFINITY) + minIntervalMs / 1000);
    if (starts.length >= perMinute) at = Math.max(at, starts[starts.length - perMinute]! + 60);
    if (starts.length >= perHour) at = Math.max(at, starts[starts.length - perHour]! + 3600);
    starts.push(at);
    floors.set(arrival.issueNumber, at - arrival.atS);
  }
  return floors;
}

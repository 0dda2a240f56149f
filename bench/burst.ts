/**
 * Burst: 200 `/agent` comments within 2 (scaled) seconds, each a signed `issue_comment.created`
 * delivery POSTed to the App's real webhook endpoint (the App runs as its own process). Measured:
 * webhook sent → the fake GitHub storing the App's tracking comment in that issue (p50, p99), against
 * webhook sent → the App's HTTP answer; creates paced at the service's limit; nothing lost (every
 * comment gets a run and exactly one tracking comment) and nothing duplicated (some deliveries are
 * sent again with the same delivery id, as GitHub's "Redeliver" does).
 *
 * Time: the emulator, the App's budgets and intervals and GitHub's write pacing (one write per second,
 * one new comment per 3 s, as Probot's Octokit paces them) are compressed by one factor; times are
 * reported ÷ scale, in real-world seconds.
 *
 * `npx tsx bench/burst.ts`
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_INSTALLATION_ID, startFakeGitHub, type FakeWrite } from "../src/fake-github/index.js";
import { API_PATHS, RATE_LIMITS } from "../src/service/index.js";
import { OWNER, REPO, REPO_ID, appAvailable, appEnv, buildAppProcess, deliverWebhook, issueCommentCreated, startAppProcess, type AppProcess } from "./lib/app.js";
import { GITHUB_PACING_MS } from "./lib/github-pacing.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { BENCH_ORG_ID, WATCHER_TOKEN, startBenchEmulator } from "./lib/service.js";
import { percentile, sleep } from "./lib/stats.js";

export interface BurstBenchOptions {
  comments?: number;
  /** Unscaled seconds over which the comments arrive. */
  burstS?: number;
  /** Deliveries sent a second time with the same delivery id. */
  redeliveries?: number;
  scale?: number;
  /** The App process to run; default: bench/lib/app-process.ts bundled from this checkout. */
  bundle?: string;
}

const NAME = "burst";
const BOT = "agent-run-bridge[bot]";
const MAINTAINER = "maintainer";

interface Delivery {
  issueNumber: number;
  deliveryId: string;
  payload: object;
  sentAt: number;
  answeredAt?: number;
  status?: number;
}

export async function runBurstBenchmark(options: BurstBenchOptions = {}): Promise<BenchResult> {
  const comments = options.comments ?? 200;
  const burstS = options.burstS ?? 2;
  const redeliveries = options.redeliveries ?? 20;
  const scale = options.scale ?? 0.02;
  const target = "p99 < 2 s";
  if (!appAvailable()) {
    return { benchmark: NAME, scale, notes: ["src/app/main.ts is missing: the App has not landed in this checkout."], rows: [unavailableRow(NAME, "time to tracking comment p99", "the App (src/app/main.ts) is missing", target)] };
  }
  const bundle = options.bundle ?? (await buildAppProcess());
  const issues = Array.from({ length: comments }, (_, i) => i + 1);
  const commentId = (issue: number) => 3_000_000 + issue;

  const bench = await startBenchEmulator({ timeScale: scale });
  const github = await startFakeGitHub({
    seed: {
      repositories: [{ owner: OWNER, name: REPO, id: REPO_ID }],
      collaborators: [{ login: MAINTAINER, permission: "write" }],
      issues: issues.map((n) => ({ number: n, title: `Issue ${n}`, body: "The nightly build fails.", user: "octocat" })),
      issueComments: issues.map((n) => ({ issue_number: n, id: commentId(n), body: `/agent fix the nightly build (${n})`, user: MAINTAINER })),
    },
  });
  const dataDir = mkdtempSync(join(tmpdir(), "arb-bench-burst-"));

  // Server-side clocks: when the fake stored each bot comment, when each create reached the service.
  const trackingAt = new Map<number, number>();
  const botCommentsCreated = new Map<number, number>();
  const offWrite = github.onWrite((write: FakeWrite) => {
    if (write.kind !== "comment_created" || write.comment.user.login !== BOT) return;
    botCommentsCreated.set(write.issueNumber, (botCommentsCreated.get(write.issueNumber) ?? 0) + 1);
    if (!trackingAt.has(write.issueNumber)) trackingAt.set(write.issueNumber, performance.now());
  });
  const createArrivals: number[] = [];
  const createPath = API_PATHS.createRun(BENCH_ORG_ID);
  const offArrival = bench.onArrival((a) => {
    if (a.method === "POST" && a.path === createPath && a.token === WATCHER_TOKEN) createArrivals.push(a.atMs);
  });

  let app: AppProcess | undefined;
  const deliveries: Delivery[] = [];
  const redelivered: Delivery[] = [];
  try {
    app = await startAppProcess(bundle, appEnv({ githubUrl: github.url, serviceUrl: bench.url, serviceToken: WATCHER_TOKEN, orgId: BENCH_ORG_ID, dataDir, timeScale: scale }));
    const webhookUrl = app.webhookUrl;
    const send = (d: Delivery) =>
      deliverWebhook(webhookUrl, "issue_comment", d.payload, d.deliveryId).then(
        ({ status, answeredAt }) => {
          d.status = status;
          d.answeredAt = answeredAt;
        },
        () => {
          d.status = 0;
        },
      );

    // The burst: one comment every burstS/comments (scaled), each sent without waiting for the others.
    const spacingMs = (burstS * 1000 * scale) / comments;
    const began = performance.now();
    const inFlight: Array<Promise<void>> = [];
    for (const [i, issueNumber] of issues.entries()) {
      await sleep(began + i * spacingMs - performance.now());
      const payload = issueCommentCreated({ issueNumber, commentId: commentId(issueNumber), body: `/agent fix the nightly build (${issueNumber})`, login: MAINTAINER, installationId: DEFAULT_INSTALLATION_ID });
      const delivery: Delivery = { issueNumber, deliveryId: randomUUID(), payload, sentAt: performance.now() };
      deliveries.push(delivery);
      inFlight.push(send(delivery));
    }
    // Half the redeliveries while the burst is being worked on, half once every comment is answered.
    const again = deliveries.filter((_, i) => i % Math.max(1, Math.floor(comments / Math.max(1, redeliveries))) === 0).slice(0, redeliveries);
    const early = again.slice(0, Math.ceil(again.length / 2));
    const late = again.slice(early.length);
    for (const d of early) {
      const copy: Delivery = { ...d, sentAt: performance.now(), answeredAt: undefined, status: undefined };
      redelivered.push(copy);
      inFlight.push(send(copy));
    }

    // Bounded wait: every comment has its tracking comment and every run was created (creates are paced at 10 per emulated minute).
    const createMinutes = comments / RATE_LIMITS.create.points;
    const waitLimitMs = (createMinutes * 60_000 + comments * GITHUB_PACING_MS.notifications * 2) * scale + 30_000;
    const deadline = performance.now() + waitLimitMs;
    while ((trackingAt.size < comments || bench.control.stats().runsCreated < comments) && performance.now() < deadline) await sleep(25);
    await Promise.all(inFlight);
    for (const d of late) {
      const copy: Delivery = { ...d, sentAt: performance.now(), answeredAt: undefined, status: undefined };
      redelivered.push(copy);
      await send(copy);
    }
    // A duplicate would show up within a few paced writes: give it that long.
    await sleep(10 * GITHUB_PACING_MS.notifications * scale + 500);
  } finally {
    offWrite();
    offArrival();
    await app?.stop();
  }
  const stats = bench.control.stats();
  const writesByKind = countBy(github.writes.map((w) => w.kind));
  await github.close();
  await bench.close();
  rmSync(dataDir, { recursive: true, force: true });

  const unscaled = (realMs: number) => realMs / 1000 / scale;
  const toTracking = deliveries.filter((d) => trackingAt.has(d.issueNumber)).map((d) => unscaled(trackingAt.get(d.issueNumber)! - d.sentAt));
  const toAnswer = deliveries.filter((d) => d.answeredAt !== undefined).map((d) => unscaled(d.answeredAt! - d.sentAt));
  const statuses = countBy(deliveries.map((d) => String(d.status ?? "none")));
  const redeliveryStatuses = countBy(redelivered.map((d) => String(d.status ?? "none")));
  const withOneComment = issues.filter((n) => botCommentsCreated.get(n) === 1).length;
  const duplicatedThreads = issues.filter((n) => (botCommentsCreated.get(n) ?? 0) > 1).length;

  // Creation pacing, in emulated time: the busiest 60 s window, and the rate after the first window's burst.
  const emulatedS = createArrivals.map((t) => unscaled(t - (createArrivals[0] ?? t)));
  const windowS = RATE_LIMITS.create.durationSeconds;
  let busiest = 0;
  for (let i = 0; i < emulatedS.length; i++) {
    let j = i;
    while (j < emulatedS.length && emulatedS[j]! < emulatedS[i]! + windowS) j++;
    busiest = Math.max(busiest, j - i);
  }
  const points = RATE_LIMITS.create.points;
  const steady = emulatedS.length > points + 1 ? ((emulatedS.length - 1 - points) / (emulatedS.at(-1)! - emulatedS[points]!)) * 60 : Number.NaN;

  const s = (v: number) => `${formatNumber(v, 1)} s`;
  const rows: BenchRow[] = [
    {
      benchmark: NAME,
      figure: "time to tracking comment p50",
      value: s(percentile(toTracking, 50)),
      baseline: `${s(percentile(toAnswer, 50))} (HTTP answer)`,
      ratio: ratioOf(percentile(toTracking, 50), percentile(toAnswer, 50)),
      target: "—",
      met: "n/a",
    },
    {
      benchmark: NAME,
      figure: "time to tracking comment p99",
      value: s(percentile(toTracking, 99)),
      baseline: `${s(percentile(toAnswer, 99))} (HTTP answer)`,
      ratio: ratioOf(percentile(toTracking, 99), percentile(toAnswer, 99)),
      target,
      met: yesNo(toTracking.length === comments && percentile(toTracking, 99) < 2),
    },
    {
      benchmark: NAME,
      figure: "creates per emulated minute",
      value: `${formatNumber(steady, 1)} (busiest 60 s: ${busiest})`,
      baseline: `${points} (the limit)`,
      ratio: ratioOf(steady, points),
      target: `≤ ${points} in any 60 s, ≈ ${points}/min`,
      met: yesNo(busiest <= points && stats.rateLimited === 0 && steady >= points * 0.8),
    },
    {
      benchmark: NAME,
      figure: "comments with a run and exactly one tracking comment",
      value: `${Math.min(stats.runsCreated, withOneComment)} / ${comments}`,
      baseline: `${comments} sent`,
      ratio: "—",
      target: `${comments} / ${comments} (none lost)`,
      met: yesNo(stats.runsCreated >= comments && withOneComment === comments),
    },
    {
      benchmark: NAME,
      figure: "duplicates after redeliveries",
      value: `${Math.max(0, stats.runsCreated - comments)} runs, ${duplicatedThreads} threads`,
      baseline: `${redelivered.length} redelivered`,
      ratio: "—",
      target: "0",
      met: yesNo(stats.runsCreated === comments && duplicatedThreads === 0),
    },
  ];
  return {
    benchmark: NAME,
    scale,
    notes: [
      `${comments} signed issue_comment.created deliveries (@octokit/webhooks-examples payloads, one issue each, a collaborator with write access) sent over ${burstS} s unscaled (${formatNumber(burstS * 1000 * scale, 0)} ms real) to the App's webhook endpoint; the App runs as its own process (startApp, SQLite, Probot's Octokit).`,
      `Tracking comment: from sending the delivery to the fake GitHub storing the App's first comment in that issue. Baseline: from sending to the App's HTTP answer (statuses ${JSON.stringify(statuses)}). ` +
        `Probot answers only once the handler is done (or 202 after 9 s real), and the handler posts the tracking comment and the 👀 reaction before it returns, so here the answer is not a floor: it comes after the comment.`,
      `GitHub write pacing (Probot's throttle: 1 write per ${GITHUB_PACING_MS.write / 1000} s and 1 new comment per ${GITHUB_PACING_MS.notifications / 1000} s, process-wide) is scaled like the service's windows. ` +
        `The App wrote ${formatNumber(github.writes.length / comments, 1)} times per comment (${JSON.stringify(writesByKind)}); new comments queue one per ${GITHUB_PACING_MS.notifications / 1000} s, so the n-th tracking comment cannot come before about ${GITHUB_PACING_MS.notifications / 1000}·n s.`,
      `Creates: the emulator's arrival times of the App's POST ${createPath}, in emulated seconds; ${stats.runsCreated} runs created, ${stats.rateLimited} requests answered 429. ` +
        `${redelivered.length} deliveries sent again with the same X-GitHub-Delivery, half during the burst and half after (statuses ${JSON.stringify(redeliveryStatuses)}).`,
    ],
    rows,
  };
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

if (isMainModule(import.meta.url)) runAsScript(() => runBurstBenchmark());

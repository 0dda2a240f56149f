/**
 * Burst: 200 `/agent` comments within 2 (scaled) seconds, each a signed `issue_comment.created`
 * delivery POSTed to the App's real webhook endpoint (the App runs as its own process, embedded
 * backend). Measured:
 * - the webhook answer (real milliseconds: the handler only verifies, dedupes and stores), and how
 *   many deliveries were answered 202 (the sign of a handler that did not finish in time);
 * - delivery sent → the 👀 reaction and → the tracking comment, each beside the floor that GitHub's
 *   per-installation write pacing sets for that burst (see acknowledgementFloor), for all 200 in one
 *   installation and for the same 200 spread over 10 installations;
 * - creates paced at the service's limit; nothing lost (every comment gets a run and exactly one
 *   tracking comment) and nothing duplicated (deliveries sent again with the same delivery id).
 *
 * Time: the emulator, the App's budgets and intervals and its GitHub write pacing are compressed by
 * one factor; times after the answer are reported ÷ scale, in real-world seconds.
 *
 * `npx tsx bench/burst.ts`
 */
import { RATE_LIMITS } from "../src/service/index.js";
import { GITHUB_WRITE_LIMITS } from "../src/github/pacing.js";
import { appAvailable, buildAppProcess } from "./lib/app.js";
import { acknowledgementFloor, playBurst, type BurstOutcome, type BurstPlan } from "./lib/burst-run.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { percentile } from "./lib/stats.js";

export interface BurstBenchOptions {
  comments?: number;
  /** Unscaled seconds over which the comments arrive. */
  burstS?: number;
  /** Deliveries sent a second time with the same delivery id. */
  redeliveries?: number;
  /** Installations of the spread shape. */
  installations?: number;
  scale?: number;
  /** The App process to run; default: bench/lib/app-process.ts bundled from this checkout. */
  bundle?: string;
  /** Time scales of the acknowledgement shapes (default 0.25 for one installation, 1 for the spread). */
  ackScales?: { one?: number; many?: number };
}

const NAME = "burst";
/** Webhook answer p99 target, real milliseconds. */
const ANSWER_TARGET_MS = 250;
/** Acknowledgements within this multiple of the pacing floor. */
const FLOOR_TARGET = 1.5;

/** Within the target of the pacing floor (a floor under a second is given a second: nothing is faster than one write). */
export const withinFloorTarget = (value: number, floor: number): boolean => value <= Math.max(floor * FLOOR_TARGET, floor + 1);
export const FLOOR_TARGET_TEXT = `≤ ${FLOOR_TARGET}× floor`;

/** What one shape of the burst measured, in the units the rows print. */
export interface BurstFigures {
  answerMs: { p50: number; p99: number };
  statuses: Record<string, number>;
  ack: { p50: number; p99: number; floorP50: number; floorP99: number; count: number };
  tracking: { p50: number; p99: number; floorP50: number; floorP99: number; count: number };
}

export function burstFigures(outcome: BurstOutcome, plan: Pick<BurstPlan, "scale">): BurstFigures {
  const unscaledS = (realMs: number) => realMs / 1000 / plan.scale;
  const { deliveries } = outcome;
  const began = Math.min(...deliveries.map((d) => d.sentAt));
  const floors = acknowledgementFloor(
    deliveries.map((d) => ({ issueNumber: d.issueNumber, installationId: d.installationId, atS: unscaledS(d.sentAt - began) })),
  );
  const answered = deliveries.filter((d) => d.answeredAt !== undefined).map((d) => d.answeredAt! - d.sentAt);
  const since = (at: Map<number, number>) =>
    deliveries.filter((d) => at.has(d.issueNumber)).map((d) => unscaledS(at.get(d.issueNumber)! - d.sentAt));
  const ack = since(outcome.firstAckAt);
  const tracking = since(outcome.trackingAt);
  const floor = deliveries.map((d) => floors.get(d.issueNumber)!);
  const statuses: Record<string, number> = {};
  for (const d of deliveries) statuses[String(d.status ?? "none")] = (statuses[String(d.status ?? "none")] ?? 0) + 1;
  return {
    answerMs: { p50: percentile(answered, 50), p99: percentile(answered, 99) },
    statuses,
    ack: {
      p50: percentile(ack, 50),
      p99: percentile(ack, 99),
      floorP50: percentile(floor, 50),
      floorP99: percentile(floor, 99),
      count: ack.length,
    },
    tracking: {
      p50: percentile(tracking, 50),
      p99: percentile(tracking, 99),
      floorP50: percentile(floor, 50),
      floorP99: percentile(floor, 99),
      count: tracking.length,
    },
  };
}

const s = (v: number) => `${formatNumber(v, 1)} s`;
const ms = (v: number) => `${formatNumber(v, 0)} ms`;

/** The rows every burst shape prints: answer, 202s, acknowledgement and tracking comment against their floors. */
function burstRows(benchmark: string, shape: string, figures: BurstFigures, comments: number): BenchRow[] {
  const accepted202 = figures.statuses["202"] ?? 0;
  const allOk = (figures.statuses["200"] ?? 0) === comments;
  const against = (what: "ack" | "tracking", p: "p50" | "p99", label: string): BenchRow => {
    const value = figures[what][p];
    const floor = figures[what][p === "p50" ? "floorP50" : "floorP99"];
    return {
      benchmark,
      figure: `${shape}: ${label} ${p}`,
      value: s(value),
      baseline: `${s(floor)} (pacing floor)`,
      ratio: ratioOf(value, floor),
      target: FLOOR_TARGET_TEXT,
      met: yesNo(figures[what].count === comments && withinFloorTarget(value, floor)),
    };
  };
  return [
    {
      benchmark,
      figure: `${shape}: webhook answer p50 / p99 (real)`,
      value: `${ms(figures.answerMs.p50)} / ${ms(figures.answerMs.p99)}`,
      baseline: `${accepted202} answered 202, ${allOk ? "all" : (figures.statuses["200"] ?? 0)} of ${comments} 200`,
      ratio: "—",
      target: `p99 < ${ANSWER_TARGET_MS} ms, no 202`,
      met: yesNo(figures.answerMs.p99 < ANSWER_TARGET_MS && accepted202 === 0 && allOk),
    },
    against("ack", "p50", "first acknowledgement (👀)"),
    against("ack", "p99", "first acknowledgement (👀)"),
    against("tracking", "p50", "tracking comment"),
    against("tracking", "p99", "tracking comment"),
  ];
}

export const FLOOR_NOTE =
  `Pacing floor: a thread is acknowledged visibly by one write (its tracking comment; the 👀 on the trigger is a courtesy the App writes only when the installation's lane has nothing more urgent); GitHub's secondary limits are per installation, ` +
  `and one installation's writes start at least ${GITHUB_WRITE_LIMITS.minIntervalMs / 1000} s apart, at most ${GITHUB_WRITE_LIMITS.perMinute} in any minute and ${GITHUB_WRITE_LIMITS.perHour} in any hour. ` +
  `The floor gives each delivery, in arrival order, the earliest moment those rules allow for one write of its installation, with writes that take no time (so with 200 threads in one installation the last cannot be acknowledged before about 199 s; spread over 10 installations, about 19 s). ` +
  `Real writes take time, and time compression multiplies it by 1/scale: a 5 ms write to the fake GitHub counts as 0.25 s at scale 0.02.`;

export async function runBurstBenchmark(options: BurstBenchOptions = {}): Promise<BenchResult> {
  const comments = options.comments ?? 200;
  const burstS = options.burstS ?? 2;
  const redeliveries = options.redeliveries ?? 20;
  const spread = options.installations ?? 10;
  const scale = options.scale ?? 0.02;
  if (!appAvailable()) {
    return {
      benchmark: NAME,
      scale,
      notes: ["src/app/main.ts is missing: the App has not landed in this checkout."],
      rows: [unavailableRow(NAME, "webhook answer p99", "the App (src/app/main.ts) is missing", `< ${ANSWER_TARGET_MS} ms`)],
    };
  }
  const bundle = options.bundle ?? (await buildAppProcess());
  const common = { comments, burstS, replicas: 1, bundle };
  // Acknowledgements are measured at scales where the App's own work (real milliseconds of reads and
  // writes) is not multiplied out of proportion: 1/scale stretches every real millisecond.
  const oneScale = options.ackScales?.one ?? 0.25;
  const manyScale = options.ackScales?.many ?? 1;
  // Both arrive over burstS real seconds: how fast a webhook is answered is real time, whatever the scale.
  const acksOne = await playBurst({
    ...common,
    installations: 1,
    redeliveries: 0,
    waitForCreates: false,
    scale: oneScale,
    realTimeArrivals: true,
  });
  const acksMany = await playBurst({
    ...common,
    installations: spread,
    redeliveries: 0,
    waitForCreates: false,
    scale: manyScale,
    realTimeArrivals: true,
  });
  // Creates, losses and duplicates: the whole story of every run, compressed.
  const one = await playBurst({ ...common, installations: 1, redeliveries, waitForCreates: true, scale });
  const oneFigures = burstFigures(acksOne, { scale: oneScale });
  const manyFigures = burstFigures(acksMany, { scale: manyScale });
  const createFigures = burstFigures(one, { scale });

  // Creation pacing, in emulated time: the busiest 60 s window, and the rate after the first window's burst.
  const unscaledS = (realMs: number) => realMs / 1000 / scale;
  const emulatedS = one.createArrivals.map((t) => unscaledS(t - (one.createArrivals[0] ?? t)));
  const windowS = RATE_LIMITS.create.durationSeconds;
  let busiest = 0;
  for (let i = 0; i < emulatedS.length; i++) {
    let j = i;
    while (j < emulatedS.length && emulatedS[j]! < emulatedS[i]! + windowS) j++;
    busiest = Math.max(busiest, j - i);
  }
  const points = RATE_LIMITS.create.points;
  const steady =
    emulatedS.length > points + 1 ? ((emulatedS.length - 1 - points) / (emulatedS.at(-1)! - emulatedS[points]!)) * 60 : Number.NaN;
  const issues = Array.from({ length: comments }, (_, i) => i + 1);
  const withOneComment = issues.filter((n) => one.botComments.get(n) === 1).length;
  const duplicatedThreads = issues.filter((n) => (one.botComments.get(n) ?? 0) > 1).length;
  const redeliveryStatuses: Record<string, number> = {};
  for (const d of one.redelivered)
    redeliveryStatuses[String(d.status ?? "none")] = (redeliveryStatuses[String(d.status ?? "none")] ?? 0) + 1;

  const rows: BenchRow[] = [
    ...burstRows(NAME, "1 installation", oneFigures, comments),
    ...burstRows(NAME, `${spread} installations`, manyFigures, comments),
    {
      benchmark: NAME,
      figure: `1 installation, compressed (${comments} in ${formatNumber(burstS * 1000 * scale, 0)} ms real): webhook answer p50 / p99`,
      value: `${ms(createFigures.answerMs.p50)} / ${ms(createFigures.answerMs.p99)}`,
      baseline: `${createFigures.statuses["202"] ?? 0} answered 202`,
      ratio: "—",
      target: "no 202 (a stress: 1/scale times the real rate)",
      met: yesNo((createFigures.statuses["202"] ?? 0) === 0),
    },
    {
      benchmark: NAME,
      figure: "1 installation: creates per emulated minute",
      value: `${formatNumber(steady, 1)} (busiest 60 s: ${busiest})`,
      baseline: `${points} (the limit)`,
      ratio: ratioOf(steady, points),
      target: `≤ ${points} in any 60 s, ≈ ${points}/min, no 429`,
      met: yesNo(busiest <= points && one.rateLimited === 0 && steady >= points * 0.8),
    },
    {
      benchmark: NAME,
      figure: "1 installation: comments with a run and exactly one tracking comment",
      value: `${Math.min(one.runsCreated, withOneComment)} / ${comments}`,
      baseline: `${comments} sent`,
      ratio: "—",
      target: `${comments} / ${comments} (none lost)`,
      met: yesNo(one.runsCreated >= comments && withOneComment === comments),
    },
    {
      benchmark: NAME,
      figure: "1 installation: duplicates after redeliveries",
      value: `${Math.max(0, one.runsCreated - comments)} runs, ${duplicatedThreads} threads`,
      baseline: `${one.redelivered.length} redelivered`,
      ratio: "—",
      target: "0",
      met: yesNo(one.runsCreated === comments && duplicatedThreads === 0),
    },
  ];
  return {
    benchmark: NAME,
    scale,
    notes: [
      `${comments} signed issue_comment.created deliveries (@octokit/webhooks-examples payloads, one issue each, a collaborator with write access) sent over ${burstS} s of real time in the two acknowledgement shapes (and over ${burstS} s unscaled, ${formatNumber(burstS * 1000 * scale, 0)} ms real, in the compressed one) to the App's webhook endpoint; the App runs as its own process (startApp from the environment, embedded SQLite backend, its own per-installation GitHub write pacer).`,
      `Two shapes: every issue in one installation (at time scale ${oneScale}), and the same issues spread round robin over ${spread} installations of the App (other organizations, each with its own installation token and its own pacing lane; at time scale ${manyScale}). ` +
        `Creates, losses and duplicates are read from a third burst in one installation at time scale ${scale}, played until every run was created; its webhook answers are a row of their own (the App then works 1/scale times faster than in real time, on the same two cores as the emulator and the fake GitHub).`,
      `Webhook answer: from sending the delivery to the App's HTTP answer, in real milliseconds (the handler verifies the signature, dedupes the delivery id and stores the delivery; nothing else). Statuses: 1 installation ${JSON.stringify(oneFigures.statuses)}, ${spread} installations ${JSON.stringify(manyFigures.statuses)}, compressed ${JSON.stringify(createFigures.statuses)}.`,
      `First acknowledgement: from sending the delivery to the fake GitHub storing the bot's 👀 reaction on that comment (or its first comment there, if that came first); tracking comment: to the fake storing the bot's first comment in that issue. Unscaled seconds.`,
      FLOOR_NOTE,
      `The App wrote ${formatNumber(Object.values(one.writesByKind).reduce((a, b) => a + b, 0) / comments, 1)} times per comment in the one-installation shape (${JSON.stringify(one.writesByKind)}): acknowledgements first, results next, progress edits last (and dropped when stale).`,
      `Creates: the emulator's arrival times of the App's creates, in emulated seconds; ${one.runsCreated} runs created, ${one.rateLimited} requests answered 429. ` +
        `${one.redelivered.length} deliveries sent again with the same X-GitHub-Delivery, half during the burst and half after (statuses ${JSON.stringify(redeliveryStatuses)}).`,
    ],
    rows,
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runBurstBenchmark());

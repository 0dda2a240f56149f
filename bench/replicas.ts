/**
 * Replicas: the burst of bench/burst.ts (200 `/agent` comments, spread over 10 installations) through
 * one App process and through three, all on the distributed backend (one Redis, BullMQ), the three
 * behind a round-robin front as a load balancer would put them. Side by side: the webhook answer, the
 * first acknowledgement and the tracking comment against the pacing floor, every thread acknowledged
 * exactly once, and the service's 429s (the rate budget is shared through Redis, so three replicas
 * must draw none that one would not).
 *
 * `npx tsx bench/replicas.ts` (needs a Redis at REDIS_URL, default redis://127.0.0.1:6379)
 */
import { appAvailable, buildAppProcess } from "./lib/app.js";
import { playBurst, type BurstOutcome } from "./lib/burst-run.js";
import { redisReachable } from "./lib/redis.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, unavailableRow, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { burstFigures, FLOOR_NOTE, FLOOR_TARGET_TEXT, withinFloorTarget } from "./burst.js";

export interface ReplicasBenchOptions {
  comments?: number;
  burstS?: number;
  installations?: number;
  replicas?: number;
  /** Time scale of the creates burst (default 0.05). */
  scale?: number;
  /** Time scale of the acknowledgement burst (default 1: real time). */
  ackScale?: number;
  redisUrl?: string;
  bundle?: string;
}

const NAME = "replicas";

export async function runReplicasBenchmark(options: ReplicasBenchOptions = {}): Promise<BenchResult> {
  const comments = options.comments ?? 200;
  const burstS = options.burstS ?? 2;
  const installations = options.installations ?? 10;
  const replicas = options.replicas ?? 3;
  const scale = options.scale ?? 0.05;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  if (!appAvailable()) {
    return {
      benchmark: NAME,
      scale,
      notes: ["src/app/main.ts is missing."],
      rows: [unavailableRow(NAME, "webhook answer p99", "the App is missing", "—")],
    };
  }
  if (!(await redisReachable(redisUrl))) {
    return {
      benchmark: NAME,
      scale,
      notes: [`No Redis answered at ${redisUrl}: start one (redis-server) or set REDIS_URL.`],
      rows: [unavailableRow(NAME, `1 vs ${replicas} replicas`, `no Redis at ${redisUrl}`, "0 429s")],
    };
  }
  const bundle = options.bundle ?? (await buildAppProcess());
  // Answers and acknowledgements in real time (as the burst benchmark's spread shape): a compressed
  // clock would multiply every real millisecond of the App's own work by 1/scale, more so with three
  // processes on two cores. Creates, losses and 429s from a compressed burst played to its last create.
  const ackScale = options.ackScale ?? 1;
  const acksPlan = {
    comments,
    burstS,
    installations,
    redisUrl,
    redeliveries: 0,
    waitForCreates: false,
    scale: ackScale,
    bundle,
    realTimeArrivals: true,
  };
  const one = burstFigures(await playBurst({ ...acksPlan, replicas: 1 }), { scale: ackScale });
  const many = burstFigures(await playBurst({ ...acksPlan, replicas }), { scale: ackScale });
  const createsPlan = { comments, burstS, installations, redisUrl, redeliveries: 0, waitForCreates: true, scale, bundle };
  const single = await playBurst({ ...createsPlan, replicas: 1 });
  const several = await playBurst({ ...createsPlan, replicas });

  const issues = Array.from({ length: comments }, (_, i) => i + 1);
  const exactlyOne = (outcome: BurstOutcome) => issues.filter((n) => outcome.botComments.get(n) === 1).length;
  const s = (v: number) => `${formatNumber(v, 1)} s`;
  const ms = (v: number) => `${formatNumber(v, 0)} ms`;
  const label = `${replicas} replicas vs 1`;
  const row = (figure: string, value: string, baseline: string, ratio: string, target: string, met: BenchRow["met"]): BenchRow => ({
    benchmark: NAME,
    figure,
    value,
    baseline,
    ratio,
    target,
    met,
  });
  const againstFloor = (what: "ack" | "tracking", name: string): BenchRow =>
    row(
      `${label}: ${name} p99`,
      s(many[what].p99),
      `${s(one[what].p99)} (floor ${s(one[what].floorP99)})`,
      ratioOf(many[what].p99, one[what].p99),
      FLOOR_TARGET_TEXT,
      yesNo(many[what].count === comments && withinFloorTarget(many[what].p99, many[what].floorP99)),
    );
  const rows: BenchRow[] = [
    row(
      `${label}: webhook answer p99 (real)`,
      `${ms(many.answerMs.p99)} (${many.statuses["202"] ?? 0} × 202)`,
      `${ms(one.answerMs.p99)} (${one.statuses["202"] ?? 0} × 202)`,
      ratioOf(many.answerMs.p99, one.answerMs.p99),
      "< 250 ms, no 202",
      yesNo(many.answerMs.p99 < 250 && (many.statuses["200"] ?? 0) === comments),
    ),
    againstFloor("ack", "first acknowledgement"),
    againstFloor("tracking", "tracking comment"),
    row(
      `${label}: threads with exactly one tracking comment`,
      `${exactlyOne(several)} / ${comments}`,
      `${exactlyOne(single)} / ${comments}`,
      "—",
      `${comments} / ${comments}`,
      yesNo(exactlyOne(several) === comments),
    ),
    row(
      `${label}: runs created`,
      `${several.runsCreated}`,
      `${single.runsCreated}`,
      "—",
      `${comments} (none lost, none twice)`,
      yesNo(several.runsCreated === comments),
    ),
    row(
      `${label}: 429s from the service`,
      `${several.rateLimited}`,
      `${single.rateLimited}`,
      "—",
      "0",
      yesNo(several.rateLimited === 0 && single.rateLimited === 0),
    ),
  ];
  return {
    benchmark: NAME,
    scale,
    notes: [
      `${comments} signed issue_comment.created deliveries over ${burstS} s of real time, spread round robin over ${installations} installations, as in the burst benchmark; every App process runs with REDIS_URL (${redisUrl}) and one fresh REDIS_KEY_PREFIX, so the queue, the store, the dedupe, the service's rate budget and GitHub write pacing are shared. The ${replicas} replicas sit behind a round-robin HTTP front (the one the replicas end-to-end test uses). ` +
        `Answers and acknowledgements are read from one such burst per setup at time scale ${ackScale}; runs, threads and 429s from a second one per setup at time scale ${scale}, played until every run was created.`,
      `Statuses: 1 replica ${JSON.stringify(one.statuses)}, ${replicas} replicas ${JSON.stringify(many.statuses)}. First acknowledgement p50: ${s(one.ack.p50)} vs ${s(many.ack.p50)}; tracking comment p50: ${s(one.tracking.p50)} vs ${s(many.tracking.p50)} (floor p50 ${s(one.tracking.floorP50)}).`,
      FLOOR_NOTE,
      `Runs: created ${single.runsCreated} (1 replica) and ${several.runsCreated} (${replicas} replicas), each create counted by the emulator; 429s are what the emulator answered the App's token.`,
    ],
    rows,
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runReplicasBenchmark());

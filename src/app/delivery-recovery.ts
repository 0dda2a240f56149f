/**
 * Missed deliveries come back by themselves. GitHub does not retry a failed webhook delivery, so on
 * start and then every DELIVERY_RECOVERY_INTERVAL one replica at a time (a lease, lease.ts) lists
 * the App's deliveries back to the last completed sweep and asks GitHub to redeliver each one whose
 * attempts all failed and that the App never stored (core/delivery-recovery.ts decides which). The
 * newest failed attempt is claimed in the store before it is asked for, so the deployment asks at
 * most once per attempt: a redelivery that fails too is a newer attempt, asked for on a later sweep,
 * up to MAX_REDELIVERIES. The redelivery arrives as an ordinary signed webhook: signature, dedupe and
 * queue as for any other.
 */
import {
  MAX_REDELIVERIES,
  pageReachesCutoff,
  planRecovery,
  sweepCutoff,
  type FailedDelivery,
  type RecoverySkipReason,
} from "../core/delivery-recovery.js";
import type { GitHubClient } from "../github/client.js";
import { listAppDeliveries, redeliverAppDelivery } from "../github/deliveries.js";
import type { HandlerLogger } from "./handlers/types.js";
import { withLease, type Leases } from "./lease.js";
import type { RecoveryObserver } from "./ops/metrics.js";
import type { DeliverySweep, BridgeStore } from "./store/types.js";
import { periodicSweep } from "./periodic-sweep.js";

/** The lease every replica's sweep takes (one sweep at a time in the deployment). */
const RECOVERY_LEASE = "delivery-recovery";
/** Renewed every third of this while a sweep runs; a replica killed mid-sweep frees it this long after. */
const LEASE_TTL_MS = 60_000;
/** 100 deliveries a page: a sweep reads at most 1,000 deliveries back, however busy the App was. */
const MAX_SWEEP_PAGES = 10;

/** Why a delivery was not redelivered: core's reasons, or GitHub refused the redelivery request. */
type RecoverySkip = RecoverySkipReason | "request_failed";

export interface DeliveryRecoveryOptions {
  store: BridgeStore;
  leases: Leases;
  /** An octokit authenticated as the App itself (its JWT): the deliveries API takes no installation token. */
  appOctokit: () => Promise<GitHubClient>;
  /** Between sweeps, in ms; the first sweep starts at once. */
  intervalMs: number;
  log: HandlerLogger;
  observer?: RecoveryObserver;
  now?: () => number;
}

export interface DeliveryRecovery {
  /** One sweep now: its summary, or null when another replica is sweeping or the listing failed. */
  sweep(): Promise<DeliverySweep | null>;
  /** Sweeps now and then every interval. */
  start(): void;
  /** No further sweep; resolves once a sweep in flight has stopped (between two redelivery requests). */
  stop(): Promise<void>;
}

export function createDeliveryRecovery(options: DeliveryRecoveryOptions): DeliveryRecovery {
  const now = options.now ?? Date.now;
  const { store, log } = options;
  const stopping = new AbortController();

  /** Claims the newest attempt, then asks GitHub; a failed request keeps its claim (asked once per attempt) and says what to do. */
  async function redeliver(octokit: GitHubClient, failed: FailedDelivery, skip: (reason: RecoverySkip) => void): Promise<boolean> {
    if (!(await store.claimRedelivery(`${failed.guid}:${failed.attemptId}`))) {
      skip("already_claimed");
      return false;
    }
    try {
      await redeliverAppDelivery(octokit, failed.attemptId);
    } catch (error) {
      skip("request_failed");
      log.warn(
        { delivery: failed.guid, event: failed.event, attempt: failed.attemptId, err: (error as Error).message },
        "asking GitHub to redeliver a failed webhook delivery failed, and it is not asked again; redeliver it by hand from the App's advanced settings",
      );
      return false;
    }
    log.info(
      {
        delivery: failed.guid,
        event: failed.event,
        attempt: failed.attemptId,
        failedAttempts: failed.attempts,
        redeliveries: failed.redeliveries + 1,
      },
      "failed webhook delivery redelivered",
    );
    return true;
  }

  /** The sweep's summary; `interrupted` when the lease was lost or the App is stopping before every request went out. */
  async function sweepHoldingLease(lost: AbortSignal): Promise<{ sweep: DeliverySweep; interrupted: boolean }> {
    const startedAt = now();
    const cutoff = sweepCutoff(startedAt, (await store.lastDeliverySweep())?.startedAt ?? null);
    const octokit = await options.appOctokit();
    const listing = await listAppDeliveries(octokit, {
      maxPages: MAX_SWEEP_PAGES,
      reachedEnough: (page) => pageReachesCutoff(page, cutoff),
    });
    const stored = await store.knownDeliveries([...new Set(listing.attempts.map((a) => a.guid))]);
    const plan = planRecovery({ attempts: listing.attempts, cutoff, now: startedAt, stored });
    const skipped: Record<string, number> = {};
    const skip = (reason: RecoverySkip) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
    for (const { guid, reason } of plan.skipped) {
      skip(reason);
      if (reason === "gave_up") {
        log.warn(
          { delivery: guid, redeliveries: MAX_REDELIVERIES },
          "a failed webhook delivery failed again on each redelivery and is not asked for again; redeliver it by hand from the App's advanced settings once the App answers",
        );
      }
    }
    let redelivered = 0;
    let interrupted = false;
    for (const failed of plan.candidates) {
      if (lost.aborted || stopping.signal.aborted) {
        interrupted = true;
        break;
      }
      if (await redeliver(octokit, failed, skip)) redelivered += 1;
    }
    if (!listing.complete) {
      log.warn({ pages: listing.pages }, "the delivery recovery sweep stopped at its page limit before reaching the previous sweep");
    }
    return {
      sweep: { startedAt, finishedAt: now(), found: plan.foundFailed, redelivered, skipped, complete: listing.complete },
      interrupted,
    };
  }

  async function sweepOnce(): Promise<DeliverySweep | null> {
    try {
      const held = await withLease(options.leases, RECOVERY_LEASE, LEASE_TTL_MS, sweepHoldingLease);
      if (!held) {
        options.observer?.deliverySweep("busy", null);
        return null;
      }
      const { sweep, interrupted } = held.value;
      // A sweep cut short is not recorded: the next one reads back as far and asks for what this one did not (claims stop repeats).
      // One stopped by its page limit is: reading the same pages again would stop at the same place.
      if (!interrupted) await store.recordDeliverySweep(sweep);
      options.observer?.deliverySweep("completed", sweep);
      if (sweep.found > 0) log.info({ ...sweep }, "delivery recovery sweep finished");
      return sweep;
    } catch (error) {
      options.observer?.deliverySweep("failed", null);
      log.warn({ err: (error as Error).message }, "delivery recovery sweep failed; the next one reads back as far");
      return null;
    }
  }

  return periodicSweep(sweepOnce, options.intervalMs, stopping);
}

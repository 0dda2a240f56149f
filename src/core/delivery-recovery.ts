/**
 * Missed webhook deliveries: GitHub never retries a failed delivery, but lists an App's deliveries
 * (newest first) and redelivers one of the past three days on request. Pure: how far back a sweep
 * reads, whether a page reached that far, and which deliveries to ask again for, with a reason code
 * for every one left alone. The shell lists, claims and asks (src/app/delivery-recovery.ts).
 */

/** One attempt as `GET /app/hook/deliveries` lists it (the fields a decision needs). */
export interface DeliveryAttempt {
  /** The attempt's own id (what `POST …/{delivery_id}/attempts` takes). */
  id: number;
  /** `X-GitHub-Delivery`: every attempt of one delivery shares it. */
  guid: string;
  /** ISO 8601. */
  deliveredAt: string;
  redelivery: boolean;
  /** The App's HTTP answer; 0 when GitHub could not connect or timed out. */
  statusCode: number;
  event: string;
}

/**
 * How many redeliveries of one delivery the deployment asks for: one that fails again (the App going
 * down again, a balancer's 502) is asked for once more on a later sweep, up to this many in all.
 */
export const MAX_REDELIVERIES = 3;
/** GitHub redelivers only what it delivered within the past three days (422 beyond). */
export const REDELIVERY_WINDOW_MS = 3 * 24 * 60 * 60_000;
/**
 * A sweep reads back to where the last completed one started, less this margin: GitHub's clock and
 * ours differ a little, and a delivery being attempted while the last sweep read is listed late.
 */
export const SWEEP_OVERLAP_MS = 2 * 60_000;
/**
 * What the App answers a signed delivery it cannot use (app/webhook-intake.ts): the same body would
 * be refused again, so a delivery with such an attempt is never asked for again.
 */
export const UNUSABLE_DELIVERY_STATUS = 422;
export type RecoverySkipReason =
  /** A later attempt of the same GUID succeeded (someone pressed "Redeliver", or another sweep did). */
  | "succeeded_later"
  /** The App answered an attempt 422: signed, but a payload it cannot use; a redelivery sends the same payload. */
  | "unusable"
  /** The App stored this GUID itself (it answered too late for GitHub, or its answer was lost). */
  | "already_stored"
  /** Older than GitHub's three days: it cannot be redelivered. */
  | "too_old"
  /** This deployment already asked for a redelivery of its newest attempt (another replica, or an earlier sweep). */
  | "already_claimed"
  /** MAX_REDELIVERIES redeliveries failed too: left for a person (the App's advanced settings). */
  | "gave_up";

/** A delivery whose attempts all failed: the newest attempt is the one to redeliver. */
export interface FailedDelivery {
  guid: string;
  event: string;
  /** The newest attempt's id: the one to redeliver, and what a claim is for (a failed redelivery is a newer attempt). */
  attemptId: number;
  /** When the first listed attempt was made (ms). */
  firstDeliveredAt: number;
  attempts: number;
  /** How many of them were redeliveries (asked for by this App or by hand). */
  redeliveries: number;
}

export interface SweepPlan {
  /** Failed deliveries still within GitHub's window, oldest first (the order people sent them). */
  candidates: FailedDelivery[];
  /** Every GUID left alone, by why. */
  skipped: Array<{ guid: string; reason: RecoverySkipReason }>;
  /** GUIDs with at least one failed attempt seen since the cutoff. */
  foundFailed: number;
}

const isSuccess = (statusCode: number) => statusCode >= 200 && statusCode < 300;

/** How far back a sweep reads: where the last completed sweep started (less the overlap), never past three days. */
export function sweepCutoff(now: number, lastCompletedSweepStartedAt: number | null): number {
  const window = now - REDELIVERY_WINDOW_MS;
  if (lastCompletedSweepStartedAt === null) return window;
  return Math.max(window, lastCompletedSweepStartedAt - SWEEP_OVERLAP_MS);
}

/** True when a page (newest first) reaches back to the cutoff: older pages hold nothing this sweep needs. */
export function pageReachesCutoff(page: readonly DeliveryAttempt[], cutoff: number): boolean {
  const oldest = page.at(-1);
  return oldest !== undefined && Date.parse(oldest.deliveredAt) < cutoff;
}

/**
 * From the attempts listed (any order), the deliveries to ask GitHub for again: every attempt of the
 * GUID failed, the GUID is not one the App stored (`stored`), and GitHub still redelivers it. A
 * GUID whose attempts are all older than the cutoff was the last sweep's business and is not counted.
 */
export function planRecovery(input: {
  attempts: readonly DeliveryAttempt[];
  cutoff: number;
  now: number;
  stored: ReadonlySet<string>;
}): SweepPlan {
  const byGuid = new Map<string, DeliveryAttempt[]>();
  for (const attempt of input.attempts) {
    const list = byGuid.get(attempt.guid);
    if (list) list.push(attempt);
    else byGuid.set(attempt.guid, [attempt]);
  }
  const candidates: FailedDelivery[] = [];
  const skipped: SweepPlan["skipped"] = [];
  let foundFailed = 0;
  const oldestRedeliverable = input.now - REDELIVERY_WINDOW_MS;
  for (const [guid, attempts] of byGuid) {
    const times = attempts.map((a) => Date.parse(a.deliveredAt));
    const newest = Math.max(...times);
    if (!attempts.some((a) => !isSuccess(a.statusCode))) continue;
    // Before a cutoff set by the last completed sweep: that sweep decided it. Before the three days: too old, said once.
    if (newest < input.cutoff && input.cutoff > oldestRedeliverable) continue;
    foundFailed += 1;
    if (attempts.some((a) => isSuccess(a.statusCode))) skipped.push({ guid, reason: "succeeded_later" });
    else if (attempts.some((a) => a.statusCode === UNUSABLE_DELIVERY_STATUS)) skipped.push({ guid, reason: "unusable" });
    else if (newest < oldestRedeliverable) skipped.push({ guid, reason: "too_old" });
    else if (input.stored.has(guid)) skipped.push({ guid, reason: "already_stored" });
    else if (attempts.filter((a) => a.redelivery).length >= MAX_REDELIVERIES) skipped.push({ guid, reason: "gave_up" });
    else {
      const latest = attempts.reduce((a, b) =>
        Date.parse(b.deliveredAt) > Date.parse(a.deliveredAt) || (b.deliveredAt === a.deliveredAt && b.id > a.id) ? b : a,
      );
      candidates.push({
        guid,
        event: latest.event,
        attemptId: latest.id,
        firstDeliveredAt: Math.min(...times),
        attempts: attempts.length,
        redeliveries: attempts.filter((a) => a.redelivery).length,
      });
    }
  }
  candidates.sort((a, b) => a.firstDeliveredAt - b.firstDeliveredAt);
  return { candidates, skipped, foundFailed };
}

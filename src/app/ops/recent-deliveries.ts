/**
 * The last deliveries this replica received or worked on, with what came of each (started, resumed,
 * queued, stopped, ignored or refused, and the decision code): the status page's answer to "why
 * didn't my `/agent` start anything?". Kept in memory, per replica, bounded: it is a window on the
 * recent past, not a record (the log and the metrics are). Only what says which delivery it was and
 * what was decided is kept: the delivery id, the event and action, the repository, the thread's
 * number, the outcome, the code and the time. Nothing from a comment, a title or a branch.
 */
import type { DecisionCode, RefusalCode } from "../../core/decision-codes.js";
import type { IgnoreCode } from "../../core/detect/index.js";
import type { AcceptedOutcome, DeliveryObserver } from "./metrics.js";

/** How many deliveries the page lists (the oldest goes first). */
export const RECENT_DELIVERIES_LIMIT = 50;

/** `received`: stored for a worker, not decided yet (or its work failed and waits for a retry). */
export type DeliveryOutcome = "received" | "ignored" | "refused" | AcceptedOutcome;

export interface DeliveryRecord {
  id: string;
  /** `issue_comment.created`: the event, and its action when the payload names one. */
  event: string;
  /** `owner/name`, when the payload names a repository. */
  repo: string | null;
  /** The or pull request's number, when the event is about one. */
  thread: number | null;
  outcome: DeliveryOutcome;
  code: DecisionCode | null;
  /** When the outcome was decided (ms since the epoch). */
  at: number;
}

/** A delivery as the App has it: the intake's `WebhookDelivery`, or a queued job's fields. */
export interface DeliveryRef {
  id: string;
  name: string;
  payload: unknown;
}

/**
 * Events and actions the App never acts on (a push to a pull request, an issue closed): listing them
 * would push the deliveries someone is asking about off the page. They are counted in the metrics.
 */
const NOT_LISTED: ReadonlySet<IgnoreCode> = new Set(["unsupported_event", "unsupported_action"]);

/** When one delivery has several outcomes (automations, one each), the page shows the one that did most. */
const WEIGHT: Record<DeliveryOutcome, number> = { received: 0, ignored: 1, refused: 2, queued: 3, stopped: 3, resumed: 3, started: 4 };

const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;

/** The repository, thread and action from the payload's envelope, read defensively: a malformed payload is listed too. */
function describe(delivery: DeliveryRef): Pick<DeliveryRecord, "event" | "repo" | "thread"> {
  const { payload } = delivery;
  const action = field(payload, "action");
  const repo = field(field(payload, "repository"), "full_name");
  const number = field(field(payload, "issue"), "number") ?? field(field(payload, "pull_request"), "number");
  return {
    event: typeof action === "string" ? `${delivery.name}.${action}` : delivery.name,
    repo: typeof repo === "string" ? repo : null,
    thread: typeof number === "number" && Number.isSafeInteger(number) ? number : null,
  };
}

export class RecentDeliveries {
  private readonly records = new Map<string, DeliveryRecord>();

  constructor(
    private readonly limit = RECENT_DELIVERIES_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes what came of a delivery; a later, weightier outcome of the same delivery replaces an earlier one. */
  note(delivery: DeliveryRef, outcome: DeliveryOutcome, code: DecisionCode | null = null): void {
    const earlier = this.records.get(delivery.id);
    if (earlier && WEIGHT[earlier.outcome] > WEIGHT[outcome]) return;
    // Re-inserted: the Map's order is the order of the latest decisions.
    this.records.delete(delivery.id);
    this.records.set(delivery.id, { id: delivery.id, ...describe(delivery), outcome, code, at: this.now() });
    for (const id of this.records.keys()) {
      if (this.records.size <= this.limit) break;
      this.records.delete(id);
    }
  }

  /** Newest first. */
  list(): DeliveryRecord[] {
    return [...this.records.values()].reverse();
  }

  /**
   * The intake's answer: a drop already noted its code; a stored delivery waits for its worker. A
   * redelivery of an id listed here leaves the row alone: what came of the first is the answer.
   */
  received(delivery: DeliveryRef, receipt: "queued" | "duplicate" | "not_for_us" | "not_allowed"): void {
    if (receipt === "queued") this.note(delivery, "received");
    else if (receipt === "duplicate" && !this.records.has(delivery.id)) this.note(delivery, "ignored", "duplicate_delivery");
    else if (receipt === "not_allowed") this.note(delivery, "ignored", "owner_not_allowed");
  }

  /** An observer for one delivery: notes each decision here, and passes it on (the metrics). */
  observing(delivery: DeliveryRef, next?: DeliveryObserver): DeliveryObserver {
    return {
      received: (event, receipt) => next?.received(event, receipt),
      ignored: (code: DecisionCode) => {
        this.note(delivery, "ignored", code);
        next?.ignored(code);
      },
      refused: (code: RefusalCode) => {
        this.note(delivery, "refused", code);
        next?.refused(code);
      },
      dropped: (code: IgnoreCode) => {
        if (!NOT_LISTED.has(code)) this.note(delivery, "ignored", code);
        next?.dropped?.(code);
      },
      accepted: (outcome: AcceptedOutcome) => {
        this.note(delivery, outcome);
        next?.accepted?.(outcome);
      },
    };
  }
}

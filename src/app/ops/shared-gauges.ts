/**
 * The gauges `GET /metrics` reads at scrape time: this replica's readiness, and totals of the shared
 * store and queue (every replica reports the same). A store or queue that does not answer in time
 * makes `agent_run_bridge_ready` 0 and leaves the other gauges out of that scrape, rather than failing
 * it: the counters still reach Prometheus, and the alert on readiness says what is wrong. "In time"
 * is GET /healthz's PROBE_TIMEOUT_MS.
 */
import { Gauge, type Registry } from "prom-client";
import type { WorkQueue } from "../queue/types.js";
import type { BridgeStore, TaskState } from "../store/types.js";
import { PROBE_TIMEOUT_MS, withTimeout } from "./probe-time.js";

const PREFIX = "agent_run_bridge_";
const TASK_STATES: readonly TaskState[] = ["held", "queued", "sending", "watching", "reporting", "done", "abandoned"];

/** How far past due the most overdue read of these watched runs is, in seconds (0 when none is late). */
function pollOverdueSeconds(nextPollAts: readonly number[], now: number): number {
  const due = nextPollAts.reduce((earliest, at) => Math.min(earliest, at), Infinity);
  return due === Infinity ? 0 : Math.max(0, now - due) / 1000;
}

export function registerSharedGauges(
  registry: Registry,
  { store, queue, now = Date.now }: { store: BridgeStore; queue: WorkQueue; now?: () => number },
): void {
  new Gauge({
    name: `${PREFIX}ready`,
    help: "1 when this replica reaches its store and queue (what GET /healthz answers 200 for), 0 when it does not.",
    registers: [registry],
    async collect() {
      const reached = await withTimeout(Promise.all([store.ping(), queue.ping()]), PROBE_TIMEOUT_MS, "the store").then(
        () => true,
        () => false,
      );
      this.set(reached ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}tasks`,
    help: "Tasks in the shared store by state (watching = runs being watched).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await withTimeout(store.countByState(), PROBE_TIMEOUT_MS, "the store").catch(() => null);
      if (counts) for (const state of TASK_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}queue_jobs`,
    help: "Jobs in the shared work queue by kind (delivery, task) and state (waiting, delayed, active).",
    labelNames: ["kind", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await withTimeout(queue.counts(), PROBE_TIMEOUT_MS, "the queue").catch(() => null);
      if (!counts) return;
      for (const [kind, c] of Object.entries(counts)) for (const [state, n] of Object.entries(c)) this.set({ kind, state }, n);
    },
  });
  new Gauge({
    name: `${PREFIX}watch_poll_overdue_seconds`,
    help: "How far past due the most overdue read of a watched run is (0: every watched run is read on time).",
    registers: [registry],
    async collect() {
      const watched = await withTimeout(store.listWatchedRuns(), PROBE_TIMEOUT_MS, "the store").catch(() => null);
      // NaN when the store did not answer: no alert compares true on it, where a 0 would claim every watch on time.
      this.set(
        watched
          ? pollOverdueSeconds(
              watched.map((w) => w.nextPollAt),
              now(),
            )
          : Number.NaN,
      );
    },
  });
}

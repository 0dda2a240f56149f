/**
 * The gauges /metrics reads at scrape time, on the embedded backend (a real SQLite store and queue): this
 * replica's readiness, the most overdue read of a watched run, and a store that no longer answers, which
 * makes the replica not ready without failing the scrape. Also the series the alert rules count, listed
 * at 0 before anything happened (rate() and increase() miss the first event of a series born at 1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAppMetrics } from "../../../src/app/ops/metrics.js";
import { SqliteWorkQueue } from "../../../src/app/queue/sqlite.js";
import { SqliteBridgeStore } from "../../../src/app/store/sqlite.js";
import { newTask } from "../../helpers/new-task.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const NOW = 1_800_000_000_000;

const task = (issueNumber: number) => newTask("octo-org", issueNumber, { deadlineAt: NOW + 3_600_000 });

function embedded() {
  const dir = mkdtempSync(join(tmpdir(), "arb-gauges-"));
  const store = new SqliteBridgeStore(join(dir, "bridge.sqlite"));
  const queue = new SqliteWorkQueue(store.database);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { store, queue };
}

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the gauges read at scrape time", () => {
  it("say the replica is ready and how far past due the most overdue watched run's read is", async () => {
    const { store, queue } = embedded();
    cleanups.push(() => store.close());
    const late = await store.insertTask(task(1));
    await store.updateTask(late.id, { state: "watching", runId: 11, nextPollAt: NOW - 90_000 });
    const onTime = await store.insertTask(task(2));
    await store.updateTask(onTime.id, { state: "watching", runId: 12, nextPollAt: NOW + 5_000 });
    const metrics = createAppMetrics({ store, queue, repoLabels: false, now: () => NOW });

    const text = await metrics.render();
    expect(sample(text, "agent_run_bridge_ready")).toBe(1);
    expect(sample(text, "agent_run_bridge_watch_poll_overdue_seconds")).toBe(90);
    expect(sample(text, 'agent_run_bridge_tasks{state="watching"}')).toBe(2);
    expect(sample(text, 'agent_run_bridge_queue_jobs{kind="task",state="waiting"}')).toBe(0);

    await store.updateTask(late.id, { nextPollAt: NOW + 1_000 });
    expect(sample(await metrics.render(), "agent_run_bridge_watch_poll_overdue_seconds")).toBe(0);
  });

  it("answer a scrape when the store does not: not ready, and no store totals rather than stale ones", async () => {
    const { store, queue } = embedded();
    const metrics = createAppMetrics({ store, queue, repoLabels: false, now: () => NOW });
    expect(sample(await metrics.render(), 'agent_run_bridge_tasks{state="done"}')).toBe(0);
    await store.close();

    const text = await metrics.render();
    expect(sample(text, "agent_run_bridge_ready")).toBe(0);
    expect(sample(text, 'agent_run_bridge_tasks{state="done"}')).toBeUndefined();
    expect(sample(text, "agent_run_bridge_watch_poll_overdue_seconds")).toBeNaN();
    // The replica's own counters still reach Prometheus.
    expect(sample(text, 'agent_run_bridge_service_rate_limited_total{endpoint="create"}')).toBe(0);
  });

  it("list the series the alert rules count at 0 before anything happened", async () => {
    const { store, queue } = embedded();
    cleanups.push(() => store.close());
    const text = await createAppMetrics({ store, queue, repoLabels: false }).render();
    for (const series of [
      'agent_run_bridge_service_rate_limited_total{endpoint="get_run"}',
      'agent_run_bridge_delivery_recovery_skipped_total{reason="too_old"}',
      'agent_run_bridge_delivery_recovery_skipped_total{reason="gave_up"}',
      'agent_run_bridge_delivery_recovery_skipped_total{reason="request_failed"}',
      'agent_run_bridge_delivery_recovery_sweeps_total{outcome="failed"}',
      'agent_run_bridge_delivery_recovery_sweeps_total{outcome="completed"}',
      'agent_run_bridge_webhooks_refused_total{reason="config_error"}',
      'agent_run_bridge_github_writes_total{priority="result",outcome="failed"}',
    ])
      expect(sample(text, series), series).toBe(0);
  });
});

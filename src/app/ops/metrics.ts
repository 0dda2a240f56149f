/**
 * What an operator scrapes (`GET /metrics`, Prometheus text format, prom-client): counters and
 * histograms of this replica, and gauges read from the shared store and queue at scrape time.
 * Labels are bounded sets (event names, reason codes, source types, outcomes); a repository name is
 * a label only with METRICS_REPO_LABELS=true, since an organization's repositories are unbounded.
 */
import { Counter, Histogram, Registry } from "prom-client";
import type { DecisionCode, RefusalCode } from "../../core/decision-codes.js";
import type { IgnoreCode } from "../../core/detect/index.js";
import type { BudgetKind, RateBudget } from "../../service/budget.js";
import { WRITE_PRIORITIES, type WriteEvent } from "../../github/pacing.js";
import type { WorkQueue } from "../queue/types.js";
import type { BridgeStore, DeliverySweep, Task } from "../store/types.js";
import { registerSharedGauges } from "./shared-gauges.js";
import { automationOf } from "../views.js";

/** What came of a delivery that asked for something: a run started or resumed, a follow-up held, a stop. */
export type AcceptedOutcome = "started" | "resumed" | "queued" | "stopped";

const PREFIX = "agent_run_bridge_";

/** What the engine reports as it works (implemented by the metrics; a no-op elsewhere). */
export interface EngineObserver {
  acknowledged(task: Task, latencyMs: number): void;
  runStarted(task: Task): void;
  runFinished(task: Task, outcome: string, durationMs: number | null): void;
}

/** What the webhook path reports: what was done with each delivery, and why one started nothing (core/decision-codes.ts). */
export interface DeliveryObserver {
  received(event: string, receipt: string): void;
  ignored(code: DecisionCode): void;
  refused(code: RefusalCode): void;
  /** Dropped at the intake for a reason no configuration changes (counted by `received` as not_for_us, not by `ignored`). */
  dropped?(code: IgnoreCode): void;
  /** The delivery became a task: a run to start or resume, a follow-up held, a stop. */
  accepted?(outcome: AcceptedOutcome): void;
}

/** What the delivery recovery sweep reports (src/app/delivery-recovery.ts). */
export interface RecoveryObserver {
  /** A sweep ended: `completed` (with its summary), `busy` (another replica held the lease) or `failed`. */
  deliverySweep(outcome: "completed" | "busy" | "failed", sweep: DeliverySweep | null): void;
}

export interface AppMetrics extends EngineObserver, DeliveryObserver, RecoveryObserver {
  readonly registry: Registry;
  webhookAnswered(status: number, seconds: number): void;
  serviceRequest(endpoint: string, status: number | "error"): void;
  budgetWaited(kind: BudgetKind, seconds: number): void;
  githubWrite(event: WriteEvent): void;
  /** The Prometheus text of every metric. */
  render(): Promise<string>;
}

export interface MetricsOptions {
  store: BridgeStore;
  queue: WorkQueue;
  /** Put the repository (owner/name) on run counters. */
  repoLabels: boolean;
  /** Put the automation's name on the started-runs counter (`""` for runs no automation started). Default false. */
  automationLabels?: boolean;
  /** The clock the overdue polls of watched runs are measured by (default Date.now). */
  now?: () => number;
}

/** Every endpoint label `serviceEndpointOf` gives. */
const SERVICE_ENDPOINTS = ["create", "resume", "get_run", "logs", "list_runs", "list_repos", "other"] as const;
/** Every reason a sweep leaves a failed delivery (src/app/delivery-recovery.ts). */
const RECOVERY_SKIP_REASONS = ["succeeded_later", "already_stored", "too_old", "already_claimed", "gave_up", "request_failed"] as const;
const SWEEP_OUTCOMES = ["completed", "busy", "failed"] as const;
const REFUSAL_CODES: readonly RefusalCode[] = ["permission", "over_limit", "ci_attempts_used", "config_error", "repository_mismatch"];

/** The service call a request path is, by shape (no ids in labels). */
export function serviceEndpointOf(method: string, path: string): string {
  if (/\/agent\/run\/resume$/.test(path)) return "resume";
  if (/\/agent\/run\/\d+\/logs$/.test(path)) return "logs";
  if (/\/agent\/run\/\d+$/.test(path)) return "get_run";
  if (/\/agent\/run$/.test(path) && method === "POST") return "create";
  if (/\/agent\/runs$/.test(path)) return "list_runs";
  if (/\/repos$/.test(path)) return "list_repos";
  return "other";
}

/** The counters and histograms of this replica, registered in `registry` in the order /metrics lists them. */
function createInstruments(registry: Registry, repoLabels: boolean, automationLabels: boolean) {
  const runLabels = [
    ...(repoLabels ? ["kind", "source_type", "repository"] : ["kind", "source_type"]),
    ...(automationLabels ? ["automation"] : []),
  ];
  const finishLabels = repoLabels ? ["outcome", "source_type", "repository"] : ["outcome", "source_type"];
  // Every instrument carries the bridge's prefix and is registered in this replica's registry only.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name: `${PREFIX}${name}`, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new Histogram<L>({ name: `${PREFIX}${name}`, help, labelNames, buckets, registers: [registry] });
  const webhooks = counter(
    "webhooks_received_total",
    "Webhook deliveries received, by event and what was done with them (queued, duplicate, not_for_us).",
    ["event", "receipt"],
  );
  const ignored = counter("webhooks_ignored_total", "Deliveries that started nothing, by reason code.", ["reason"]);
  const refused = counter("webhooks_refused_total", "Deliveries answered with a refusal, by reason code.", ["reason"]);
  const runs = counter("runs_started_total", "Agent runs created or resumed, by source type.", runLabels);
  const finished = counter("runs_finished_total", "Watched runs that ended, by outcome and source type.", finishLabels);
  const service = counter("service_requests_total", "Requests to the Agent Run Service, by endpoint and HTTP status.", [
    "endpoint",
    "status",
  ]);
  const service429 = counter("service_rate_limited_total", "Answers 429 from the Agent Run Service.", ["endpoint"]);
  const budgetWait = histogram(
    "service_budget_wait_seconds",
    "Time calls waited for the client-side rate budget.",
    [0.01, 0.1, 1, 5, 15, 30, 60, 120, 300],
    ["kind"],
  );
  const writes = counter("github_writes_total", "GitHub writes by priority and outcome (written, failed, superseded, stale, stopped).", [
    "priority",
    "outcome",
  ]);
  const pacing = histogram(
    "github_write_pacing_seconds",
    "Time GitHub writes waited in their installation's lane.",
    [0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 300],
    ["priority"],
  );
  const answer = histogram(
    "webhook_answer_seconds",
    "Time to answer a webhook delivery.",
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    ["status"],
  );
  const ack = histogram(
    "first_acknowledgement_seconds",
    "From a webhook's arrival to the first visible acknowledgement in its thread.",
    [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300],
  );
  const duration = histogram(
    "run_duration_seconds",
    "From a run's start to its result.",
    [30, 60, 300, 600, 1800, 3600, 7200, 14400],
    ["outcome"],
  );
  const recovery = {
    sweeps: counter(
      "delivery_recovery_sweeps_total",
      "Delivery recovery sweeps, by outcome (completed, busy: another replica was sweeping, failed).",
      ["outcome"],
    ),
    found: counter("delivery_recovery_failed_found_total", "Webhook deliveries found with every attempt failed.", []),
    redelivered: counter("delivery_recovery_redelivered_total", "Failed webhook deliveries GitHub was asked to redeliver.", []),
    skipped: counter("delivery_recovery_skipped_total", "Failed webhook deliveries not redelivered, by reason.", ["reason"]),
  };
  // The series alerts count are listed at 0 from the start: `rate` and `increase` see nothing of a series whose
  // first sample is already 1, so the first 429 or the first delivery left unrecovered would otherwise go unseen.
  for (const endpoint of SERVICE_ENDPOINTS) service429.inc({ endpoint }, 0);
  for (const reason of RECOVERY_SKIP_REASONS) recovery.skipped.inc({ reason }, 0);
  for (const outcome of SWEEP_OUTCOMES) recovery.sweeps.inc({ outcome }, 0);
  for (const reason of REFUSAL_CODES) refused.inc({ reason }, 0);
  for (const priority of WRITE_PRIORITIES) writes.inc({ priority, outcome: "failed" }, 0);
  return { webhooks, ignored, refused, runs, finished, service, service429, budgetWait, writes, pacing, answer, ack, duration, recovery };
}

export function createAppMetrics(options: MetricsOptions): AppMetrics {
  const registry = new Registry();
  const repoLabel = (task: Task): Record<string, string> =>
    options.repoLabels ? { repository: `${task.thread.owner}/${task.thread.repo}` } : {};
  const { webhooks, ignored, refused, runs, finished, service, service429, budgetWait, writes, pacing, answer, ack, duration, recovery } =
    createInstruments(registry, options.repoLabels, options.automationLabels ?? false);
  // Repositories name their automations, so the label is only there when the operator asks for it (cardinality).
  const automationLabel = (task: Task): Record<string, string> =>
    options.automationLabels ? { automation: automationOf(task) ?? "" } : {};
  registerSharedGauges(registry, { store: options.store, queue: options.queue, ...(options.now ? { now: options.now } : {}) });

  return {
    registry,
    received: (event, receipt) => webhooks.inc({ event, receipt }),
    webhookAnswered: (status, seconds) => answer.observe({ status: String(status) }, seconds),
    ignored: (code) => ignored.inc({ reason: code }),
    refused: (code) => refused.inc({ reason: code }),
    acknowledged: (_task, latencyMs) => ack.observe(latencyMs / 1000),
    runStarted: (task) =>
      runs.inc({
        kind: task.kind === "create" ? "created" : "resumed",
        source_type: task.sourceType,
        ...repoLabel(task),
        ...automationLabel(task),
      }),
    runFinished(task, outcome, durationMs) {
      finished.inc({ outcome, source_type: task.sourceType, ...repoLabel(task) });
      if (durationMs !== null) duration.observe({ outcome }, durationMs / 1000);
    },
    serviceRequest(endpoint, status) {
      service.inc({ endpoint, status: String(status) });
      if (status === 429) service429.inc({ endpoint });
    },
    budgetWaited: (kind, seconds) => budgetWait.observe({ kind }, seconds),
    githubWrite(event) {
      writes.inc({ priority: event.priority, outcome: event.outcome });
      pacing.observe({ priority: event.priority }, event.queuedMs / 1000);
    },
    deliverySweep(outcome, sweep: DeliverySweep | null) {
      recovery.sweeps.inc({ outcome });
      if (!sweep) return;
      recovery.found.inc(sweep.found);
      recovery.redelivered.inc(sweep.redelivered);
      for (const [reason, count] of Object.entries(sweep.skipped)) recovery.skipped.inc({ reason }, count);
    },
    render: () => registry.metrics(),
  };
}

/** A fetch that tells `onAnswer` the endpoint and status of every service call. */
export function observedFetch(inner: typeof fetch, onAnswer: (endpoint: string, status: number | "error") => void): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const endpoint = serviceEndpointOf((init?.method ?? "GET").toUpperCase(), url.pathname);
    try {
      const response = await inner(input, init);
      onAnswer(endpoint, response.status);
      return response;
    } catch (error) {
      onAnswer(endpoint, "error");
      throw error;
    }
  };
}

/** A budget that reports how long each acquire waited. */
export function observedBudget(inner: RateBudget, onWaited: (kind: BudgetKind, seconds: number) => void): RateBudget {
  return {
    async acquire(kind, acquireOptions) {
      const started = performance.now();
      const slot = await inner.acquire(kind, acquireOptions);
      onWaited(kind, (performance.now() - started) / 1000);
      return slot;
    },
    giveBack: (slot) => inner.giveBack(slot),
    waiting: (kind) => inner.waiting(kind),
    pause: (kind, ms) => inner.pause(kind, ms),
    busy: (kind) => inner.busy(kind),
    usage: () => inner.usage(),
  };
}

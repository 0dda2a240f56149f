/**
 * `GET /status`: one server-rendered page for the people who run the App (no script, no build
 * step, readable on a phone): runs in flight, follow-ups held behind them, recent failures and the
 * service budget in use, the last sweep for missed webhook deliveries. Everything comes from the shared store, so any replica shows the same
 * page, but for the recent deliveries and what came of each, which are this replica's own (ops/recent-deliveries.ts).
 */
import { DECISION_CODES } from "../../core/decision-codes.js";
import { escapeHtml } from "../../core/html.js";
import type { BudgetUsage, RateBudget } from "../../service/budget.js";
import type { BridgeStore, DeliverySweep, Task } from "../store/types.js";
import { operatorPageHeaders, styleElement } from "./page-headers.js";
import { automationOf } from "../views.js";
import { RECENT_DELIVERIES_LIMIT, type DeliveryRecord } from "./recent-deliveries.js";

export interface StatusSnapshot {
  generatedAt: number;
  replica: string;
  backend: string;
  inFlight: Task[];
  held: Task[];
  failures: Task[];
  budget: BudgetUsage;
  /** DELIVERY_RECOVERY_INTERVAL (0 = off) and the last completed sweep of any replica. */
  deliveryRecovery: { intervalMs: number; lastSweep: DeliverySweep | null };
  /** This replica's latest deliveries, newest first. */
  deliveries: DeliveryRecord[];
}

const IN_FLIGHT_LIMIT = 200;
const HELD_LIMIT = 100;
const FAILURE_SCAN = 300;
const FAILURE_LIMIT = 25;

export async function collectStatus(input: {
  store: BridgeStore;
  budget: RateBudget;
  replica: string;
  backend: string;
  recoveryIntervalMs: number;
  deliveries?: DeliveryRecord[];
  now?: number;
}): Promise<StatusSnapshot> {
  const { store } = input;
  const [inFlight, held, finished, budget, lastSweep] = await Promise.all([
    store.listTasks(["queued", "sending", "watching", "reporting"], IN_FLIGHT_LIMIT),
    store.listTasks(["held"], HELD_LIMIT),
    store.listTasks(["done", "abandoned"], FAILURE_SCAN, "newest"),
    input.budget.usage(),
    store.lastDeliverySweep(),
  ]);
  // Follow-ups merged into another resume end with an `error` note too: they are not failures.
  const failures = finished.filter((t) => t.error !== null && !t.error.startsWith("merged into")).slice(0, FAILURE_LIMIT);
  return {
    generatedAt: input.now ?? Date.now(),
    replica: input.replica,
    backend: input.backend,
    inFlight,
    held,
    failures,
    budget,
    deliveryRecovery: { intervalMs: input.recoveryIntervalMs, lastSweep },
    deliveries: input.deliveries ?? [],
  };
}

/** Only http(s) links are rendered as links: a run's page comes from the service, not from us. */
function link(url: string | null, text: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return escapeHtml(text);
  return `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
}

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`;
}

function threadCell(task: Task, githubWebUrl: string): string {
  const { owner, repo, issueNumber } = task.thread;
  return link(
    `${githubWebUrl}/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues/${issueNumber}`,
    `${owner}/${repo}#${issueNumber}`,
  );
}

/** The run, and the automation that started it, if one did. */
function runCell(task: Task): string {
  const run = task.runId === null ? "—" : link(task.webUrl, `#${task.runId}`);
  const automation = automationOf(task);
  return automation === undefined ? run : `${run} <span class="meta">automation ${escapeHtml(automation)}</span>`;
}

function table(caption: string, headers: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return `<section><h2>${escapeHtml(caption)}</h2><p class="empty">${escapeHtml(empty)}</p></section>`;
  const head = headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map((cells) => `<tr>${cells.map((c, i) => `<td data-label="${escapeHtml(headers[i]!)}">${c}</td>`).join("")}</tr>`)
    .join("\n");
  return `<section><h2>${escapeHtml(caption)} <span class="count">${rows.length}</span></h2><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></section>`;
}

function budgetLine(name: string, usage: BudgetUsage["shared"]): string {
  const percent = usage.limit > 0 ? Math.round((usage.used / usage.limit) * 100) : 0;
  return `<li><strong>${escapeHtml(name)}</strong>: ${usage.used} of ${usage.limit} in the last ${usage.windowMs < 10_000 ? (usage.windowMs / 1000).toFixed(1) : Math.round(usage.windowMs / 1000)} s <meter min="0" max="${usage.limit}" value="${Math.min(usage.used, usage.limit)}">${percent}%</meter></li>`;
}

/** Repository, thread, run, state (with the service's status while watched), age, current step. */
function inFlightRow(t: Task, web: string, now: number): string[] {
  return [
    escapeHtml(`${t.thread.owner}/${t.thread.repo}`),
    threadCell(t, web),
    runCell(t),
    escapeHtml(t.state === "watching" && t.lastStatus ? `${t.state} (${t.lastStatus})` : t.state),
    escapeHtml(formatAge(now - (t.startedAt ?? t.createdAt))),
    escapeHtml(t.progress.currentStep ?? "—"),
  ];
}

/** Thread, the run it waits for, who asked, how long it has waited. */
function heldRow(t: Task, web: string, now: number): string[] {
  return [threadCell(t, web), runCell(t), escapeHtml(t.requestedBy ? `@${t.requestedBy}` : "—"), escapeHtml(formatAge(now - t.createdAt))];
}

/** Thread, run, state, when, and the reason cut short: the page is a summary, the store has the rest. */
function failureRow(t: Task, web: string, now: number): string[] {
  return [
    threadCell(t, web),
    runCell(t),
    escapeHtml(t.state),
    escapeHtml(formatAge(now - t.updatedAt)),
    escapeHtml((t.error ?? "").slice(0, 300)),
  ];
}

/** When, which delivery, the event, where, and what came of it: the code with its meaning from core/decision-codes.ts. */
function deliveryRow(d: DeliveryRecord, web: string, now: number): string[] {
  const [owner, name] = d.repo?.split("/") ?? [];
  const where =
    owner && name && d.thread !== null
      ? link(`${web}/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/issues/${d.thread}`, `${d.repo}#${d.thread}`)
      : escapeHtml(d.repo ?? "—");
  const code =
    d.code === null ? "—" : `<code>${escapeHtml(d.code)}</code> <span class="meta">${escapeHtml(DECISION_CODES[d.code].means)}</span>`;
  return [
    `<span title="${escapeHtml(new Date(d.at).toISOString())}">${escapeHtml(formatAge(now - d.at))} ago</span>`,
    `<code>${escapeHtml(d.id)}</code>`,
    escapeHtml(d.event),
    where,
    escapeHtml(d.outcome),
    code,
  ];
}

/** When the last sweep ran, what it found and asked GitHub for, and why it left the rest. */
function recoverySection({ intervalMs, lastSweep }: StatusSnapshot["deliveryRecovery"], now: number): string {
  let text: string;
  if (intervalMs === 0) text = "Off (DELIVERY_RECOVERY_INTERVAL=0): failed deliveries are redelivered only by hand.";
  else if (!lastSweep) text = `No sweep has completed yet (one runs every ${formatAge(intervalMs)}).`;
  else {
    const skipped = Object.entries(lastSweep.skipped)
      .map(([reason, count]) => `${count} ${reason.replace(/_/g, " ")}`)
      .join(", ");
    text =
      `Last sweep ${formatAge(now - lastSweep.finishedAt)} ago (${new Date(lastSweep.finishedAt).toISOString()}): ` +
      `${lastSweep.found} failed ${lastSweep.found === 1 ? "delivery" : "deliveries"} found, ${lastSweep.redelivered} redelivered` +
      `${skipped ? `; left alone: ${skipped}` : ""}${lastSweep.complete ? "" : "; stopped at its page limit"}. One runs every ${formatAge(intervalMs)}.`;
  }
  return `<section><h2>Missed webhook deliveries</h2><p>${escapeHtml(text)}</p></section>`;
}

const STATUS_PAGE_STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 72rem; color: #1f2328; }
  h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin-top: 1.5rem; }
  .count { color: #59636e; font-weight: normal; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #d1d9e0; vertical-align: top; overflow-wrap: anywhere; }
  .meta, .empty { color: #59636e; }
  meter { width: 6rem; vertical-align: middle; }
  @media (max-width: 40rem) {
    thead { display: none; }
    table, tbody, tr, td { display: block; width: 100%; }
    tr { border: 1px solid #d1d9e0; border-radius: 6px; margin-bottom: .6rem; padding: .3rem; }
    td { border: 0; padding: .15rem .3rem; }
    td::before { content: attr(data-label) ": "; font-weight: 600; }
  }
`;

/** What `GET /status` is sent with: its policy allows its one stylesheet and nothing else (ops/page-headers.ts). */
export const STATUS_PAGE_HEADERS = operatorPageHeaders(STATUS_PAGE_STYLE);

export function renderStatusPage(snapshot: StatusSnapshot, options: { githubWebUrl?: string } = {}): string {
  const web = (options.githubWebUrl ?? "https://github.com").replace(/\/+$/, "");
  const now = snapshot.generatedAt;
  const inFlight = snapshot.inFlight.map((t) => inFlightRow(t, web, now));
  const held = snapshot.held.map((t) => heldRow(t, web, now));
  const failures = snapshot.failures.map((t) => failureRow(t, web, now));
  const deliveries = snapshot.deliveries.map((d) => deliveryRow(d, web, now));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>agent-run-bridge status</title>
${styleElement(STATUS_PAGE_STYLE)}
</head>
<body>
<h1>agent-run-bridge status</h1>
<p class="meta">Generated ${escapeHtml(new Date(now).toISOString())} by ${escapeHtml(snapshot.replica)} (${escapeHtml(snapshot.backend)} backend). Reload for fresh figures.</p>
<section><h2>Service budget in use</h2><ul>
${budgetLine("All calls", snapshot.budget.shared)}
${budgetLine("Run creations", snapshot.budget.create)}
</ul></section>
${recoverySection(snapshot.deliveryRecovery, now)}
${table("Runs in flight", ["Repository", "Thread", "Run", "State", "Age", "Current step"], inFlight, "No run is in flight.")}
${table("Held follow-ups", ["Thread", "Waiting for run", "Asked by", "Waiting for"], held, "No follow-up is waiting.")}
${table("Recent failures", ["Thread", "Run", "State", "When", "Reason"], failures, "No recent failure.")}
${table(
  `Recent deliveries to ${snapshot.replica}`,
  ["When", "Delivery", "Event", "Thread", "Outcome", "Code"],
  deliveries,
  "No delivery since this replica started.",
)}
<p class="meta">The last ${RECENT_DELIVERIES_LIMIT} deliveries this replica received or worked on, newest first (events the App never acts on are left out). What each code means and what to do about it: docs/troubleshooting.md.</p>
</body>
</html>
`;
}

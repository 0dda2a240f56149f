/**
 * The emulator's stand-in for the service's web UI: self-contained HTML pages for a run (its
 * `web_url`), the list of runs, and the fake git host's pull requests. Every value is escaped.
 * Pure: data in, HTML out.
 */
import { escapeHtml as escapeText } from "../core/html.js";
import type { WireLogEntry, WirePullRequest, WireRun } from "./store.js";

/** Any value as escaped HTML text: a string as it is, nothing as "", anything else as indented JSON. */
export function escapeHtml(value: unknown): string {
  return escapeText(typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value, null, 2));
}

/** No scripts, no external resources: the page works offline and cannot run injected code. */
export const PAGE_SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
  "x-content-type-options": "nosniff",
} as const;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328;max-width:1200px}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.35rem .5rem;vertical-align:top;text-align:left}
th{background:#f6f8fa}pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:12px}
.status{display:inline-block;padding:.1rem .5rem;border-radius:1rem;background:#ddf4ff;font-weight:600}
.muted{color:#656d76}`;

function page(title: string, body: string, refreshSeconds?: number): string {
  const refresh = refreshSeconds === undefined ? "" : `<meta http-equiv="refresh" content="${refreshSeconds}">`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return `<td class="muted">–</td>`;
  if (typeof value === "string") return `<td><pre>${escapeHtml(value)}</pre></td>`;
  return `<td><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></td>`;
}

function link(href: string, text: string): string {
  // Only http(s) links: a scripted value cannot smuggle a javascript: URL in.
  return /^https?:\/\//i.test(href) ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

export interface RunPageInput {
  run: WireRun;
  /** The creation prompt, then each resume prompt. */
  prompts: string[];
  logs: WireLogEntry[];
  inProgress: boolean;
  listUrl: string;
}

export function renderRunPage(input: RunPageInput): string {
  const { run, prompts, logs } = input;
  const fields: Array<[string, unknown]> = [
    ["Status", run.status],
    ["Organization", String(run.organization_id)],
    ["Created", run.created_at],
    ["Source", run.source_type],
    ["Summary", run.summary],
    ["Result", run.result],
    ["Metadata", run.metadata],
  ];
  const promptRows = prompts.map((p, i) => `<tr><th>${i === 0 ? "Prompt" : `Follow-up ${i}`}</th>${cell(p)}</tr>`).join("");
  const fieldRows = fields.map(([name, value]) => `<tr><th>${escapeHtml(name)}</th>${cell(value)}</tr>`).join("");
  const prs =
    run.git_host_pull_requests.length === 0
      ? `<p class="muted">No pull requests yet.</p>`
      : `<ul>${run.git_host_pull_requests.map((pr) => `<li>${link(pr.url, `#${pr.id} ${pr.title}`)} <span class="muted">(${escapeHtml(pr.head_branch_name)})</span></li>`).join("")}</ul>`;
  const trace =
    logs.length === 0
      ? `<p class="muted">No log entries yet.</p>`
      : `<table><thead><tr><th>#</th><th>Time</th><th>Type</th><th>Tool</th><th>Thought</th><th>Tool input</th><th>Tool output</th><th>Observation</th></tr></thead><tbody>${logs
          .map(
            (e, i) =>
              `<tr><td>${i + 1}</td>${cell(e.created_at)}${cell(e.message_type)}${cell(e.tool_name)}${cell(e.thought)}${cell(e.tool_input)}${cell(e.tool_output)}${cell(e.observation)}</tr>`,
          )
          .join("")}</tbody></table>`;
  const body = `<p>${link(input.listUrl, "← all runs")}</p>
<h1>Agent run #${escapeHtml(String(run.id))} <span class="status">${escapeHtml(run.status)}</span></h1>
${input.inProgress ? `<p class="muted">In progress: this page refreshes every 2 seconds.</p>` : ""}
<table><tbody>${promptRows}${fieldRows}</tbody></table>
<h2>Pull requests</h2>${prs}
<h2>Trace (${logs.length} entries)</h2>${trace}`;
  return page(`Agent run #${run.id} – ${run.status}`, body, input.inProgress ? 2 : undefined);
}

export interface RunListRow {
  run: WireRun;
  prompt: string;
}

export function renderRunList(rows: RunListRow[], anyInProgress: boolean): string {
  const table =
    rows.length === 0
      ? `<p class="muted">No runs yet. Create one with POST to the create-run endpoint.</p>`
      : `<table><thead><tr><th>Run</th><th>Organization</th><th>Status</th><th>Created</th><th>Prompt</th><th>Pull requests</th></tr></thead><tbody>${rows
          .map(
            ({ run, prompt }) =>
              `<tr><td>${link(run.web_url, `#${run.id}`)}</td><td>${escapeHtml(String(run.organization_id))}</td><td>${escapeHtml(run.status)}</td>${cell(run.created_at)}${cell(prompt.length > 160 ? `${prompt.slice(0, 159)}…` : prompt)}<td>${run.git_host_pull_requests.length}</td></tr>`,
          )
          .join("")}</tbody></table>`;
  return page(
    "Agent Run Service emulator",
    `<h1>Agent Run Service emulator</h1><h2>Runs (${rows.length})</h2>${table}`,
    anyInProgress ? 2 : undefined,
  );
}

export function renderPullRequestPage(pr: WirePullRequest, run: WireRun): string {
  const body = `<h1>Pull request #${escapeHtml(String(pr.id))}: ${escapeHtml(pr.title)}</h1>
<table><tbody><tr><th>Branch</th>${cell(pr.head_branch_name)}</tr><tr><th>Opened</th>${cell(pr.created_at)}</tr>
<tr><th>Agent run</th><td>${link(run.web_url, `#${run.id}`)}</td></tr></tbody></table>
<p class="muted">A pull request of the emulator's fake git host: nothing was pushed anywhere.</p>`;
  return page(`Pull request #${pr.id}`, body);
}

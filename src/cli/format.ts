/** Pure renderers of the CLI's human output. Machine output (`--json`) is the service's own objects. */
import type { AgentRun, LogEntry, RunPhase } from "../service/index.js";

const LABEL_WIDTH = 9;

function field(label: string, value: string): string {
  const pad = " ".repeat(LABEL_WIDTH);
  const [first = "", ...rest] = value.split(/\r?\n/);
  return [`${label.padEnd(LABEL_WIDTH)}${first}`, ...rest.map((line) => `${pad}${line}`)].join("\n");
}

/** A compact block: id, status, link, summary, result and pull requests. Ends with a newline. */
export function renderRun(run: AgentRun): string {
  const lines = [field("run", String(run.id)), field("status", run.status ?? "(none yet)")];
  if (run.web_url) lines.push(field("web", run.web_url));
  if (run.summary) lines.push(field("summary", run.summary.trim()));
  if (run.result) lines.push(field("result", run.result.trim()));
  const prs = run.git_host_pull_requests ?? [];
  prs.forEach((pr, index) => {
    const label = index === 0 ? (prs.length === 1 ? "PR" : "PRs") : "";
    const details = [pr.title ?? "(untitled)", pr.url ?? "(no link)", pr.head_branch_name ? `branch ${pr.head_branch_name}` : undefined];
    lines.push(field(label, details.filter((d): d is string => d !== undefined).join("\n")));
  });
  return `${lines.join("\n")}\n`;
}

/** What the user can do next when a watched run stopped without succeeding or failing. */
export function renderPhaseNote(run: AgentRun, phase: RunPhase): string | undefined {
  if (phase === "waiting_for_input") {
    return `run ${run.id} is waiting for input: continue it with \`agent-run resume ${run.id} --prompt "…"\`.`;
  }
  if (phase === "stopped") {
    return `run ${run.id} was stopped before it finished: continue it with \`agent-run resume ${run.id} --prompt "…"\`.`;
  }
  return undefined;
}

/** One line of a run's trace: time, type, tool and the most telling text, shortened. */
export function renderLogEntry(entry: LogEntry, maxText = 160): string {
  const parts = [timeOf(entry.created_at), entry.message_type ?? "(untyped)"];
  if (entry.tool_name) parts.push(entry.tool_name);
  const text = entry.thought ?? textOf(entry.observation) ?? textOf(entry.tool_input);
  if (text) parts.push(shorten(text, maxText));
  return parts.join("  ");
}

/** The live progress line shown while waiting on a terminal. */
export function renderProgress(run: AgentRun | undefined, runId: number, elapsedMs: number): string {
  return `run ${runId}  ${run?.status ?? "…"}  ${renderDuration(elapsedMs)}`;
}

/** 5s, 3m05s, 1h02m. */
function renderDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, "0")}m`;
  if (m > 0) return `${m}m${String(s).padStart(2, "0")}s`;
  return `${s}s`;
}

export interface EmulatorBanner {
  url: string;
  token: string;
  orgId: number;
  timeScale: number;
  statusVocabulary: string;
  /** Suggested poll interval for a sped-up emulator, in seconds. */
  pollIntervalSeconds?: number;
}

/**
 * What `agent-run emulator` prints on stdout: only shell comments and `export` lines, so the whole
 * output can be pasted (or eval'd) as is.
 */
export function renderEmulatorBanner(b: EmulatorBanner): string {
  const lines = [
    `# Agent Run Service emulator listening on ${b.url} (time scale ${b.timeScale}, ${b.statusVocabulary} statuses).`,
    "# Paste these lines into another shell. The token is the emulator's own local token, not a secret.",
    `export AGENT_RUN_API_URL=${shellQuote(b.url)}`,
    `export AGENT_RUN_API_TOKEN=${shellQuote(b.token)}`,
    `export AGENT_RUN_ORG_ID=${b.orgId}`,
  ];
  if (b.pollIntervalSeconds !== undefined) lines.push(`export AGENT_RUN_POLL_INTERVAL=${b.pollIntervalSeconds}`);
  lines.push("# Press Ctrl-C to stop.");
  return `${lines.join("\n")}\n`;
}

/** Single-quotes a value for POSIX shells unless it is plainly safe. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function timeOf(createdAt: string | null | undefined): string {
  if (!createdAt) return "--:--:--";
  const match = /(\d{2}:\d{2}:\d{2})/.exec(createdAt);
  return match?.[1] ?? createdAt;
}

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function shorten(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** How a Task is laid out in the SQLite store's tasks table, and read back from a row. */
import type { Task, TaskState, TraceProgress } from "./types.js";
import { EMPTY_PROGRESS } from "./task-keys.js";

export interface TaskRow {
  id: number;
  kind: string;
  state: string;
  source_type: string;
  thread: string;
  run_id: number | null;
  org_id: number;
  tracking_comment_id: number | null;
  reaction: string | null;
  request: string;
  requested_by: string | null;
  created_at: number;
  started_at: number | null;
  last_status: string | null;
  web_url: string | null;
  progress: string;
  final_run: string | null;
  watch_timed_out: number;
  acknowledged_at: number | null;
  sent_at: number | null;
  received_at: number | null;
  traceparent: string | null;
  next_poll_at: number;
  poll_interval_ms: number;
  swept_at: number | null;
  last_edit_at: number;
  deadline_at: number;
  error: string | null;
  interrupt: string | null;
  delivered: string;
  interrupts_refused: number;
  updated_at: number;
}

export const ACTIVE_STATES: TaskState[] = ["queued", "sending", "watching", "reporting"];

/** Column name for each Task field that can be patched, with its encoder. */
export const COLUMNS: { [K in keyof Task]?: [string, (v: Task[K]) => unknown] } = {
  kind: ["kind", (v) => v],
  state: ["state", (v) => v],
  sourceType: ["source_type", (v) => v],
  thread: ["thread", (v) => JSON.stringify(v)],
  runId: ["run_id", (v) => v],
  orgId: ["org_id", (v) => v],
  trackingCommentId: ["tracking_comment_id", (v) => v],
  reaction: ["reaction", (v) => (v ? JSON.stringify(v) : null)],
  request: ["request", (v) => JSON.stringify(v)],
  requestedBy: ["requested_by", (v) => v],
  startedAt: ["started_at", (v) => v],
  lastStatus: ["last_status", (v) => v],
  webUrl: ["web_url", (v) => v],
  progress: ["progress", (v) => JSON.stringify(v)],
  finalRun: ["final_run", (v) => (v ? JSON.stringify(v) : null)],
  watchTimedOut: ["watch_timed_out", (v) => (v ? 1 : 0)],
  acknowledgedAt: ["acknowledged_at", (v) => v],
  sentAt: ["sent_at", (v) => v],
  receivedAt: ["received_at", (v) => v],
  traceparent: ["traceparent", (v) => v],
  nextPollAt: ["next_poll_at", (v) => v],
  pollIntervalMs: ["poll_interval_ms", (v) => v],
  sweptAt: ["swept_at", (v) => v],
  lastEditAt: ["last_edit_at", (v) => v],
  deadlineAt: ["deadline_at", (v) => v],
  error: ["error", (v) => v],
  interrupt: ["interrupt", (v) => (v ? JSON.stringify(v) : null)],
  delivered: ["delivered", (v) => JSON.stringify(v)],
  interruptsRefused: ["interrupts_refused", (v) => (v ? 1 : 0)],
};

export function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    kind: row.kind as Task["kind"],
    state: row.state as TaskState,
    sourceType: row.source_type as Task["sourceType"],
    thread: JSON.parse(row.thread) as Task["thread"],
    runId: row.run_id,
    orgId: row.org_id,
    trackingCommentId: row.tracking_comment_id,
    reaction: row.reaction ? (JSON.parse(row.reaction) as Task["reaction"]) : null,
    request: JSON.parse(row.request) as Task["request"],
    requestedBy: row.requested_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    lastStatus: row.last_status,
    webUrl: row.web_url,
    progress: { ...EMPTY_PROGRESS, ...(JSON.parse(row.progress) as Partial<TraceProgress>) },
    finalRun: row.final_run ? (JSON.parse(row.final_run) as Record<string, unknown>) : null,
    watchTimedOut: row.watch_timed_out === 1,
    acknowledgedAt: row.acknowledged_at,
    sentAt: row.sent_at,
    receivedAt: row.received_at,
    traceparent: row.traceparent ?? null,
    nextPollAt: row.next_poll_at,
    pollIntervalMs: row.poll_interval_ms,
    sweptAt: row.swept_at ?? null,
    lastEditAt: row.last_edit_at,
    deadlineAt: row.deadline_at,
    error: row.error,
    interrupt: row.interrupt ? (JSON.parse(row.interrupt) as Task["interrupt"]) : null,
    delivered: JSON.parse(row.delivered) as Task["delivered"],
    interruptsRefused: row.interrupts_refused === 1,
    updatedAt: row.updated_at,
  };
}

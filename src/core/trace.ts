/**
 * Reads a run's log entries (spec §2.5–2.7) into what people want to see: one line for what the
 * agent is doing now, and a digest for the result comment. The logs endpoint is ALPHA: every
 * field may be missing, `message_type` is an open string and `tool_input` may even arrive as a
 * JSON string; nothing here throws on such entries, it just says less.
 *
 * Entries are taken in the order the service returned them (their `created_at` has been seen
 * without a time zone, so it is not used for ordering).
 */
import type { LogEntry, MessageType } from "../service/wire.js";
import { MESSAGE_TYPES, TOOL_NAMES } from "../service/wire.js";
import { inlineCode } from "./sanitize-output/code.js";
import { md, type SafeMarkdown, truncateText } from "./sanitize-output/safe-markdown.js";
import { sanitizeInline } from "./sanitize-output/prose.js";

export interface TraceOptions {
  /** Wrapped in code wherever agent text repeats it, so a step line cannot trigger the bot. */
  triggerPhrase?: string;
}

export interface TraceDigest {
  /** Raw error texts (ERROR and PR_CREATION_FAILED entries), oldest first, identical ones counted once with "(×N)". Render through sanitize-output. */
  errors: string[];
  /** The last steps, oldest first, as safe Markdown lines. */
  lastSteps: SafeMarkdown[];
  /** The last final answer's raw text, if any. Render through sanitize-output. */
  finalAnswer: string | null;
  totalEntries: number;
}

/** Bounds of what a digest keeps from one entry. */
const TRACE_LIMITS = {
  errorLength: 4000,
  finalAnswerLength: 60_000,
  excerptLength: 120,
  patternLength: 80,
  pathLength: 120,
} as const;

const KNOWN_TYPES = new Set<string>(MESSAGE_TYPES);

function messageTypeOf(entry: LogEntry): MessageType | null {
  const raw = typeof entry.message_type === "string" ? entry.message_type.trim().toUpperCase() : "";
  return KNOWN_TYPES.has(raw) ? (raw as MessageType) : null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (!trimmed.startsWith("{")) return null;
    try {
      return asRecord(JSON.parse(trimmed));
    } catch {
      return null;
    }
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The readable text of an observation: a string, or the usual message field of an object, or its JSON. */
export function observationText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return nonEmptyString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const record = asRecord(value);
  if (record) {
    for (const key of ["message", "error", "detail", "content", "text", "result", "answer", "output"]) {
      const text = nonEmptyString(record[key]);
      if (text) return text;
    }
  }
  try {
    const json = JSON.stringify(value);
    return json === undefined || json === "{}" || json === "[]" ? null : json;
  } catch {
    return null;
  }
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? ""
  );
}

function excerpt(text: string, options: TraceOptions): SafeMarkdown {
  return sanitizeInline(firstLine(text), { maxLength: TRACE_LIMITS.excerptLength, triggerPhrase: options.triggerPhrase });
}

function pathsOf(input: Record<string, unknown>): string | null {
  const single = nonEmptyString(input.path) ?? nonEmptyString(input.file_path) ?? nonEmptyString(input.directory);
  if (single) return single;
  if (Array.isArray(input.paths)) {
    const names = input.paths.map(nonEmptyString).filter((name): name is string => name !== null);
    if (names.length > 0) return names.join(", ");
  }
  return null;
}

function describeTool(entry: LogEntry): SafeMarkdown | null {
  const tool = nonEmptyString(entry.tool_name);
  if (!tool) return null;
  const input = asRecord(entry.tool_input) ?? {};
  switch (tool.toLowerCase()) {
    case TOOL_NAMES.search: {
      const pattern = nonEmptyString(input.pattern) ?? nonEmptyString(input.query) ?? nonEmptyString(input.regex);
      const path = pathsOf(input);
      if (!pattern)
        return path ? md`Searching the code in ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}` : md`Searching the code`;
      const what = inlineCode(pattern, { maxLength: TRACE_LIMITS.patternLength });
      return path
        ? md`Searching the code for ${what} in ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}`
        : md`Searching the code for ${what}`;
    }
    case TOOL_NAMES.write: {
      const path = pathsOf(input);
      return path ? md`Writing ${inlineCode(path, { maxLength: TRACE_LIMITS.pathLength })}` : md`Writing a file`;
    }
    default:
      return md`Running ${inlineCode(tool, { maxLength: 60 })}`;
  }
}

function errorText(entry: LogEntry): string | null {
  return observationText(entry.observation) ?? nonEmptyString(entry.thought);
}

function describeError(entry: LogEntry, lead: SafeMarkdown, options: TraceOptions): SafeMarkdown {
  const tool = nonEmptyString(entry.tool_name);
  const where = tool ? md`${lead} in ${inlineCode(tool, { maxLength: 60 })}` : lead;
  const text = errorText(entry);
  return text ? md`${where}: ${excerpt(text, options)}` : where;
}

type Describer = (entry: LogEntry, options: TraceOptions) => SafeMarkdown | null;

/** One describer per spec §2.6 type: the compiler checks the list against wire.ts. */
const DESCRIBE: Record<MessageType, Describer> = {
  ACTION: (entry) => describeTool(entry) ?? md`Taking an action`,
  PLAN_EVALUATION: () => md`Evaluating the plan`,
  FINAL_ANSWER: () => md`Writing the final answer`,
  ERROR: (entry, options) => describeError(entry, md`Error`, options),
  USER_MESSAGE: () => md`Reading a message from the user`,
  USER_GIT_HOST_ISSUE_COMMENT: () => md`Reading a comment from the thread`,
  INITIAL_PR_GENERATION: () => md`Opening a pull request`,
  DETECT_PR_ERRORS: () => md`Checking the pull request for errors`,
  FIX_PR_ERRORS: () => md`Fixing errors in the pull request`,
  PR_CREATION_FAILED: (entry, options) => describeError(entry, md`Error: the pull request could not be created`, options),
  PR_EVALUATION: () => md`Reviewing the pull request`,
  COMMIT_EVALUATION: () => md`Reviewing the commits`,
  AGENT_RUN_LINK: () => md`Linking a related agent run`,
};

const ERROR_TYPES = new Set<MessageType>(["ERROR", "PR_CREATION_FAILED"] satisfies MessageType[]);

function isEntry(value: unknown): value is LogEntry {
  return typeof value === "object" && value !== null;
}

/** One short Markdown line for an entry, or null when it says nothing a person can use. */
export function describeStep(entry: LogEntry, options: TraceOptions = {}): SafeMarkdown | null {
  if (!isEntry(entry)) return null;
  const type = messageTypeOf(entry);
  // An unknown type (the endpoint is ALPHA) still says something when it names a tool.
  if (type === null) return describeTool(entry);
  return DESCRIBE[type](entry, options);
}

/** What the agent is doing now: the latest entry that says something, or null. */
export function describeCurrentStep(entries: readonly LogEntry[], options: TraceOptions = {}): SafeMarkdown | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const step = describeStep(entries[i]!, options);
    if (step !== null) return step;
  }
  return null;
}

/** The result comment's trace: every error (counted once each), the last `maxSteps` steps, the final answer. */
export function digestTrace(entries: readonly LogEntry[], options: TraceOptions & { maxSteps: number }): TraceDigest {
  if (!Number.isInteger(options.maxSteps) || options.maxSteps < 0) {
    throw new RangeError(`digestTrace: maxSteps must be a whole number of 0 or more, got ${String(options.maxSteps)}`);
  }
  const errorCounts = new Map<string, number>();
  const steps: SafeMarkdown[] = [];
  let finalAnswer: string | null = null;
  for (const entry of entries) {
    if (!isEntry(entry)) continue;
    const type = messageTypeOf(entry);
    if (type !== null && ERROR_TYPES.has(type)) {
      const tool = nonEmptyString(entry.tool_name);
      const text = errorText(entry) ?? "(no details given)";
      const key = truncateText(tool ? `${tool}: ${text}` : text, TRACE_LIMITS.errorLength);
      errorCounts.set(key, (errorCounts.get(key) ?? 0) + 1);
    }
    if (type === "FINAL_ANSWER") {
      const text = observationText(entry.observation) ?? nonEmptyString(entry.thought);
      if (text) finalAnswer = truncateText(text, TRACE_LIMITS.finalAnswerLength);
    }
    const step = describeStep(entry, options);
    if (step !== null) steps.push(step);
  }
  const errors = [...errorCounts].map(([text, count]) => (count > 1 ? `${text} (×${count})` : text));
  return {
    errors,
    lastSteps: options.maxSteps === 0 ? [] : steps.slice(-options.maxSteps),
    finalAnswer,
    totalEntries: entries.length,
  };
}

/**
 * Which script drives a run: the first script whose `match` is in the prompt, else the oldest
 * script without `match`, else the default. Creations and resumes each take a script.
 */
import * as z from "zod";
import type { RunScript } from "./types.js";

export const DEFAULT_RUN_SCRIPT: RunScript = {
  durationMs: 20_000,
  outcome: "completed",
  pullRequests: 1,
  logSteps: 12,
};

/** The most log entries one run part may plan: keeps a typo from eating the emulator's memory. */
const MAX_LOG_STEPS = 10_000;

const ScriptedPullRequestSchema = z.strictObject({
  title: z.string().min(1, { error: "pull request title must not be empty" }),
  head_branch_name: z.string().min(1, { error: "head_branch_name must not be empty" }),
});

/** The `agent-run-review` JSON a scripted review run answers with (docs/review-format.md). */
export const ScriptedReviewSchema = z.strictObject({
  summary: z.string({ error: "review.summary must be a string" }),
  comments: z
    .array(
      z.strictObject({
        path: z.string().min(1, { error: "a review comment's path must not be empty" }),
        line: z.number().int().min(1, { error: "a review comment's line must be 1 or more" }),
        start_line: z.number().int().min(1).optional(),
        side: z.enum(["RIGHT", "LEFT"], { error: "side must be RIGHT or LEFT" }).optional(),
        body: z.string(),
        suggestion: z.string().optional(),
      }),
    )
    .default([]),
});

/** The info string of a review run's answer block. */
export const REVIEW_BLOCK_INFO = "agent-run-review";

/** A review run's result: the summary, then the one fenced block the bridge reads (JSON never holds a fence line). */
export function reviewResultText(review: z.output<typeof ScriptedReviewSchema>): string {
  return `${review.summary}\n\n\`\`\`${REVIEW_BLOCK_INFO}\n${JSON.stringify(review, null, 2)}\n\`\`\`\n`;
}

export const RunScriptInputSchema = z.strictObject({
  match: z.string().min(1, { error: "match must not be empty (leave it out to script the next runs)" }).optional(),
  durationMs: z.number().min(0, { error: "durationMs must be 0 or more (emulated milliseconds)" }).optional(),
  outcome: z.enum(["completed", "failed"], { error: "outcome must be completed or failed" }).optional(),
  finalStatus: z.string().min(1, { error: "finalStatus must not be empty" }).optional(),
  pullRequests: z
    .union([z.array(ScriptedPullRequestSchema), z.number().int().min(0).max(100)], {
      error: "pullRequests must be a count (0..100) or a list of {title, head_branch_name}",
    })
    .optional(),
  logSteps: z
    .number()
    .int({ error: "logSteps must be an integer" })
    .min(0, { error: "logSteps must be 0 or more" })
    .max(MAX_LOG_STEPS, { error: `logSteps must be at most ${MAX_LOG_STEPS}` })
    .optional(),
  summary: z.string().optional(),
  result: z.string().optional(),
  review: ScriptedReviewSchema.optional(),
  errorMessage: z.string().optional(),
  times: z.number().int().min(1, { error: "times must be 1 or more" }).optional(),
});

/** The script a run part follows, with the default filled in. */
export type ResolvedScript = Omit<RunScript, "match" | "times">;

/** Merges a partial script over a base, validating it. Throws a RangeError naming the bad field. */
export function completeScript(partial: Partial<RunScript>, base: ResolvedScript): ResolvedScript {
  const parsed = RunScriptInputSchema.safeParse(partial);
  if (!parsed.success) {
    throw new RangeError(
      `invalid run script: ${parsed.error.issues.map((i) => `${i.path.join(".") || "script"}: ${i.message}`).join("; ")}`,
    );
  }
  const { match: _match, times: _times, ...rest } = parsed.data;
  const merged: ResolvedScript = { ...base };
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(merged, { [key]: value });
  }
  return merged;
}

interface BookEntry {
  match?: string;
  remaining: number;
  script: ResolvedScript;
}

export class ScriptBook {
  private readonly entries: BookEntry[] = [];

  constructor(readonly defaults: ResolvedScript) {}

  add(partial: Partial<RunScript>): void {
    const script = completeScript(partial, this.defaults);
    const times = partial.times ?? (partial.match === undefined ? 1 : Number.POSITIVE_INFINITY);
    this.entries.push({ match: partial.match, remaining: times, script });
  }

  /** Takes the script for the next run part with this prompt (consuming one use of it). */
  take(prompt: string): { script: ResolvedScript; scripted: boolean } {
    const entry =
      this.entries.find((e) => e.match !== undefined && prompt.includes(e.match)) ?? this.entries.find((e) => e.match === undefined);
    if (!entry) return { script: this.defaults, scripted: false };
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.splice(this.entries.indexOf(entry), 1);
    return { script: entry.script, scripted: true };
  }
}

/**
 * The output format of a review run: the run's `result` holds one fenced block whose info string is
 * `agent-run-review`, containing JSON `{"summary", "comments": [{"path", "line", "start_line"?,
 * "side"?, "body", "suggestion"?}]}`. The prompt section here states it to the agent; schema.ts
 * holds what parse.ts checks it against (apart, so that a prompt builds no schema).
 */
import { identifier, joinPromptText, promptText, type PromptText } from "../prompt/material.js";

export const REVIEW_INFO_STRING = "agent-run-review";

/** Bounds: a finding's text stays within what a review comment can hold. */
export const REVIEW_LIMITS = { summary: 20_000, body: 10_000, suggestion: 20_000, path: 1000, comments: 200 } as const;

/** A finding's side (`RIGHT` unless it says `LEFT`). */
export const sideOf = (finding: { side?: "RIGHT" | "LEFT" | undefined }): "RIGHT" | "LEFT" => finding.side ?? "RIGHT";

/** The prompt section that asks for a review and states the output format (the info string and every field). */
export function reviewFormatSection(input: { headSha: string; maxComments: number }): PromptText {
  return joinPromptText(
    [
      promptText`This is a review of the pull request at commit ${identifier(input.headSha)}. Read its changes, do not push commits, and end your answer with exactly one fenced code block whose info string is ${identifier(REVIEW_INFO_STRING)}, containing one JSON object:`,
      promptText`\`\`\`${identifier(REVIEW_INFO_STRING)}\n{"summary": "what you found, in Markdown", "comments": [{"path": "src/file.ts", "line": 42, "start_line": 40, "side": "RIGHT", "body": "what is wrong and why", "suggestion": "the replacement text for lines start_line..line"}]}\n\`\`\``,
      promptText`- "summary" (string, required): the review's overall text.
- "comments" (list): one entry per finding. "path": a file the pull request changes. "line": the line the comment is about (with "start_line", the last line of a range). "side": "RIGHT" (the new version, the default) or "LEFT" (the old version, for removed lines). Lines must be inside the pull request's diff on that side.
- "body" (string): the finding. "suggestion" (optional string): the exact replacement text for lines start_line..line (or line alone), which the author can commit as it is.
- At most ${input.maxComments} comments are shown inline; any others are listed in the review's text. Findings outside the diff are listed there too.`,
    ],
    "\n\n",
  );
}

/** A prompt with the review's output format after it. */
export function withReviewFormat(prompt: PromptText, input: { headSha: string; maxComments: number }): PromptText {
  return joinPromptText([prompt, reviewFormatSection(input)], "\n\n");
}

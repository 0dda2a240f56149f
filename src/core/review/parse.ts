/**
 * Reading a review run's `result`: exactly one fenced block with the info string `agent-run-review`
 * whose JSON matches the format (format.ts). Anything else is `unreadable` with a sentence saying
 * why, and the result is then posted as an ordinary one.
 */
import { REVIEW_INFO_STRING } from "./format.js";
import { ReviewOutputSchema, type ReviewOutput } from "./schema.js";

export type ReviewParse = { kind: "review"; review: ReviewOutput } | { kind: "unreadable"; why: string };

const OPENING = /^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`]*)[^`]*$/;

interface Block {
  info: string;
  content: string;
}

/** The fenced blocks of `text` (CommonMark: a closing fence is the same character, at least as long, alone on its line). */
function fencedBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const close = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
    const content: string[] = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!)) content.push(lines[j++]!);
    blocks.push({ info: open[2]!.toLowerCase(), content: content.join("\n") });
    i = j;
  }
  return blocks;
}

/** The review in a run's result, or why there is none. */
export function parseReviewResult(result: string | null | undefined): ReviewParse {
  if (!result || result.trim() === "") return { kind: "unreadable", why: "The run gave no result." };
  const blocks = fencedBlocks(result).filter((block) => block.info === REVIEW_INFO_STRING);
  if (blocks.length === 0) return { kind: "unreadable", why: `The result has no \`${REVIEW_INFO_STRING}\` block.` };
  if (blocks.length > 1)
    return { kind: "unreadable", why: `The result has ${blocks.length} \`${REVIEW_INFO_STRING}\` blocks; one is expected.` };
  let json: unknown;
  try {
    json = JSON.parse(blocks[0]!.content);
  } catch (error) {
    return { kind: "unreadable", why: `The \`${REVIEW_INFO_STRING}\` block is not valid JSON (${(error as Error).message}).` };
  }
  const checked = ReviewOutputSchema.safeParse(json);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 3).map((issue) => `${issue.path.join(".") || "the object"}: ${issue.message}`);
    return { kind: "unreadable", why: `The \`${REVIEW_INFO_STRING}\` block does not match the format (${issues.join("; ")}).` };
  }
  for (const [index, finding] of checked.data.comments.entries()) {
    if (finding.start_line !== undefined && finding.start_line > finding.line)
      return { kind: "unreadable", why: `comments.${index}: start_line ${finding.start_line} is after line ${finding.line}.` };
  }
  return { kind: "review", review: checked.data };
}

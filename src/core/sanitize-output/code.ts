/**
 * Agent text shown verbatim as code: an inline span or a fenced block whose fence is longer than
 * any backtick run inside, so nothing in the text can close it, and at column 0.
 */
import { cleanText, neutraliseMarkerOpenings, truncateText, type SafeMarkdown } from "./safe-markdown.js";

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

/** Markdown punctuation turned into numeric entities inside our own `<code>` element. */
const CODE_ELEMENT_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\\": "&#92;",
  "`": "&#96;",
  "*": "&#42;",
  _: "&#95;",
  "~": "&#126;",
  "[": "&#91;",
  "]": "&#93;",
  "!": "&#33;",
  "|": "&#124;",
  // Not a mention inside <code> on GitHub, but raw-text scanners (our trigger parser) would see one.
  "@": "&#64;",
};

/**
 * An inline code span showing `text` verbatim (newlines become spaces). Content with a `|` is
 * emitted as a `<code>` element with entities instead: GitHub splits table cells at every `|`,
 * even inside a code span, which would let the rest of the span out as prose.
 */
export function inlineCode(text: string, options: { maxLength?: number } = {}): SafeMarkdown {
  let content = cleanText(text).replace(/[\n\t]/g, " ");
  if (options.maxLength !== undefined) content = truncateText(content, options.maxLength);
  if (content.includes("|")) {
    return `<code>${content.replace(/[&<>\\`*_~[\]!|@]/g, (c) => CODE_ELEMENT_ESCAPES[c] ?? c)}</code>` as SafeMarkdown;
  }
  content = neutraliseMarkerOpenings(content);
  if (content === "") return "` `" as SafeMarkdown;
  const fence = "`".repeat(longestRun(content, "`") + 1);
  // CommonMark strips one space on each side when both are present: pad so the text survives as is.
  const pad =
    content.startsWith("`") || content.endsWith("`") || (content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "")
      ? " "
      : "";
  return `${fence}${pad}${content}${pad}${fence}` as SafeMarkdown;
}

/**
 * A fenced code block showing `text` verbatim, at column 0. The fence is longer than any backtick
 * run inside, so nothing in `text` can close it.
 */
export function codeBlock(text: string, options: { language?: string; maxLength?: number } = {}): SafeMarkdown {
  let content = cleanText(text).replace(/\n+$/, "");
  if (options.maxLength !== undefined) content = truncateText(content, options.maxLength);
  content = neutraliseMarkerOpenings(content);
  const fence = "`".repeat(Math.max(3, longestRun(content, "`") + 1));
  const language = options.language && /^[\w+#.-]{1,30}$/.test(options.language) ? options.language : "";
  return `${fence}${language}\n${content === "" ? "" : `${content}\n`}${fence}` as SafeMarkdown;
}

/**
 * Which lines of a comment GitHub shows as a quote: someone else's words, however the comment's
 * author came to hold them (a quote reply, a pasted email, a `<blockquote>`). A trigger never comes
 * from a quote, and a quote is never the request: it goes to the prompt as material.
 *
 * Read line by line and on the side of "quoted" where in doubt (a missed quote would make a
 * stranger's words an instruction; an extra one only drops a line from the request):
 * - a line whose first non-space character, after any list markers, is `>` (`> x`, `   > x`,
 *   `- > x`, `1. > x`, nested `> > x`), whatever its indentation;
 * - every following non-blank line up to the next blank line or code fence (CommonMark's lazy
 *   continuation: `> quoted\nstill quoted`);
 * - every line from a `<blockquote>` tag to its closing tag (or the end), nested ones counted.
 */
import type { MarkdownLine } from "./sanitize-input.js";

/** A quote marker after any indentation and list markers. */
const QUOTE_START = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*>/;
const BLOCKQUOTE_OPEN = /<blockquote(?=[\s/>])/gi;
const BLOCKQUOTE_CLOSE = /<\/blockquote\s*>/gi;

const count = (pattern: RegExp, text: string) => (text.match(pattern) ?? []).length;

/** For each line (as classifyLines reads them), whether GitHub may show it inside a quote. */
export function quotedLineFlags(lines: readonly MarkdownLine[]): boolean[] {
  let lazy = false;
  let htmlDepth = 0;
  return lines.map((line) => {
    const blank = line.text.trim() === "";
    const opens = line.code ? 0 : count(BLOCKQUOTE_OPEN, line.text);
    const inHtmlQuote = htmlDepth > 0 || opens > 0;
    if (!line.code) htmlDepth = Math.max(0, htmlDepth + opens - count(BLOCKQUOTE_CLOSE, line.text));
    if (!line.code && QUOTE_START.test(line.text)) {
      lazy = true;
      return true;
    }
    if (blank || line.code) lazy = false;
    return inHtmlQuote || lazy;
  });
}

/** A comment split into its author's own lines and the runs of lines it quotes. */
export interface QuoteSplit {
  /** The author's own lines, each quoted run replaced by one placeholder line. */
  own: string[];
  /** The quoted runs, each as written (markers kept), in order. */
  quoted: string[];
}

/** The placeholder that stands in the request where the comment quoted someone. */
export const QUOTE_PLACEHOLDER = "[quoted text: shown below, as material]";

/** Splits lines into the author's own and the quoted runs. */
export function splitQuotes(lines: readonly MarkdownLine[]): QuoteSplit {
  const flags = quotedLineFlags(lines);
  const split: QuoteSplit = { own: [], quoted: [] };
  lines.forEach((line, index) => {
    if (!flags[index]) {
      split.own.push(line.text);
    } else if (index > 0 && flags[index - 1]) {
      split.quoted[split.quoted.length - 1] += `\n${line.text}`;
    } else {
      split.own.push(QUOTE_PLACEHOLDER);
      split.quoted.push(line.text);
    }
  });
  return split;
}

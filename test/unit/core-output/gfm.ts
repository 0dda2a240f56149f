/**
 * Reads a comment body the way GitHub's renderer would (CommonMark + GFM tables, strikethrough
 * and autolinks, raw HTML allowed) and reports what matters for safety: the raw HTML and HTML
 * comments it holds, where its links and images point, and the text that GitHub would scan for
 * @mentions (text outside code and links).
 */
import markdownIt, { type Token } from "markdown-it";

const parser = markdownIt({ html: true, linkify: true });

export interface GfmReading {
  /** Raw HTML tags and blocks, comments excluded. */
  html: string[];
  /** HTML comments (the hidden markers live there). */
  comments: string[];
  hrefs: string[];
  imageSources: string[];
  /** Text nodes outside code (spans, blocks, <code> elements) and links: where GitHub looks for mentions. */
  text: string[];
  /** Inline code and code blocks, verbatim. */
  code: string[];
  /** The rendered HTML, for reading failures. */
  rendered: string;
}

function splitComments(html: string, reading: GfmReading): void {
  const trimmed = html.trim();
  if (trimmed === "") return;
  if (trimmed.startsWith("<!--")) reading.comments.push(trimmed);
  else reading.html.push(trimmed);
}

function walkInline(children: readonly Token[], reading: GfmReading): void {
  let linkDepth = 0;
  // Text inside a raw <code> element is code to GitHub too (no mentions there).
  let codeDepth = 0;
  for (const token of children) {
    switch (token.type) {
      case "html_inline":
        splitComments(token.content, reading);
        if (token.content === "<code>") codeDepth++;
        if (token.content === "</code>") codeDepth = Math.max(0, codeDepth - 1);
        break;
      case "link_open":
        linkDepth++;
        reading.hrefs.push(String(token.attrGet("href") ?? ""));
        break;
      case "link_close":
        linkDepth--;
        break;
      case "image":
        reading.imageSources.push(String(token.attrGet("src") ?? ""));
        break;
      case "code_inline":
        reading.code.push(token.content);
        break;
      case "text":
        if (codeDepth > 0) reading.code.push(token.content);
        else if (linkDepth === 0) reading.text.push(token.content);
        break;
    }
  }
}

export function readGfm(body: string): GfmReading {
  const reading: GfmReading = { html: [], comments: [], hrefs: [], imageSources: [], text: [], code: [], rendered: parser.render(body) };
  for (const token of parser.parse(body, {})) {
    if (token.type === "html_block") {
      // A block may hold several tags on several lines (`<details>\n<summary>…</summary>`).
      for (const line of token.content.split("\n")) splitComments(line, reading);
    } else if (token.type === "fence" || token.type === "code_block") {
      reading.code.push(token.content);
    } else if (token.type === "inline" && token.children) {
      walkInline(token.children, reading);
    }
  }
  return reading;
}

/** A mention as GitHub finds it: `@name` or `@org/team` not preceded by a word character. */
const MENTION_IN_TEXT = /(?:^|[^A-Za-z0-9_])@[A-Za-z0-9]/;

/** Text nodes that would notify someone. */
export function mentionsIn(reading: GfmReading): string[] {
  return reading.text.filter((text) => MENTION_IN_TEXT.test(text));
}

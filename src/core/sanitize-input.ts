/**
 * Strips what a person reading the rendered thread on GitHub cannot see but an agent reading the
 * raw Markdown would: HTML comments, hidden attributes (alt, title, aria-*, data-*), Markdown
 * image alt text and link titles, "comment" reference definitions, zero-width, bidi-control and
 * tag characters. Text inside fenced code blocks is shown verbatim by GitHub, so only invisible
 * characters are removed there. When in doubt, this removes more rather than less.
 */

/** Zero-width (U+200B–U+200F), bidi embedding/override (U+202A–U+202E), word joiner and invisible
 * operators (U+2060–U+2064), bidi isolates (U+2066–U+2069), BOM (U+FEFF), soft hyphen, Mongolian
 * vowel separator and the tag block (U+E0000–U+E007F, "ASCII smuggling"). */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

function isInvisibleCodePoint(codePoint: number): boolean {
  return (
    codePoint === 0xad ||
    codePoint === 0x180e ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2060 && codePoint <= 0x2064) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069) ||
    codePoint === 0xfeff ||
    (codePoint >= 0xe0000 && codePoint <= 0xe007f)
  );
}

const NAMED_INVISIBLE_ENTITIES = /&(?:zwj|zwnj|lrm|rlm|shy|ZeroWidthSpace|NoBreak|InvisibleTimes|InvisibleComma|af|it|ic);/g;

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u2028\u2029\u0085]/g, "\n");
}

/** Removes invisible characters, and HTML entities that would render as one (`&#8203;`, `&zwj;`). */
export function stripInvisibleCharacters(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .replace(/&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));/gi, (entity, hex: string | undefined, dec: string | undefined) => {
      const codePoint = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? "", 10);
      return isInvisibleCodePoint(codePoint) ? "" : entity;
    })
    .replace(NAMED_INVISIBLE_ENTITIES, "");
}

/** Removes ANSI escape sequences (colours, cursor moves) from CI logs. */
export function stripAnsiEscapes(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g, "");
}

// ---------------------------------------------------------------------------------------------
// Code fences

export interface MarkdownSegment {
  text: string;
  /** True inside a fenced code block (fences included): GitHub shows it verbatim. */
  code: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;

export interface MarkdownLine {
  text: string;
  /** True for a fence line or a line inside a fenced code block. */
  code: boolean;
}

/** Marks each line as prose or fenced code (CommonMark: an unclosed fence runs to the end). */
export function classifyLines(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const line of text.split("\n")) {
    if (!fence) {
      const open = FENCE_OPEN.exec(line);
      // A backtick fence's info string may not contain a backtick.
      if (open && !(open[1]!.startsWith("`") && open[2]!.includes("`"))) {
        fence = { char: open[1]![0]!, length: open[1]!.length };
      }
      lines.push({ text: line, code: fence !== null });
    } else {
      lines.push({ text: line, code: true });
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = null;
    }
  }
  return lines;
}

/** Splits Markdown into runs of prose and fenced code blocks; joining the texts gives the input back. */
export function splitByCodeFences(text: string): MarkdownSegment[] {
  const segments: MarkdownSegment[] = [];
  const lines = classifyLines(text);
  lines.forEach((line, index) => {
    const piece = index < lines.length - 1 ? `${line.text}\n` : line.text;
    const last = segments[segments.length - 1];
    if (last && last.code === line.code) last.text += piece;
    else segments.push({ text: piece, code: line.code });
  });
  return segments;
}

// ---------------------------------------------------------------------------------------------
// Hidden content

/**
 * Removes `<!-- … -->`. A comment that starts in prose runs to its `-->` even across a later code
 * fence, and an unterminated one hides the rest of the text, as on GitHub.
 */
export function stripHtmlComments(text: string): string {
  const codeRanges: Array<[number, number]> = [];
  let offset = 0;
  for (const segment of splitByCodeFences(text)) {
    if (segment.code) codeRanges.push([offset, offset + segment.text.length]);
    offset += segment.text.length;
  }
  const inCode = (index: number) => codeRanges.some(([start, end]) => index >= start && index < end);
  let out = "";
  let cursor = 0;
  while (cursor < text.length) {
    let start = text.indexOf("<!--", cursor);
    while (start !== -1 && inCode(start)) start = text.indexOf("<!--", start + 4);
    if (start === -1) break;
    out += text.slice(cursor, start);
    const end = text.indexOf("-->", start + 4);
    cursor = end === -1 ? text.length : end + 3;
  }
  return out + text.slice(cursor);
}

const HIDDEN_ATTRIBUTE = /\s(?:alt|title|aria-[\w-]+|data-[\w-]+|placeholder)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)/gi;

function stripHiddenMarkupInProse(text: string): string {
  return (
    text
      // Attributes GitHub does not display (or only on hover / when an image fails).
      .replace(/<[a-zA-Z][^<>]*>/g, (tag) => tag.replace(HIDDEN_ATTRIBUTE, ""))
      // Markdown image alt text: ![hidden](url) → ![](url). The alt stops at any bracket, so that a
      // run of unclosed `![` is read once, not once per `![` (and `![a ![b](u)` is an image of `b`, as GitHub shows it).
      .replace(/!\[[^[\]\n]*\]\(/g, "![](")
      // Markdown link titles: [text](url "hidden") → [text](url)
      // (A `<destination>` holds no `<`, as in CommonMark: a run of unclosed `](<` is then read once.)
      .replace(/(\]\(\s*(?:<[^<>\n]*>|[^\s()]+))\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))\s*\)/g, "$1)")
      // Reference definitions are never rendered: drop "comment" ones ([//]: # (…)), drop titles of others.
      .replace(/^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*$/gm, (line, dest: string) =>
        dest === "#" || dest === "<>" || dest === "<#>" ? "" : line.replace(/[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))[ \t]*$/, ""),
      )
      // What was removed often leaves runs of blank lines.
      .replace(/\n{3,}/g, "\n\n")
  );
}

/** Everything a user cannot see in the rendered comment, removed; newlines normalised to `\n`. */
export function sanitizeUserText(text: string | null | undefined): string {
  if (!text) return "";
  const visible = stripHtmlComments(stripInvisibleCharacters(normalizeNewlines(text)));
  return splitByCodeFences(visible)
    .map((segment) => (segment.code ? segment.text : stripHiddenMarkupInProse(segment.text)))
    .join("")
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Bounds

export const TRUNCATION_MARKER = "\n[… truncated …]\n";

/**
 * Bounds `text` to `max` characters including `marker`. `keep: "tail"` keeps the end instead of
 * the start (CI logs put the error last). Never splits a surrogate pair.
 */
export function truncate(text: string, max: number, marker: string = TRUNCATION_MARKER, keep: "head" | "tail" = "head"): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  if (marker.length >= max) return marker.slice(0, max);
  const room = max - marker.length;
  if (keep === "head") {
    let cut = room;
    if (isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
    return text.slice(0, cut) + marker;
  }
  let start = text.length - room;
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return marker + text.slice(start);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

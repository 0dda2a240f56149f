/**
 * Strips what a person reading the rendered thread on GitHub cannot see but an agent reading the
 * raw Markdown would: HTML comments, `<script>` and `<style>` elements with their contents, hidden
 * attributes (alt, title, aria-*, data-*), Markdown image alt text and link titles, link reference
 * definitions nothing refers to, zero-width, bidi-control, variation-selector, tag and control
 * characters. Text inside fenced code blocks and inline code spans is shown verbatim by GitHub, so
 * only invisible characters are removed there. When in doubt, this removes more rather than less.
 */

/** Zero-width (U+200B–U+200F), bidi embedding/override (U+202A–U+202E), the Arabic letter mark
 * (U+061C), word joiner and invisible operators (U+2060–U+2064), bidi isolates (U+2066–U+2069),
 * variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), BOM (U+FEFF), soft hyphen, Mongolian
 * vowel separator, the tag block (U+E0000–U+E007F, "ASCII smuggling") and C0/C1 control
 * characters other than tab and newline. */
const INVISIBLE =
  // Control characters and lone variation selectors are what this matches, on purpose.
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFE00-\uFE0F\uFEFF]|\uDB40[\uDC00-\uDC7F\uDD00-\uDDEF]/g;

function isInvisibleCodePoint(codePoint: number): boolean {
  return (
    (codePoint <= 0x1f && codePoint !== 0x09 && codePoint !== 0x0a) ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    codePoint === 0xad ||
    codePoint === 0x061c ||
    codePoint === 0x180e ||
    (codePoint >= 0x200b && codePoint <= 0x200f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2060 && codePoint <= 0x2064) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069) ||
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    codePoint === 0xfeff ||
    (codePoint >= 0xe0000 && codePoint <= 0xe007f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
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
 * Where the inline code span opening with the backtick run at `start` ends, or -1 when it is not
 * one. Only a span closed on the same line and holding no `|` (a table cell may end there) counts:
 * a span GitHub would see but this does not only makes the callers remove more.
 */
function codeSpanEnd(text: string, start: number): number {
  const runLength = (at: number) => backtickRunEnd(text, at) - at;
  const length = runLength(start);
  let at = start + length;
  while (at < text.length && text[at] !== "\n" && text[at] !== "|") {
    if (text[at] !== "`") {
      at++;
      continue;
    }
    const closing = runLength(at);
    if (closing === length) return at + closing;
    at += closing;
  }
  return -1;
}

function backtickRunEnd(text: string, at: number): number {
  let end = at;
  while (text[end] === "`") end++;
  return end;
}

/** The start of a `<script>` or `<style>` element's opening tag. */
const RAW_TEXT_ELEMENT = /<(script|style)(?=[\s/>])/iy;

/**
 * Where the hidden content starting at `at` ends (its text removed), or -1 when none starts there.
 * `nextTagEnd` finds the next `>`, remembered between calls so that many unclosed tags cost one scan.
 */
function hiddenHtmlEnd(text: string, at: number, nextTagEnd: (from: number) => number): number {
  if (text.startsWith("<!--", at)) {
    const end = text.indexOf("-->", at + 4);
    return end === -1 ? text.length : end + 3;
  }
  RAW_TEXT_ELEMENT.lastIndex = at;
  const open = RAW_TEXT_ELEMENT.exec(text);
  if (!open) return -1;
  const openEnd = nextTagEnd(at);
  if (openEnd === -1) return -1;
  const close = new RegExp(`</${open[1]}\\s*>`, "gi");
  close.lastIndex = openEnd + 1;
  return close.exec(text) ? close.lastIndex : text.length;
}

/** Offsets of the fenced code blocks, fences included. */
function fencedRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let offset = 0;
  for (const segment of splitByCodeFences(text)) {
    if (segment.code) ranges.push([offset, offset + segment.text.length]);
    offset += segment.text.length;
  }
  return ranges;
}

/**
 * Offsets of the blocks (runs of non-blank lines) in which a line starts with a tag: GitHub may
 * read such a block as raw HTML, where backslashes and backticks are plain text, so in them no
 * escape or code span protects what follows.
 */
function htmlishBlockRanges(text: string, fences: ReadonlyArray<[number, number]>): Array<[number, number]> {
  // Fenced code ends a block: blanked to newlines, offsets kept.
  let prose = "";
  let kept = 0;
  for (const [start, end] of fences) {
    prose += text.slice(kept, start) + "\n".repeat(end - start);
    kept = end;
  }
  prose += text.slice(kept);
  const ranges: Array<[number, number]> = [];
  for (const block of prose.matchAll(/[^\n]+(?:\n(?![ \t]*(?:\n|$))[^\n]*)*/g)) {
    if (/^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?</m.test(block[0])) ranges.push([block.index, block.index + block[0].length]);
  }
  return ranges;
}

/** Whether `at` lies in one of the sorted `ranges`, for positions that only move forward. */
function forwardRangeTest(ranges: ReadonlyArray<[number, number]>): (at: number) => boolean {
  let index = 0;
  return (at) => {
    while (index < ranges.length && ranges[index]![1] <= at) index++;
    return index < ranges.length && ranges[index]![0] <= at;
  };
}

/**
 * Removes HTML comments and `<script>`/`<style>` elements with their contents (GitHub shows
 * neither), read left to right as CommonMark does: a fenced code block, and in Markdown prose a
 * backslash-escaped character or an inline code span, shows its text verbatim. A comment or element
 * that starts in prose runs to its end even across a later code fence, and an unterminated one hides
 * the rest of the text.
 */
export function stripHiddenHtml(text: string): string {
  const fences = fencedRanges(text);
  let fence = 0;
  const inHtmlishBlock = forwardRangeTest(htmlishBlockRanges(text, fences));
  // The next `>` at or after a position (-1: none left), found once for a run of unclosed tags.
  let tagEnd: number | null = null;
  const nextTagEnd = (from: number) => {
    if (tagEnd === null || (tagEnd !== -1 && tagEnd < from)) tagEnd = text.indexOf(">", from);
    return tagEnd;
  };
  let out = "";
  let kept = 0;
  let at = 0;
  while (at < text.length) {
    while (fence < fences.length && fences[fence]![1] <= at) fence++;
    if (fence < fences.length && fences[fence]![0] <= at) {
      at = fences[fence]![1];
      continue;
    }
    const ch = text[at];
    const markdown = (ch === "\\" || ch === "`") && !inHtmlishBlock(at);
    if (ch === "\\" && markdown) {
      at += 2;
    } else if (ch === "`" && markdown) {
      const end = codeSpanEnd(text, at);
      at = end === -1 ? backtickRunEnd(text, at) : end;
    } else if (ch === "<") {
      const end = hiddenHtmlEnd(text, at, nextTagEnd);
      if (end === -1) {
        at++;
      } else {
        out += text.slice(kept, at);
        kept = at = end;
      }
    } else {
      at++;
    }
  }
  return out + text.slice(kept);
}

/** Prose with its inline code spans blanked out: what GitHub reads as Markdown rather than shows as code. */
function outsideCodeSpans(prose: string): string {
  let out = "";
  let at = 0;
  while (at < prose.length) {
    const next = prose.indexOf("`", at);
    if (next === -1) return out + prose.slice(at);
    out += prose.slice(at, next);
    const end = codeSpanEnd(prose, next);
    const stop = end === -1 ? backtickRunEnd(prose, next) : end;
    out += end === -1 ? prose.slice(next, stop) : " ";
    at = stop;
  }
  return out;
}

const LINK_TITLE = String.raw`(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\))`;
/** A link reference definition: `[label]: destination "title"`, the destination or title possibly on the next line. */
const REFERENCE_DEFINITION = new RegExp(
  String.raw`^ {0,3}\[([^\]\n]+)\]:[ \t]*\n?[ \t]*(<[^<>\n]*>|\S+)(?:(?:[ \t]+|[ \t]*\n[ \t]*)${LINK_TITLE})?[ \t]*$`,
  "gm",
);
const TRAILING_TITLE = new RegExp(String.raw`(?:[ \t]+|[ \t]*\n[ \t]*)${LINK_TITLE}[ \t]*$`);

/** CommonMark matches labels case-insensitively with whitespace collapsed. */
const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, " ").toLowerCase().toUpperCase();

/** The labels that links and images in the prose refer to (`[text][label]`, `[label][]`, `[label]`). */
function referencedLabels(proseSegments: readonly string[]): Set<string> {
  const labels = new Set<string>();
  for (const prose of proseSegments) {
    const markdown = outsideCodeSpans(prose.replace(REFERENCE_DEFINITION, ""));
    for (const bracket of markdown.matchAll(/\[([^[\]]*)\]/g)) labels.add(normalizeLabel(bracket[1]!));
  }
  return labels;
}

const HIDDEN_ATTRIBUTE = /\s(?:alt|title|aria-[\w-]+|data-[\w-]+|placeholder)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+)/gi;

function stripHiddenMarkupInProse(text: string, referenced: ReadonlySet<string>): string {
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
      // Reference definitions are never rendered: drop those nothing refers to and "comment" ones
      // ([//]: # (…)), and the titles of the others.
      .replace(REFERENCE_DEFINITION, (definition, label: string, destination: string) =>
        !referenced.has(normalizeLabel(label)) || destination === "#" || destination === "<>" || destination === "<#>"
          ? ""
          : definition.replace(TRAILING_TITLE, ""),
      )
      // What was removed often leaves runs of blank lines.
      .replace(/\n{3,}/g, "\n\n")
  );
}

/** Everything a user cannot see in the rendered comment, removed; newlines normalised to `\n`. */
export function sanitizeUserText(text: string | null | undefined): string {
  if (!text) return "";
  const visible = stripHiddenHtml(stripInvisibleCharacters(normalizeNewlines(text)));
  const segments = splitByCodeFences(visible);
  const referenced = referencedLabels(segments.filter((segment) => !segment.code).map((segment) => segment.text));
  return segments
    .map((segment) => (segment.code ? segment.text : stripHiddenMarkupInProse(segment.text, referenced)))
    .join("")
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Bounds

const TRUNCATION_MARKER = "\n[… truncated …]\n";

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

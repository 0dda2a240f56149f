/**
 * Renders agent-produced prose (summaries, results, observations, PR titles, log thoughts) into
 * GitHub Markdown that cannot act on its own. It cannot:
 *
 * - forge or break the bot's hidden markers: `<`, `>` and `&` become `&lt;`, `&gt;`, `&amp;` in
 *   prose, so no HTML comment, tag, `<details>` or `</details>` can open or close, and no entity
 *   can spell a mention or an invisible character; inside code, where text is
 *   shown verbatim, `<!--` followed by the marker namespace gets a zero-width space (U+200B);
 * - open raw HTML (`<img src=x onerror=…>` is shown as text);
 * - mention people or teams: `@name` and `@org/team` are wrapped in a code span (`` `@name` ``);
 *   GitHub never notifies for a mention inside code, and the bridge's own trigger parser ignores
 *   code spans too. (A zero-width space after `@` would not survive the input sanitiser, which
 *   strips invisible characters before looking for a trigger.)
 * - re-trigger the bot: every occurrence of the trigger phrase is wrapped in a code span, so no
 *   line of the comment starts with it;
 * - link anywhere but http(s): a Markdown link whose destination is not `http://` or `https://`
 *   has its `(` escaped (`[x]\(javascript:…)` shows as text), and reference definitions are
 *   disabled (`\]:`) so `[x][ref]` cannot smuggle one in;
 * - leave a code fence open: fences are re-emitted at column 0, long enough that nothing inside
 *   can close them, and always closed.
 *
 * Agent inline code spans stay code spans (`Array<string>` still reads `Array<string>`). What
 * cannot be paired on one line is escaped (a lone backtick as `&#96;`, a run of `~~~` with
 * backslashes), so every backtick in the output belongs to a balanced span this module emitted.
 */
import { codeBlock, inlineCode } from "./code.js";
import { GITHUB_IMAGE_HOSTS, isAllowedImageUrl, type ImageHosts } from "./image-hosts.js";
import {
  ASCII_ALNUM,
  ASCII_PUNCTUATION,
  cleanText,
  escapeRegExp,
  isEscaped,
  truncateText,
  type OutputSanitizeOptions,
  type SafeMarkdown,
} from "./safe-markdown.js";

export interface ProseOptions {
  triggerPhrase?: string;
  /** Escape `[` and `]` too: the text becomes a link's text. */
  linkText?: boolean;
  /** Hosts whose images may render (default: github.com's). */
  imageHosts?: ImageHosts;
}

/**
 * What GitHub autolinks: a scheme and a dotted domain, up to whitespace, a backtick or an escaped
 * `<` / `>`, and only at the start of a line or after whitespace, `*`, `_`, `~` or `(` (GFM spec,
 * "extended autolinks"): `texthttps://x.com/@name` is no link, and its `@name` notifies.
 */
const AUTOLINKED_URL = /https?:\/\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+(?:[/?#:](?:(?!&lt;|&gt;)[^\s`])*)?/gi;

const MENTION = "@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][A-Za-z0-9_-]*)?";

/** Built once per phrase (a run of text holds many segments); `matchAll` copies it, so sharing is safe. */
const wrapPatterns = new Map<string, RegExp>();

function wrapPattern(triggerPhrase: string | undefined): RegExp {
  const phrase = triggerPhrase?.trim() ?? "";
  const known = wrapPatterns.get(phrase);
  if (known) return known;
  // Word boundaries only on the sides where the phrase itself has a word character.
  const before = /^\w/.test(phrase) ? "(?<![A-Za-z0-9_])" : "";
  const after = /\w$/.test(phrase) ? "(?![A-Za-z0-9_])" : "";
  const pattern =
    phrase === "" ? new RegExp(`()(${MENTION})`, "gi") : new RegExp(`(${before}${escapeRegExp(phrase)}${after})|(${MENTION})`, "gi");
  if (wrapPatterns.size < 64) wrapPatterns.set(phrase, pattern);
  return pattern;
}

/**
 * Wraps mentions and the trigger phrase in code spans. A mention counts wherever it would start
 * a text node on GitHub: not after an ASCII letter or digit (`me@example.com` stays an address),
 * but right after another wrapped mention, since the code span ends the text node before it.
 */
function wrapMentionsAndTrigger(text: string, options: ProseOptions, atLineStart: boolean): string {
  const pattern = wrapPattern(options.triggerPhrase);
  const urls = [...text.matchAll(AUTOLINKED_URL)]
    .filter((m) => (m.index === 0 ? atLineStart : /[\s*_~(]/.test(text[m.index - 1]!)))
    .map((m) => [m.index, m.index + m[0].length] as const);
  // Matches come in order: walk the URLs alongside them.
  let urlIndex = 0;
  const inUrl = (index: number) => {
    while (urlIndex < urls.length && urls[urlIndex]![1] <= index) urlIndex++;
    const url = urls[urlIndex];
    return url !== undefined && index > url[0] && index < url[1];
  };
  const out = new OutputBuilder();
  let cursor = 0;
  let lastWrappedEnd = -1;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const isMention = match[1] === undefined || match[1] === "";
    if (isMention && start > 0 && start !== lastWrappedEnd && ASCII_ALNUM.test(text[start - 1]!)) continue;
    // GitHub links the whole URL: nothing inside it notifies or starts a line.
    if (inUrl(start)) continue;
    let head = text.slice(cursor, start);
    // A backslash escaping the match's first character would now escape our backtick instead.
    if (isEscaped(text, start)) head = head.slice(0, -1);
    out.append(head);
    if (needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(inlineCode(match[0]));
    cursor = start + match[0].length;
    lastWrappedEnd = cursor;
  }
  out.append(text.slice(cursor));
  return out.toString();
}

/**
 * Whether a code span appended to `before` needs a space in front: right after another span the
 * backticks would pair differently, and right after a URL GitHub's autolink (which runs up to
 * whitespace or `<`) would swallow the opening backtick and leave the span's content as prose.
 */
function needsSpaceBeforeCode(before: string): boolean {
  if (before.endsWith("`")) return true;
  // Only the last word matters; a word longer than the window is treated as a URL (a space is harmless).
  const limit = Math.max(0, before.length - WORD_WINDOW);
  let start = before.length;
  while (start > limit && !/\s/.test(before[start - 1]!)) start--;
  if (start === limit && limit > 0) return true;
  return /[a-z][a-z0-9+.-]*:\/\/|www\./i.test(before.slice(start));
}

/** How far back needsSpaceBeforeCode looks for the start of the last word. */
const WORD_WINDOW = 2048;

/**
 * Output built from pieces, with its last characters at hand. Indexing a string grown with `+=`
 * flattens it each time, which made long lines quadratic.
 */
class OutputBuilder {
  private readonly parts: string[] = [];
  /** The last WORD_WINDOW characters or more: enough for needsSpaceBeforeCode. */
  tail = "";

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  append(piece: string): void {
    if (piece === "") return;
    this.parts.push(piece);
    this.tail = piece.length >= WORD_WINDOW ? piece : (this.tail + piece).slice(-2 * WORD_WINDOW);
  }

  toString(): string {
    return this.parts.join("");
  }
}

/** A link destination that is http(s), read right after a `]`. */
const HTTP_DESTINATION = /\(\s*https?:\/\//iy;

/**
 * An image simple enough to be sure where it loads from, read at its `!`: alt text without brackets
 * or backslashes, an http(s) destination without parentheses, brackets, spaces, `<`, `>` or backslashes
 * (which GitHub would read differently from a URL parser), no title. Anything else is not an image we let render. `&amp;` is how prose carries `&`.
 */
const SIMPLE_IMAGE = /!\[[^[\]\\]*\]\(\s*(https?:\/\/[^\s()<>\\[\]]+)\s*\)/iy;

/** Whether the image starting at `index` (a `!` before `[`) loads from an allowed host. */
function isAllowedImageAt(text: string, index: number, hosts: ImageHosts): boolean {
  SIMPLE_IMAGE.lastIndex = index;
  const match = SIMPLE_IMAGE.exec(text);
  if (!match) return false;
  const url = match[1]!;
  // Prose escapes `&`, `<` and `>` as entities; only `&amp;` may stand in a URL we let render.
  if (/&(?!amp;)/.test(url)) return false;
  return isAllowedImageUrl(url.replace(/&amp;/g, "&"), hosts);
}

/** Escapes in plain text (outside code spans) what could build a construct we did not emit. */
function escapeStructure(text: string, options: ProseOptions): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    // Only these three matter; asking for every character would walk long backslash runs again and again.
    const escaped = (c === "]" || c === "[" || c === "~" || c === "!") && isEscaped(text, i);
    // An image renders only from an allowed host; any other shows as `!` and a plain link (or text).
    if (c === "!" && !escaped && text[i + 1] === "[" && !isAllowedImageAt(text, i, options.imageHosts ?? GITHUB_IMAGE_HOSTS)) {
      out += "\\!";
      continue;
    }
    if (c === "]" && !escaped) {
      // `]:` could start a reference definition; `](` a link to something else than http(s).
      if (text[i + 1] === ":" || options.linkText) {
        out += "\\]";
        continue;
      }
      HTTP_DESTINATION.lastIndex = i + 1;
      if (text[i + 1] === "(" && !HTTP_DESTINATION.test(text)) {
        out += "]\\(";
        i++;
        continue;
      }
    }
    if (c === "[" && !escaped && options.linkText) {
      out += "\\[";
      continue;
    }
    if (c === "~" && !escaped) {
      let run = 0;
      while (text[i + run] === "~") run++;
      // Three or more could open a fence (one or two are strikethrough).
      out += run >= 3 ? "\\~".repeat(run) : "~".repeat(run);
      i += run - 1;
      continue;
    }
    out += c;
  }
  return out;
}

function transformPlain(text: string, options: ProseOptions, atLineStart: boolean): string {
  return wrapMentionsAndTrigger(escapeStructure(text, options), options, atLineStart);
}

/** Where each backtick run of a line starts, by run length: finding a closing run is a lookup, not a rescan. */
class BacktickRuns {
  private readonly starts = new Map<number, number[]>();

  constructor(line: string) {
    for (let i = 0; i < line.length;) {
      if (line[i] !== "`") {
        i++;
        continue;
      }
      let length = 0;
      while (line[i + length] === "`") length++;
      const list = this.starts.get(length) ?? [];
      list.push(i);
      this.starts.set(length, list);
      i += length;
    }
  }

  /** The first run of exactly `length` backticks starting after `index`, or -1. */
  next(length: number, index: number): number {
    const list = this.starts.get(length) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (list[mid]! <= index) low = mid + 1;
      else high = mid;
    }
    return list[low] ?? -1;
  }
}

/** One line of prose: escapes, code spans re-emitted, mentions and trigger wrapped. */
export function sanitizeProseLine(line: string, options: ProseOptions): string {
  const out = new OutputBuilder();
  let plain = "";
  const flush = () => {
    const transformed = transformPlain(plain, options, out.isEmpty);
    if (transformed.startsWith("`") && needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(transformed);
    plain = "";
  };
  const emitCode = (code: string) => {
    flush();
    if (needsSpaceBeforeCode(out.tail)) out.append(" ");
    out.append(code);
  };

  const runs = new BacktickRuns(line);
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === "\\" && i + 1 < line.length && ASCII_PUNCTUATION.test(line[i + 1]!)) {
      const next = line[i + 1]!;
      // `\<` and `\>` show as the character: the entity does the same without an escape to track.
      // `\@` shows "@": drop the backslash so the mention is seen and wrapped.
      if (next === "<") plain += "&lt;";
      else if (next === ">") plain += "&gt;";
      else if (next === "@") plain += "@";
      else if (next === "`") plain += LITERAL_BACKTICK;
      else plain += `\\${next}`;
      i += 2;
      continue;
    }
    if (c === "`") {
      let length = 0;
      while (line[i + length] === "`") length++;
      const close = runs.next(length, i);
      if (close === -1) {
        plain += LITERAL_BACKTICK.repeat(length);
        i += length;
        continue;
      }
      let content = line.slice(i + length, close);
      if (content.startsWith(" ") && content.endsWith(" ") && content.trim() !== "") content = content.slice(1, -1);
      emitCode(inlineCode(content));
      i = close + length;
      continue;
    }
    // `&` too: an entity such as `&#64;name` renders as a mention, `&#8203;` as an invisible character.
    if (c === "<") plain += "&lt;";
    else if (c === ">") plain += "&gt;";
    else if (c === "&") plain += "&amp;";
    else plain += c;
    i++;
  }
  flush();
  return out.toString();
}

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/**
 * A backtick that is not code, as an entity: a backslash-escaped one would still be a backtick to
 * simpler scanners (our own trigger parser pairs backticks without looking at backslashes).
 */
const LITERAL_BACKTICK = "&#96;";

/**
 * Agent Markdown, safe to place as its own block (start it on a new line after a blank line).
 * Empty input gives an empty string.
 */
export function sanitizeMarkdown(text: string | null | undefined, options: OutputSanitizeOptions = {}): SafeMarkdown {
  if (!text) return "" as SafeMarkdown;
  let source = cleanText(text);
  if (options.maxLength !== undefined) source = truncateText(source, options.maxLength);
  const lines = source.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[2]!.startsWith("`") && open[3]!.includes("`"))) {
      const indent = open[1]!.length;
      const char = open[2]![0]!;
      const close = new RegExp(`^ {0,3}${escapeRegExp(char)}{${open[2]!.length},}[ \\t]*$`);
      const content: string[] = [];
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j]!)) {
        // CommonMark removes up to the opening fence's indentation from each content line.
        content.push(lines[j]!.replace(new RegExp(`^ {0,${indent}}`), ""));
        j++;
      }
      const language = open[3]!.trim().split(/\s+/)[0];
      out.push(codeBlock(content.join("\n"), { language }));
      i = j;
      continue;
    }
    out.push(sanitizeProseLine(line, { triggerPhrase: options.triggerPhrase, imageHosts: options.imageHosts }));
  }
  return out.join("\n").trim() as SafeMarkdown;
}

/**
 * Agent text for one line of a comment (a PR title, a step, an error excerpt): newlines and tabs
 * become spaces, runs of spaces collapse. Meant to follow our own text on the same line.
 */
export function sanitizeInline(text: string | null | undefined, options: OutputSanitizeOptions = {}): SafeMarkdown {
  if (!text) return "" as SafeMarkdown;
  let source = cleanText(text).replace(/\s+/g, " ").trim();
  if (options.maxLength !== undefined) source = truncateText(source, options.maxLength);
  return sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase, imageHosts: options.imageHosts }) as SafeMarkdown;
}

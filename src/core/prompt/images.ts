/**
 * Which images of a trigger go with a new run: attachments users pasted on the GitHub the bridge
 * serves (Markdown images and `<img src>`), not those hidden in HTML comments or shown as code, at
 * most four. Read in one forward pass: a hostile comment of tens of thousands of unclosed `![` or
 * `<img` costs linear time, where retrying a pattern at every start cost quadratic time.
 */
import { GITHUB_COM, isAttachmentUrl, type GitHubServer } from "../github-hosts.js";
import { classifyLines, sanitizeUserText } from "../sanitize-input.js";

export const MAX_IMAGE_ATTACHMENTS = 4;

/**
 * The server's image attachments in a comment (Markdown images and `<img src>`), in order, without
 * duplicates, at most `max`. Images hidden in HTML comments or shown as code are skipped.
 */
export function parseImageAttachments(
  body: string | null | undefined,
  max: number = MAX_IMAGE_ATTACHMENTS,
  server: GitHubServer = GITHUB_COM,
): string[] {
  const prose = classifyLines(sanitizeUserText(body))
    .filter((line) => !line.code)
    .map((line) => line.text.replace(/`[^`\n]*`/g, ""))
    .join("\n");
  const urls: string[] = [];
  for (const url of imageSourcesIn(prose)) {
    const decoded = url.replace(/&amp;/g, "&");
    if (isAttachmentUrl(decoded, server) && !urls.includes(decoded)) urls.push(decoded);
    if (urls.length >= max) break;
  }
  return urls;
}

/** The sources of every Markdown image and `<img>` in `prose`, in order of appearance, in one forward pass. */
export function imageSourcesIn(prose: string): string[] {
  return [...markdownImageUrls(prose), ...imgTagUrls(prose)].sort((a, b) => a.index - b.index).map((found) => found.url);
}

interface FoundUrl {
  index: number;
  url: string;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const CLOSE_PAREN = 0x29;
const GREATER_THAN = 0x3e;
const CLOSE_BRACKET = 0x5d;
const LESS_THAN = 0x3c;

const isSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/**
 * The first index at or after `from` whose character passes `test` (`text.length` when none).
 * Remembers its last answer, so a caller whose `from` never decreases pays for each character once.
 */
function forwardFinder(text: string, test: (code: number) => boolean): (from: number) => number {
  let askedFrom = 0;
  let answer = -1;
  return (from) => {
    if (from >= askedFrom && from <= answer) return answer;
    let index = from;
    while (index < text.length && !test(text.charCodeAt(index))) index++;
    askedFrom = from;
    answer = index;
    return index;
  };
}

/**
 * `![alt](destination "title")` as `/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g`
 * reads it, without retrying from every `![`: each boundary is found by a finder whose starting
 * points only grow, because they grow with the `![` they belong to.
 */
function markdownImageUrls(text: string): FoundUrl[] {
  const altEnd = forwardFinder(text, (c) => c === CLOSE_BRACKET || c === NEWLINE);
  const destinationStart = forwardFinder(text, (c) => !isSpace(c));
  const destinationEnd = forwardFinder(text, (c) => isSpace(c) || c === CLOSE_PAREN || c === GREATER_THAN);
  const afterDestination = forwardFinder(text, (c) => !isSpace(c));
  const quoteEnd = forwardFinder(text, (c) => c === QUOTE || c === NEWLINE);
  const apostropheEnd = forwardFinder(text, (c) => c === APOSTROPHE || c === NEWLINE);
  const afterTitle = forwardFinder(text, (c) => !isSpace(c));

  const found: FoundUrl[] = [];
  let cursor = 0;
  for (;;) {
    const start = text.indexOf("![", cursor);
    if (start === -1) return found;
    cursor = start + 1;
    const close = altEnd(start + 2);
    if (text.charCodeAt(close) !== CLOSE_BRACKET || text.charCodeAt(close + 1) !== 0x28) continue;
    let from = destinationStart(close + 2);
    if (text.charCodeAt(from) === LESS_THAN) from += 1;
    const to = destinationEnd(from);
    if (to === from) continue;
    const url = text.slice(from, to);
    const afterUrl = text.charCodeAt(to) === GREATER_THAN ? to + 1 : to;
    const next = afterDestination(afterUrl);
    let end = -1;
    if (text.charCodeAt(next) === CLOSE_PAREN) end = next + 1;
    else if (next > afterUrl) {
      const quote = text.charCodeAt(next);
      const titleEnd = quote === QUOTE ? quoteEnd(next + 1) : quote === APOSTROPHE ? apostropheEnd(next + 1) : -1;
      if (titleEnd !== -1 && text.charCodeAt(titleEnd) === quote) {
        const last = afterTitle(titleEnd + 1);
        if (text.charCodeAt(last) === CLOSE_PAREN) end = last + 1;
      }
    }
    if (end === -1) continue;
    found.push({ index: start, url });
    cursor = end;
  }
}

/**
 * `<img … src=value …>` as `/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi` reads
 * it: the first `src` of the tag (before its first `>`) whose value parses, with a `>` after it. A
 * tag without one is skipped whole, since every `<img` inside it would end at the same `>`.
 */
function imgTagUrls(text: string): FoundUrl[] {
  const tagEnd = forwardFinder(text, (c) => c === GREATER_THAN);
  const quoteEnd = forwardFinder(text, (c) => c === QUOTE);
  const apostropheEnd = forwardFinder(text, (c) => c === APOSTROPHE);
  const bareEnd = forwardFinder(text, (c) => isSpace(c) || c === GREATER_THAN);
  const lastGreaterThan = text.lastIndexOf(">");
  const tags = /<img\b/gi;
  const srcAttributes = /\ssrc\s*=\s*/gi;
  let src: RegExpExecArray | null = null;
  let srcAskedFrom = Number.POSITIVE_INFINITY;
  // The next `src=` at or after `from`; like forwardFinder, each character is searched once while `from` grows.
  const nextSrc = (from: number): RegExpExecArray | null => {
    if (from >= srcAskedFrom && (src === null || src.index >= from)) return src;
    srcAttributes.lastIndex = from;
    srcAskedFrom = from;
    src = srcAttributes.exec(text);
    return src;
  };

  const found: FoundUrl[] = [];
  for (let tag = tags.exec(text); tag; tag = tags.exec(text)) {
    const end = tagEnd(tag.index + 4);
    if (end === text.length) return found;
    let resume = end + 1;
    for (let attribute = nextSrc(tag.index + 4); attribute && attribute.index < end; attribute = nextSrc(attribute.index + 1)) {
      const from = attribute.index + attribute[0].length;
      const quote = text.charCodeAt(from);
      const closing = quote === QUOTE ? quoteEnd(from + 1) : quote === APOSTROPHE ? apostropheEnd(from + 1) : text.length;
      // An unclosed quote is read as part of a bare value, as the pattern's third branch reads it.
      const quoted = closing < text.length;
      const to = quoted ? closing : bareEnd(from);
      if (to === from) continue;
      const valueEnd = quoted ? to + 1 : to;
      if (valueEnd > lastGreaterThan) continue;
      found.push({ index: tag.index, url: quoted ? text.slice(from + 1, to) : text.slice(from, to) });
      resume = tagEnd(valueEnd) + 1;
      break;
    }
    tags.lastIndex = resume;
  }
  return found;
}

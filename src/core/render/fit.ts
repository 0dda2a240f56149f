/**
 * Fitting a comment into GitHub's limit: GitHub rejects bodies over 65,536 characters, so agent text
 * is cut block by block (each block is sanitised on its own, so a cut never leaves a fence or a
 * `<details>` open and never touches the marker), sharing the room the fixed parts leave. Each
 * block renders itself at any allowance (result.ts builds them); this file shares the room.
 */

/** GitHub rejects longer comment bodies. */
export const GITHUB_COMMENT_MAX_LENGTH = 65_536;
/** Below this, a result comment cannot hold its marker and a headline. */
export const MIN_RESULT_LENGTH = 4096;

/** A part of a body that can shrink: `render(n)` for n in [0, natural], larger n showing more. */
export interface FlexibleBlock {
  natural: number;
  render(allowance: number): string;
}

/** The largest rendering of `block` within `budget` (binary search), or "" when even the smallest does not fit. */
function fitBlock(block: FlexibleBlock, budget: number): string {
  const full = block.render(block.natural);
  if (full.length <= budget) return full;
  let best = "";
  let low = 0;
  let high = block.natural - 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const rendered = block.render(mid);
    if (rendered.length <= budget) {
      best = rendered;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** Shares `budget` among blocks, smallest first, each taking at most an equal share of what is left. */
export function fitBlocks(blocks: readonly FlexibleBlock[], budget: number): string[] {
  const full = blocks.map((block) => block.render(block.natural));
  if (full.reduce((sum, text) => sum + text.length, 0) <= budget) return full;
  const out = new Array<string>(blocks.length).fill("");
  const order = blocks.map((_, index) => index).sort((a, b) => full[a]!.length - full[b]!.length);
  let remaining = budget;
  order.forEach((index, position) => {
    const share = Math.floor(remaining / (order.length - position));
    out[index] = full[index]!.length <= share ? full[index]! : fitBlock(blocks[index]!, share);
    remaining -= out[index]!.length;
  });
  return out;
}

/**
 * A comment body as a writer receives it: finished text, or a rendering at a given maximum length
 * (the result comment), which the writer can render again with less room.
 */
export type CommentBody = string | ((maxLength: number) => string);

/** How many times a rendering is redone to fit once redacted, and how close to the limit is close enough. */
const REFIT_ATTEMPTS = 6;
const REFIT_CLOSE_ENOUGH = 1_000;

/**
 * `body` redacted, within `limit`. Redaction runs on the rendered text, before the length is judged:
 * a label can be longer than what it replaces, so a rendering that grew past the limit is rendered
 * again with less room (the excess taken off first, then a bisection towards the limit). Text that
 * cannot re-render (or a rendering that still does not fit) is cut at the end: every body starts
 * with its marker, so a cut never reaches it, and sanitised text cut at the end opens nothing after it.
 */
export function redactToFit(
  body: CommentBody,
  redact: (text: string) => string,
  limit: number = GITHUB_COMMENT_MAX_LENGTH,
  /** How the limit counts: characters (comments) by default, or bytes (the job summary). */
  measure: (text: string) => number = (text) => text.length,
): string {
  if (typeof body === "string") return cutToFit(redact(body), limit, measure);
  const first = redact(body(limit));
  if (measure(first) <= limit) return first;
  let best: string | null = null;
  let fits = 0;
  let overflows = limit;
  let room = limit - (measure(first) - limit);
  for (let attempt = 0; attempt < REFIT_ATTEMPTS && room > fits && room < overflows; attempt++) {
    const redacted = redact(body(room));
    if (measure(redacted) <= limit) {
      best = redacted;
      fits = room;
    } else {
      overflows = room;
    }
    if (best !== null && overflows - fits <= REFIT_CLOSE_ENOUGH) break;
    room = best !== null ? Math.floor((fits + overflows) / 2) : room - (measure(redacted) - limit);
  }
  return best ?? cutToFit(first, limit, measure);
}

function cutToFit(text: string, limit: number, measure: (text: string) => number): string {
  let out = text;
  while (out.length > 0 && measure(out) > limit) {
    // In proportion to what is over (characters or bytes), one more for the "…": shorter every time, so this ends.
    let cut = Math.floor((out.length * limit) / measure(out)) - 1;
    if (cut > 0 && out.charCodeAt(cut - 1) >= 0xd800 && out.charCodeAt(cut - 1) <= 0xdbff) cut--;
    if (cut <= 0) return "";
    out = `${out.slice(0, cut)}…`;
  }
  return out;
}

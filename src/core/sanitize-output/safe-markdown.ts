/**
 * Agent text made safe for a comment, the rules every part of this folder follows: output is typed
 * `SafeMarkdown`, and renderers take only that type for pre-rendered pieces, so raw agent text cannot
 * reach a comment without passing through here. This file holds the type, the trusted-literal
 * helpers and the text hygiene shared by code spans (code.ts), prose (prose.ts) and links (links.ts):
 * controls and spoofing characters dropped, cuts that never split a character, and the bot's
 * marker opening hidden wherever text is shown verbatim.
 */

import type { ImageHosts } from "./image-hosts.js";

declare const safeMarkdownBrand: unique symbol;

/** Markdown produced by this module (or by `md` from trusted literals): safe to put in a comment. */
export type SafeMarkdown = string & { readonly [safeMarkdownBrand]: true };

export interface OutputSanitizeOptions {
  /** The phrase that triggers the bot (e.g. "/agent"); its occurrences are wrapped in code. */
  triggerPhrase?: string;
  /** Cut the source text to this many characters (a "…" marks the cut). */
  maxLength?: number;
  /** Hosts whose images render (see image-hosts.ts); any other image becomes a plain link. Default: github.com's. */
  imageHosts?: ImageHosts;
}

/** The hidden-marker namespace (see markers/). Lives here because neutralising it is a sanitiser job. */
export const MARKER_NAMESPACE = "agent-run-bridge";

/** `<!--` followed by the namespace, however spaced: what `markers/read.ts` counts as a marker. */
export const MARKER_OPENING = new RegExp(`<!--\\s*${MARKER_NAMESPACE}`, "gi");

const ZERO_WIDTH_SPACE = "\u200B";
const ELLIPSIS = "…";

/** Trusted Markdown from a template literal: the literal parts are ours, every value must already be safe. */
export function md(strings: TemplateStringsArray, ...values: SafeMarkdown[]): SafeMarkdown {
  let out = strings[0] ?? "";
  values.forEach((value, index) => {
    out += value + (strings[index + 1] ?? "");
  });
  return out as SafeMarkdown;
}

/** Joins safe pieces; the separator is ours. */
export function joinMarkdown(pieces: readonly SafeMarkdown[], separator: string): SafeMarkdown {
  return pieces.join(separator) as SafeMarkdown;
}

// ---------------------------------------------------------------------------------------------
// Text hygiene

/**
 * C0/C1 controls (but tab and newline), bidi embeddings, overrides and isolates, LRM/RLM and the
 * tag block: characters that spoof what a reader sees. Zero-width joiners stay (emoji sequences).
 */
const SPOOFING_CHARACTERS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]|\uDB40[\uDC00-\uDC7F]/g;
// eslint-disable-next-line no-control-regex
const ANSI_ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function cleanText(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, "\n")
    .replace(ANSI_ESCAPE, "")
    .replace(SPOOFING_CHARACTERS, "");
}

/** Cuts `text` to at most `max` characters, ending with "…" when cut; never splits a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let cut = max - ELLIPSIS.length;
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
  return text.slice(0, Math.max(cut, 0)) + ELLIPSIS;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
export const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
export const ASCII_ALNUM = /[A-Za-z0-9]/;

/** True when the character at `index` is backslash-escaped (an odd number of backslashes before it). */
export function isEscaped(text: string, index: number): boolean {
  let count = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) count++;
  return count % 2 === 1;
}

/** Hides `<!-- agent-run-bridge` from the marker parser in text GitHub shows verbatim (code). */
export function neutraliseMarkerOpenings(text: string): string {
  return text.replace(MARKER_OPENING, (match) => `<!-${ZERO_WIDTH_SPACE}-${match.slice(4)}`);
}

/**
 * The comment grammar.
 *
 * - `<phrase> [new] <instruction…>` at the start of a line (up to three spaces of indentation,
 *   case-insensitive, the phrase followed by whitespace or the end of the line). The instruction
 *   is the rest of that line plus every following line. `new` right after the phrase forces a
 *   fresh run instead of resuming the thread's run.
 * - When `mention` is on, `@<appSlug>` or `@<appSlug>[bot]` works like the phrase at the start
 *   of a line, and anywhere else in the text it makes the whole comment the instruction.
 * - Nothing inside a fenced code block, an inline code span, a quote (`> …`, with its lazy
 *   continuation lines, in a list or a `<blockquote>`: see quotes.ts) or hidden markup (HTML
 *   comments, see sanitize-input) triggers.
 * - A quote is someone else's words, never the request: the instruction leaves the quoted lines
 *   out (a placeholder line stands where each quote was) and `quoted` carries them, for the
 *   prompt to show as material.
 * An empty instruction is allowed: it means "handle this thread".
 * - `<phrase> stop` (the word alone on the trigger's line, any case, a trailing `.` or `!`
 *   allowed) is not an instruction but the stop intent: stop watching this thread's run. Lines
 *   after it are the person's reason, not an instruction. `<phrase> stop the flaky test…` is an
 *   ordinary instruction, and so is `<phrase> new stop`.
 */
import type { RepoConfig } from "../config/schema.js";
import type { BridgeSelf } from "./actors.js";
import { QUOTE_PLACEHOLDER, quotedLineFlags, splitQuotes } from "./quotes.js";
import { classifyLines, sanitizeUserText, type MarkdownLine } from "./sanitize-input.js";

export interface TriggerGrammar {
  /** The configured trigger phrase, e.g. "/agent". */
  phrase: string;
  /** The app's slug (`my-agent` for `@my-agent`); without it, mentions never trigger. */
  appSlug?: string;
  /** Whether a mention of the app triggers. */
  mention: boolean;
}

/** The grammar a repository's configuration and the bridge's identity make. */
export const grammarOf = (config: Pick<RepoConfig, "trigger_phrase" | "mention">, self: Pick<BridgeSelf, "appSlug">): TriggerGrammar => ({
  phrase: config.trigger_phrase,
  appSlug: self.appSlug,
  mention: config.mention,
});

export interface ParsedTrigger {
  /** `run`: start or continue a run with the instruction; `stop`: stop watching the thread's run (the instruction is empty). */
  kind: "run" | "stop";
  /** What the user asked for, sanitised, without the lines it quotes; may be empty ("handle this thread"). */
  instruction: string;
  /** The lines the request quotes (`>`, `<blockquote>`), each quote as written, separated by blank lines; empty when none. */
  quoted: string;
  /** `<phrase> new …`: start a fresh run even when the thread has one. */
  forceNew: boolean;
  /** Which part of the grammar matched. */
  matchedBy: "phrase" | "mention";
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const INLINE_CODE = /(`+)(?:(?!\1)[\s\S])*?\1/g;

function mentionPattern(appSlug: string, flags: string, anchored: boolean): RegExp {
  const name = `@${escapeRegExp(appSlug)}(?:\\[bot\\])?(?![\\w-])`;
  return anchored ? new RegExp(`^ {0,3}${name}[,:]?`, flags) : new RegExp(`(?:^|[^\\w@/.-])${name}`, flags);
}

const STOP_WORD = /^\s*stop[.!]?\s*$/i;

type ParsedRequest = Pick<ParsedTrigger, "kind" | "instruction" | "quoted" | "forceNew">;

/** The request in `lines` (the person's own, quotes set aside) and the quotes. */
function requestOf(lines: readonly MarkdownLine[]): Pick<ParsedTrigger, "instruction" | "quoted"> {
  const split = splitQuotes(lines);
  const instruction = split.own.join("\n").trim();
  return { instruction: instruction === QUOTE_PLACEHOLDER ? "" : instruction, quoted: split.quoted.join("\n\n") };
}

function instructionFrom(rest: string, following: readonly MarkdownLine[]): ParsedRequest {
  if (STOP_WORD.test(rest)) return { kind: "stop", instruction: "", quoted: "", forceNew: false };
  let head = rest.trimStart();
  let forceNew = false;
  const newMatch = /^new(?=\s|$)/i.exec(head);
  if (newMatch) {
    forceNew = true;
    head = head.slice(newMatch[0].length).trimStart();
  }
  return { kind: "run", forceNew, ...requestOf([{ text: head, code: false }, ...following]) };
}

export function parseTriggerComment(body: string | null | undefined, grammar: TriggerGrammar): ParsedTrigger | null {
  const text = sanitizeUserText(body);
  if (text === "") return null;
  const lines = classifyLines(text);
  const quoted = quotedLineFlags(lines);
  const eligible = (index: number) => !lines[index]!.code && !quoted[index];
  const following = (index: number) => lines.slice(index + 1);

  const phrase = grammar.phrase.trim();
  if (phrase !== "") {
    const atLineStart = new RegExp(`^ {0,3}${escapeRegExp(phrase)}(?=\\s|$)`, "i");
    for (let i = 0; i < lines.length; i++) {
      if (!eligible(i)) continue;
      const match = atLineStart.exec(lines[i]!.text);
      if (match) return { ...instructionFrom(lines[i]!.text.slice(match[0].length), following(i)), matchedBy: "phrase" };
    }
  }

  if (!grammar.mention || !grammar.appSlug) return null;
  const leading = mentionPattern(grammar.appSlug, "i", true);
  for (let i = 0; i < lines.length; i++) {
    if (!eligible(i)) continue;
    const match = leading.exec(lines[i]!.text);
    if (match) return { ...instructionFrom(lines[i]!.text.slice(match[0].length), following(i)), matchedBy: "mention" };
  }
  const anywhere = mentionPattern(grammar.appSlug, "i", false);
  for (let i = 0; i < lines.length; i++) {
    if (eligible(i) && anywhere.test(lines[i]!.text.replace(INLINE_CODE, ""))) {
      return { kind: "run", ...requestOf(lines), forceNew: false, matchedBy: "mention" };
    }
  }
  return null;
}

/**
 * A trigger comment as the job finds it when it reads it again, right before acting:
 * `standing` (still there and still asking for a run), `deleted` (GitHub answers 404: its author
 * took it back) or `withdrawn` (edited so that it no longer asks, or now asks to stop).
 */
export type TriggerCommentState = "standing" | "deleted" | "withdrawn";

/**
 * What a trigger comment read again says (`current`: its body now, null when it is gone). Only
 * whether it still asks is taken from it: the run gets the text that was delivered, which GitHub
 * signed and whose author's permission was checked; an edit by someone else (a maintainer may edit
 * any comment) must not put their words under the author's name.
 */
export function triggerCommentState(current: { body: string } | null, grammar: TriggerGrammar): TriggerCommentState {
  if (current === null) return "deleted";
  return parseTriggerComment(current.body, grammar)?.kind === "run" ? "standing" : "withdrawn";
}

/**
 * Text from a run or from GitHub made safe to show in a terminal. A terminal acts on bytes a page
 * never would: ESC starts CSI/OSC sequences (an OSC 52 writes the clipboard, OSC 8 hides a link
 * behind other text, OSC 0 retitles the window), the 8-bit C1 controls do the same in one character,
 * a lone carriage return or backspaces overwrite what came before, BEL rings, and the Unicode
 * direction overrides reorder what the reader sees (Trojan Source).
 *
 * They are shown escaped (`\x1b`, `\u202e`) rather than removed: an operator reading the output sees
 * that the text carried them, which is worth knowing (an injection attempt, a tool's colours), and
 * what is left cannot be read as something the text did not say (removing ESC alone would leave
 * `[2J` behind, removing a whole sequence would need a parser of every terminal's dialect).
 * Newline and tab stay: they are the text's own layout.
 */

/** C0 controls but tab and newline, DEL, C1 controls; the bidi embeddings, overrides and isolates rustc flags. */
// Control characters are what this matches, on purpose.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, "0");

/** `text` with every character a terminal would act on written as `\xHH` (up to U+00FF) or `\uHHHH`. A CRLF line end is kept as a newline. */
export function escapeForTerminal(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(UNSAFE, (char) => (char.charCodeAt(0) <= 0xff ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`));
}

/**
 * JSON text safe for a terminal and still the same JSON: `JSON.stringify` already escapes C0
 * controls, and what it leaves raw (DEL, C1, bidi controls) can only stand inside a string, where
 * `\uHHHH` means the same character. Parsing the result gives back exactly the value.
 */
export function escapeJsonForTerminal(json: string): string {
  return json.replace(UNSAFE, (char) => `\\u${hex(char, 4)}`);
}

/**
 * A JSON log line whose strings show what a terminal would act on as text (`\x1b`, `\u202e`):
 * still one valid JSON document, and a pretty printer that parses it prints the escapes, not the
 * characters. Unlike `escapeJsonForTerminal` the values change: a log is read, not parsed back.
 * JSON's own escapes of C0 controls (`\u001b`, `\r`, `\b`, `\f`) gain a backslash, unless
 * that backslash is itself escaped (an even run of backslashes before it is text).
 */
export function escapeJsonLogLineForTerminal(json: string): string {
  return json
    .replace(JSON_CONTROL_ESCAPE, (_match, evens: string, escape: string) => `${evens}\\\\x${hex(controlOf(escape), 2)}`)
    .replace(UNSAFE, (char) => (char.charCodeAt(0) <= 0xff ? `\\\\x${hex(char, 2)}` : `\\\\u${hex(char, 4)}`));
}

/** A JSON escape of a C0 control but newline and tab, after an even run of backslashes (those are text). */
const JSON_CONTROL_ESCAPE = /(?<!\\)((?:\\\\)*)\\(u00(?:0[0-8bcdef]|1[0-9a-fA-F])|[bfr])/g;

const SHORT_ESCAPES: Record<string, string> = { b: "\b", f: "\f", r: "\r" };

function controlOf(escape: string): string {
  return SHORT_ESCAPES[escape] ?? String.fromCharCode(parseInt(escape.slice(1), 16));
}

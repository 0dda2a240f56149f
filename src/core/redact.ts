/**
 * Secrets taken out of everything the bridge writes (comments, the Action's job summary and
 * outputs, logs). One pass over finished text, run by the one door each shell writes through
 * (app/thread-writer.ts, app/logger.ts, action/door.ts, the CLI's output): a renderer cannot forget it.
 *
 * What it finds: GitHub tokens, credentials in URLs, AWS access key ids, PEM private keys, JWTs,
 * `Bearer …` values, known secret values (the service token, the webhook secret) and the patterns
 * an operator adds. Each replacement says what it was (`[redacted GitHub token]`).
 *
 * The door sees text after it was cut to fit ("…"), so a secret cut in the middle is redacted too:
 * a token's known prefix, URL credentials or the start of a known secret right before "…".
 * The bridge's hidden markers (`<!-- agent-run-bridge … -->`) are left as they are.
 */
import { escapeRegExp, MARKER_OPENING } from "./sanitize-output/safe-markdown.js";

export interface Redactor {
  /** `text` with every secret replaced by a label. */
  redact(text: string): string;
}

export interface RedactorOptions {
  /** Exact values never to show (at least 4 characters; shorter ones are ignored), each with what it is: `{ value, label: "API token" }`. */
  secrets?: readonly KnownSecret[];
  /** An operator's patterns (compiled by `compileRedactPatterns`). */
  patterns?: readonly RegExp[];
}

interface KnownSecret {
  value: string;
  /** What it is, shown as `[redacted <label>]`. */
  label: string;
}

interface Rule {
  pattern: RegExp;
  replace: string | ((match: string, ...groups: string[]) => string);
  /** Text the pattern cannot match without: a rule whose text lacks it is skipped (most text has no cut). */
  needs?: string;
}

/** The marker `truncateText` leaves where it cut. */
const CUT = "…";
/** A known secret shorter than this is not looked for: it would match ordinary words. */
const MIN_SECRET_LENGTH = 4;
/** How much of a known secret must show before a cut for it to count as that secret. */
const MIN_CUT_SECRET_PREFIX = 4;

const label = (what: string) => `[redacted ${what}]`;

/**
 * An underscore as it may reach the door: itself, or as the entity inline code uses for it
 * (`<code>` elements escape `_` as `&#95;`; see sanitize-output/code.ts).
 */
const US = "(?:_|&#95;)";
const NOT_WORD_BEFORE = "(?<![A-Za-z0-9_])";
const NOT_WORD_AFTER = "(?![A-Za-z0-9_])";

/** Built-in rules, most specific first: a PEM block may hold anything, a Bearer value may be a GitHub token. */
const BUILT_IN_RULES: readonly Rule[] = [
  {
    // A block cut before its END line is redacted to the end of the text.
    pattern: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*$)/g,
    replace: label("private key"),
  },
  {
    pattern: new RegExp(`${NOT_WORD_BEFORE}github${US}pat${US}(?:[A-Za-z0-9]|${US}){82,}${NOT_WORD_AFTER}`, "g"),
    replace: label("GitHub token"),
  },
  { pattern: new RegExp(`${NOT_WORD_BEFORE}gh[pousr]${US}[A-Za-z0-9]{36,}${NOT_WORD_AFTER}`, "g"), replace: label("GitHub token") },
  { pattern: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g, replace: label("AWS access key id") },
  { pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, replace: label("JWT") },
  {
    // `https://user:password@host`: the user and the password go, the host stays (it says where).
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:<>"'`]+:[^\s/?#@<>"'`]+@/gi,
    replace: (_match, scheme) => `${scheme}${label("credentials")}@`,
  },
  { pattern: /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi, replace: (_match, word) => `${word} ${label("bearer token")}` },
  {
    // A secret cut to fit, right before the cut: what shows of it is enough to recognise.
    pattern: new RegExp(`${NOT_WORD_BEFORE}(?:github${US}pat${US}|gh[pousr]${US}|AKIA|ASIA|eyJ)(?:[A-Za-z0-9._-]|&#95;)*${CUT}`, "g"),
    replace: `${label("cut secret")}${CUT}`,
    needs: CUT,
  },
  {
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:<>"'`]+:[^\s/?#@<>"'`]*…/gi,
    replace: (_match, scheme) => `${scheme}${label("credentials")}${CUT}`,
    needs: CUT,
  },
  { pattern: /\b(Bearer)\s+[A-Za-z0-9._~+/=-]+…/gi, replace: (_match, word) => `${word} ${label("bearer token")}${CUT}`, needs: CUT },
];

/** The forms a known secret may take once written: as is, HTML-escaped (prose), entity-escaped (inline code), JSON-escaped (logs). */
function writtenForms(value: string): string[] {
  const html = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const json = JSON.stringify(value).slice(1, -1);
  const code = value.replace(/[&<>\\`*_~[\]!|@]/g, (c) => `&#${c.charCodeAt(0)};`);
  return [...new Set([value, html, json, code])];
}

function knownSecretRules(secrets: readonly KnownSecret[]): Rule[] {
  const rules: Rule[] = [];
  // Longest first: a secret that contains another is replaced whole.
  const usable = secrets.filter((secret) => secret.value.length >= MIN_SECRET_LENGTH).sort((a, b) => b.value.length - a.value.length);
  for (const secret of usable) {
    const forms = writtenForms(secret.value).map(escapeRegExp);
    rules.push({ pattern: new RegExp(forms.join("|"), "g"), replace: label(secret.label) });
  }
  for (const secret of usable) {
    // Its start, cut to fit: the longest prefix first, at least MIN_CUT_SECRET_PREFIX characters.
    const prefixes: string[] = [];
    for (let length = secret.value.length - 1; length >= MIN_CUT_SECRET_PREFIX; length--) {
      prefixes.push(escapeRegExp(secret.value.slice(0, length)));
    }
    if (prefixes.length > 0)
      rules.push({ pattern: new RegExp(`(?:${prefixes.join("|")})${CUT}`, "g"), replace: `${label(secret.label)}${CUT}`, needs: CUT });
  }
  return rules;
}

function applyRules(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const rule of rules) {
    if (rule.needs !== undefined && !out.includes(rule.needs)) continue;
    rule.pattern.lastIndex = 0;
    out = typeof rule.replace === "string" ? out.replace(rule.pattern, rule.replace) : out.replace(rule.pattern, rule.replace);
  }
  return out;
}

/** A marker line: from `<!-- agent-run-bridge` to the next `-->` (marker JSON escapes `>`, so it cannot end early). */
const MARKER = new RegExp(`${MARKER_OPENING.source}[\\s\\S]*?-->`, "gi");

/** A redactor for the given known secrets and operator patterns, plus the built-in rules. */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const rules: Rule[] = [
    ...knownSecretRules(options.secrets ?? []),
    ...BUILT_IN_RULES,
    ...(options.patterns ?? []).map((pattern) => ({ pattern, replace: label("by an operator pattern") })),
  ];
  return {
    redact(text) {
      // Markers carry the bot's state (ids, branches): they are ours and kept whole.
      let out = "";
      let cursor = 0;
      for (const marker of text.matchAll(MARKER)) {
        out += applyRules(text.slice(cursor, marker.index), rules) + marker[0];
        cursor = marker.index + marker[0].length;
      }
      return out + applyRules(text.slice(cursor), rules);
    },
  };
}

/**
 * Operator patterns (JavaScript regular expressions, one per entry; `(?i)` at the start makes one
 * case-insensitive) compiled for `createRedactor`. Every problem is reported, not only the first,
 * naming the pattern by its line (1-based) and never quoting it: a pattern may spell a secret.
 * A pattern that matches the empty string is refused: it would put a label between every character.
 * Nothing guards against a pattern that backtracks catastrophically: the operator's patterns are trusted.
 */
export function compileRedactPatterns(sources: readonly string[]): { patterns: RegExp[]; errors: string[] } {
  const patterns: RegExp[] = [];
  const errors: string[] = [];
  sources.forEach((raw, index) => {
    if (raw === "") return;
    const caseless = raw.startsWith("(?i)");
    const source = caseless ? raw.slice(4) : raw;
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, caseless ? "gi" : "g");
    } catch (error) {
      // V8 says "Invalid regular expression: /<source>/g: <reason>": keep the reason only.
      const reason = (error as Error).message.split(": ").at(-1) ?? "invalid";
      errors.push(`line ${index + 1} is not a valid regular expression (${reason})`);
      return;
    }
    if (new RegExp(pattern.source, pattern.flags.replace("g", "")).test("")) {
      errors.push(`line ${index + 1} matches the empty string; make it match at least one character`);
      return;
    }
    patterns.push(pattern);
  });
  return { patterns, errors };
}

/**
 * A list of operator patterns as an environment variable or an input holds it: one per line,
 * surrounding spaces ignored; a blank line stays (as an empty string, skipped by the compiler) so
 * that errors name the line the operator sees.
 */
export function splitRedactPatterns(text: string | undefined): string[] {
  return (text ?? "").split(/\r?\n/).map((line) => line.trim());
}

/**
 * An env file (`NAME=value` lines) updated with settings while every other line is kept: what
 * `agent-run app register` writes the App's credentials into. Pure text in, text out.
 */

/** The names that hold an App's credentials: a file that already sets one belongs to an App. */
export const APP_CREDENTIAL_NAMES = ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET"] as const;

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/** Characters every env-file reader takes literally without quotes (docker --env-file takes quotes literally). */
const PLAIN_VALUE = /^[A-Za-z0-9_.:/+=@,-]*$/;

/** `NAME=value`, single-quoted only when the value has characters some reader would interpret (Compose's `$`, a `#`). */
export function envLine(name: string, value: string): string {
  if (PLAIN_VALUE.test(value)) return `${name}=${value}`;
  if (!value.includes("'")) return `${name}='${value}'`;
  return `${name}="${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The value of a line as env-file readers see it: quotes and a trailing comment off. */
function valueOf(raw: string): string {
  const text = raw.trim();
  const quoted = /^(["'])(.*)\1$/.exec(text);
  if (quoted) return quoted[2]!;
  return text.replace(/\s+#.*$/, "");
}

/** The names `text` sets to a non-empty value, among `names`. */
export function namesSetIn(text: string, names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const match = ASSIGNMENT.exec(line);
    if (match && names.includes(match[1]!) && valueOf(match[2]!) !== "") found.add(match[1]!);
  }
  return names.filter((name) => found.has(name));
}

/**
 * `existing` with each setting's line replaced in place (every line of that name, the first one
 * rewritten, the others dropped), and the settings it lacked appended under `heading`. `drop` names
 * lines to remove (PRIVATE_KEY_PATH when PRIVATE_KEY is written: the App would read the key, not the file).
 */
export function mergeEnvText(
  existing: string,
  settings: readonly (readonly [name: string, value: string])[],
  heading: string,
  drop: readonly string[] = [],
): string {
  const values = new Map(settings);
  const written = new Set<string>();
  const lines: string[] = [];
  for (const line of existing === "" ? [] : existing.replace(/\r?\n$/, "").split(/\r?\n/)) {
    const name = ASSIGNMENT.exec(line)?.[1];
    if (name !== undefined && drop.includes(name) && !values.has(name)) continue;
    if (name === undefined || !values.has(name)) {
      lines.push(line);
      continue;
    }
    if (!written.has(name)) lines.push(envLine(name, values.get(name)!));
    written.add(name);
  }
  const missing = settings.filter(([name]) => !written.has(name));
  if (missing.length > 0) {
    if (lines.length > 0 && lines[lines.length - 1]!.trim() !== "") lines.push("");
    lines.push(`# ${heading}`, ...missing.map(([name, value]) => envLine(name, value)));
  }
  return `${lines.join("\n")}\n`;
}

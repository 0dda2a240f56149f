/**
 * Checking a `.github/agent-run.yml` before it is committed (`agent-run config check`): the YAML,
 * then the schema, every problem at once in the file's order, each pointing at its line and column
 * and quoting the value given, with a "did you mean" for unknown keys and the line itself under a
 * YAML error. Pure: the caller reads the file.
 */
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import type { LocatedProblem } from "./issues.js";
import { validateRepoConfig, type RepoConfig } from "./schema.js";

export type ConfigFileCheck = { ok: true; config: RepoConfig; summary: string } | { ok: false; problems: string[] };

type Range = readonly [number, number, number] | null | undefined;

/** Where a problem's path is in the document: the key for unknown keys, else the value, else the nearest parent. */
function rangeOf(doc: Document, path: readonly PropertyKey[], unknownKey: boolean): Range {
  const segments = path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
  if (unknownKey && segments.length > 0) {
    const parent = segments.length === 1 ? doc.contents : doc.getIn(segments.slice(0, -1), true);
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segments[segments.length - 1]),
      );
      if (pair && isScalar(pair.key)) return pair.key.range;
    }
  }
  for (let length = segments.length; length > 0; length--) {
    const node = doc.getIn(segments.slice(0, length), true) as { range?: Range } | undefined;
    if (node?.range) return node.range;
  }
  return (doc.contents as { range?: Range } | null)?.range;
}

function located(file: string, counter: LineCounter, range: Range, message: string): string {
  if (!range) return `${file}: ${message}`;
  const { line, col } = counter.linePos(range[0]);
  return `${file}:${line}:${col}: ${message}`;
}

/** Problems in the order of the file, the way a reader fixes them; those with no place (rare) last. */
function inFileOrder<T>(items: readonly T[], offsetOf: (item: T) => number | undefined): T[] {
  const at = (item: T) => offsetOf(item) ?? Number.POSITIVE_INFINITY;
  return [...items].sort((a, b) => at(a) - at(b));
}

/** Past this many characters a line is shown as a window around the column. */
const EXCERPT_WIDTH = 100;

/**
 * The line a YAML error is on, with a caret under its column, like a compiler's:
 * ```
 *     3 |   enabled: false
 *       |   ^
 * ```
 * The file is the reader's own, read on their machine: showing it hides nothing (the CLI escapes terminal controls).
 */
function excerptAt(text: string, line: number, col: number): string {
  const lines = text.split(/\r?\n/);
  const gutter = String(line).padStart(5);
  // The parser stops past the last line for what is left open (a bracket, a quote): say so rather than show nothing.
  if (line >= lines.length && (lines[line - 1] ?? "") === "") return `${gutter} | (the end of the file)\n${" ".repeat(gutter.length)} | ^`;
  const source = lines[line - 1] ?? "";
  let start = 0;
  if (source.length > EXCERPT_WIDTH) start = Math.max(0, Math.min(col - 1 - EXCERPT_WIDTH / 2, source.length - EXCERPT_WIDTH));
  const shown = `${start > 0 ? "…" : ""}${source.slice(start, start + EXCERPT_WIDTH)}${start + EXCERPT_WIDTH < source.length ? "…" : ""}`;
  // A tab before the column stays a tab under it, so the caret lines up however wide the terminal draws tabs.
  const lead = source.slice(start, Math.max(start, col - 1)).replace(/[^\t]/g, " ");
  return `${gutter} | ${shown}\n${" ".repeat(gutter.length)} | ${start > 0 ? " " : ""}${lead}^`;
}

const on = (value: boolean) => (value ? "on" : "off");

/** One line that says what the file turns on, so a reader sees at once that it means what they meant. */
function summariseConfig(config: RepoConfig): string {
  const limits = config.limits;
  const ci = config.check_suite.enabled ? `on (${config.check_suite.max_attempts} attempts per pull request)` : "off";
  return [
    `trigger \`${config.trigger_phrase}\`${config.mention ? " or a mention" : ""}`,
    `label \`${config.label.name}\` ${on(config.label.enabled)}`,
    `reviews ${on(config.reviews.enabled)}`,
    `CI auto-fix ${ci}`,
    `limits ${limits.runs_per_thread_per_day} runs/thread/day, ${limits.runs_per_repo_per_hour} runs/repo/hour, ${limits.ci_fixes_per_repo_per_day} CI fixes/repo/day`,
    `kill switch \`${config.kill_switch_label}\``,
    ...(config.automations.length > 0
      ? [`automations ${config.automations.map((automation) => `${automation.name} (${automation.on})`).join(", ")}`]
      : []),
  ].join(", ");
}

export function checkConfigText(text: string, file: string): ConfigFileCheck {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  const syntax = [...doc.errors, ...doc.warnings];
  if (syntax.length > 0) {
    // Past a syntax error the structure is a guess: report the YAML alone.
    return {
      ok: false,
      problems: inFileOrder(syntax, (error) => error.pos[0]).map((error) => {
        const message = `not valid YAML: ${error.message.split(" at line ")[0]!.split("\n")[0]}`;
        const position = error.linePos?.[0];
        if (!position) return `${file}: ${message}`;
        return `${file}:${position.line}:${position.col}: ${message}\n${excerptAt(text, position.line, position.col)}`;
      }),
    };
  }
  const raw: unknown = doc.toJS();
  const problems: LocatedProblem[] = [];
  const extendsValue =
    raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>)._extends : undefined;
  if (extendsValue !== undefined && (typeof extendsValue !== "string" || extendsValue.trim() === "")) {
    problems.push({
      path: ["_extends"],
      message: "`_extends`: must be the file to inherit from, such as `octo-org/.github` or `octo-org/.github:agent-run.yml`",
    });
  }
  // The file is the reader's own, checked on their machine: quoting its values helps and reveals nothing.
  const result = validateRepoConfig(raw, { values: "quoted" });
  // A skipped automation leaves the rest working, but the file is not what its author meant: reported like any problem.
  problems.push(...(result.ok ? result.skipped : result.problems));
  if (!result.ok || problems.length > 0) {
    return {
      ok: false,
      problems: inFileOrder(
        problems.map((problem) => ({ problem, range: rangeOf(doc, problem.path, problem.unknownKey === true) })),
        ({ range }) => range?.[0],
      ).map(({ problem, range }) => located(file, counter, range, problem.message)),
    };
  }
  const extended =
    typeof extendsValue === "string"
      ? `; it extends \`${extendsValue}\`, which the App merges in when it reads the file if it is a file of this repository or of the owner's \`.github\` repository, no more private than this one (not checked here)`
      : "";
  const empty = raw === null || raw === undefined ? " (empty: every default applies)" : "";
  return { ok: true, config: result.config, summary: `${file} is valid${empty}: ${summariseConfig(result.config)}${extended}.` };
}

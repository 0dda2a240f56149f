/**
 * Turns zod issues into messages a person editing a YAML file can act on: each names the field
 * path, says what is wrong and what is allowed, and says what kind of value was given. The value
 * itself is quoted only where the caller asks for it (a local check of one's own file): a
 * repository's settings may hold what a public thread or log must not show.
 */
import type * as z from "zod/mini";

type Issue = z.core.$ZodIssue;
type PathSegment = PropertyKey;

function formatFieldPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(input: unknown, path: readonly PathSegment[]): { found: boolean; value: unknown } {
  let current: unknown = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return { found: false, value: undefined };
    const record = current as Record<PropertyKey, unknown>;
    if (!(segment in record)) return { found: false, value: undefined };
    current = record[segment];
  }
  return { found: true, value: current };
}

function describeGivenValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : `a list of ${value.length}`;
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    const quoted = JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
    return value.length > 60 ? `${quoted}, ${value.length} characters` : quoted;
  }
  return String(value);
}

/** What kind of value was given, without the value: "text of 12 characters", "a number", "a list of 2"… */
export function describeGivenKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : `a list of ${value.length}`;
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return value === "" ? "empty text" : `text of ${value.length} character${value.length === 1 ? "" : "s"}`;
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return "true or false";
  return `a ${typeof value}`;
}

/** Edit distance, for "did you mean" on unknown keys. */
function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(previous[j]! + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

export function closestKey(key: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

export interface DescribeIssuesOptions {
  /** Keys allowed in the object at `path`, for unknown-key messages. */
  allowedKeysAt?: (path: readonly PathSegment[]) => readonly string[] | undefined;
  /** Prefix for field paths, e.g. "input " for Action inputs. Default none. */
  label?: (path: string) => string;
  /** The allowed key an unknown one probably meant; default: the closest by edit distance. */
  suggest?: (key: string, allowed: readonly string[]) => string | undefined;
  /** `quoted`: the given value is shown (only for one's own input, read locally); default `kinds`: only its kind. */
  values?: "quoted" | "kinds";
}

/** One problem: where it is (the path in the input) and the whole message, which names that path. */
export interface LocatedProblem {
  path: PathSegment[];
  message: string;
  /** The last path segment is a key the schema does not know (point at the key, not its value). */
  unknownKey?: boolean;
}

/** One message per problem, e.g. "`check_suite.max_attempts`: must be an integer between 1 and 20 (got text of 5 characters)". */
export function describeIssues(issues: readonly Issue[], input: unknown, options: DescribeIssuesOptions = {}): string[] {
  return locateIssues(issues, input, options).map((problem) => problem.message);
}

/** `describeIssues` with each message's path, so that a caller can point at the line in a file. */
export function locateIssues(issues: readonly Issue[], input: unknown, options: DescribeIssuesOptions = {}): LocatedProblem[] {
  const label = options.label ?? ((path: string) => (path === "" ? "configuration" : `\`${path}\``));
  const problems: LocatedProblem[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const allowed = options.allowedKeysAt?.(issue.path) ?? [];
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        const guess = (options.suggest ?? closestKey)(key, allowed);
        const hint = guess ? ` Did you mean \`${guess}\`?` : "";
        const list = allowed.length > 0 ? ` Allowed keys here: ${allowed.join(", ")}.` : "";
        problems.push({ path, unknownKey: true, message: `${label(formatFieldPath(path))}: unknown key (a typo?).${hint}${list}` });
      }
      continue;
    }
    const given = valueAt(input, issue.path);
    const describe = options.values === "quoted" ? describeGivenValue : describeGivenKind;
    const got = given.found ? ` (got ${describe(given.value)})` : " (missing)";
    problems.push({ path: [...issue.path], message: `${label(formatFieldPath(issue.path))}: ${issue.message}${got}` });
  }
  return problems;
}

/**
 * Glob patterns as GitHub's workflow filters write them: `*` any run of characters except `/`,
 * `**` any run including `/`, `?` one character except `/`. Everything else is literal; there is
 * no negation (the schema rejects a leading `!`).
 */

export interface GlobOptions {
  /** Treat `/` as a separator that `*` and `?` do not cross (branch names). Default true. */
  pathAware?: boolean;
  /** Compare without regard to case (check names). Default false. */
  ignoreCase?: boolean;
}

export function globToRegExp(pattern: string, options: GlobOptions = {}): RegExp {
  const pathAware = options.pathAware ?? true;
  const one = pathAware ? "[^/]" : "[\\s\\S]";
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") {
      if (pattern[i + 1] === "*") {
        source += "[\\s\\S]*";
        i++;
      } else {
        source += `${one}*`;
      }
    } else if (ch === "?") {
      source += one;
    } else {
      source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`, options.ignoreCase ? "i" : "");
}

export function matchesGlob(value: string, pattern: string, options: GlobOptions = {}): boolean {
  return globToRegExp(pattern, options).test(value);
}

/** The first pattern that matches `value`, or undefined. */
export function firstMatchingGlob(value: string, patterns: readonly string[], options: GlobOptions = {}): string | undefined {
  return patterns.find((pattern) => matchesGlob(value, pattern, options));
}

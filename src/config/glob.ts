/**
 * Glob patterns as GitHub's workflow filters write them: `*` any run of characters except `/`,
 * `**` any run including `/`, `?` one character except `/`. Everything else is literal; there is
 * no negation (the schema rejects a leading `!`).
 *
 * Patterns come from repository configuration, so anyone who can push a config can write one:
 * matching simulates the pattern as a set of positions advanced one character at a time, which
 * takes at most (value length × pattern length) steps, never the exponential backtracking a
 * regular expression of `*a*a*a…b` costs.
 */

export interface GlobOptions {
  /** Treat `/` as a separator that `*` and `?` do not cross (branch names). Default true. */
  pathAware?: boolean;
  /** Compare without regard to case (check names). Default false. */
  ignoreCase?: boolean;
}

/** One step of a compiled pattern. `star` repeats zero or more times; the others consume one character. */
type GlobToken = { kind: "literal"; char: string } | { kind: "one" } | { kind: "star"; crossesSlash: boolean };

function tokenize(pattern: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "*") {
      const crossesSlash = chars[i + 1] === "*";
      if (crossesSlash) i++;
      const previous = tokens.at(-1);
      // Adjacent stars match what the widest of them matches: keep one.
      if (previous?.kind === "star") previous.crossesSlash ||= crossesSlash;
      else tokens.push({ kind: "star", crossesSlash });
    } else if (ch === "?") {
      tokens.push({ kind: "one" });
    } else {
      tokens.push({ kind: "literal", char: ch });
    }
  }
  return tokens;
}

export function matchesGlob(value: string, pattern: string, options: GlobOptions = {}): boolean {
  const pathAware = options.pathAware ?? true;
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  const tokens = tokenize(fold(pattern));
  const consumes = (token: GlobToken, ch: string): boolean => {
    switch (token.kind) {
      case "literal":
        return token.char === ch;
      case "one":
        return !pathAware || ch !== "/";
      case "star":
        return token.crossesSlash || !pathAware || ch !== "/";
    }
  };
  // `active[i]`: the first i tokens can match the characters read so far.
  let active = new Uint8Array(tokens.length + 1);
  const close = (states: Uint8Array): void => {
    // A star may match nothing: reaching it also reaches the token after it.
    for (let i = 0; i < tokens.length; i++) if (states[i] && tokens[i]!.kind === "star") states[i + 1] = 1;
  };
  active[0] = 1;
  close(active);
  for (const ch of fold(value)) {
    const next = new Uint8Array(tokens.length + 1);
    let any = false;
    for (let i = 0; i < tokens.length; i++) {
      if (!active[i] || !consumes(tokens[i]!, ch)) continue;
      // A star stays where it is after a character; the others move past it.
      next[tokens[i]!.kind === "star" ? i : i + 1] = 1;
      any = true;
    }
    if (!any) return false;
    close(next);
    active = next;
  }
  return active[tokens.length] === 1;
}

/** The first pattern that matches `value`, or undefined. */
export function firstMatchingGlob(value: string, patterns: readonly string[], options: GlobOptions = {}): string | undefined {
  return patterns.find((pattern) => matchesGlob(value, pattern, options));
}

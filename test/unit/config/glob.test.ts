/**
 * Globs from repository configuration: the documented semantics (`*`, `**`, `?`), the same answers
 * as the regular expression they used to compile to, and hostile patterns that finish.
 */
import { describe, expect, it } from "vitest";
import { firstMatchingGlob, matchesGlob, type GlobOptions } from "../../../src/config/glob.js";

/** The former implementation, as an oracle on inputs too small to make it backtrack for long. */
function regexOracle(value: string, pattern: string, options: GlobOptions = {}): boolean {
  const one = (options.pathAware ?? true) ? "[^/]" : "[\\s\\S]";
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*" && pattern[i + 1] === "*") {
      source += "[\\s\\S]*";
      i++;
    } else if (ch === "*") source += `${one}*`;
    else if (ch === "?") source += one;
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, options.ignoreCase ? "i" : "").test(value);
}

describe("matchesGlob", () => {
  it("follows the documented semantics", () => {
    expect(matchesGlob("feature/x", "feature/*")).toBe(true);
    expect(matchesGlob("feature/x/y", "feature/*")).toBe(false);
    expect(matchesGlob("feature/x/y", "feature/**")).toBe(true);
    expect(matchesGlob("feature/", "feature/**")).toBe(true);
    expect(matchesGlob("a/b/c", "**/c")).toBe(true);
    expect(matchesGlob("a/b/c", "*/c")).toBe(false);
    expect(matchesGlob("a/b/c", "a/***")).toBe(true);
    expect(matchesGlob("release-1.2", "release-?.?")).toBe(true);
    expect(matchesGlob("release-1/2", "release-1?2")).toBe(false);
    expect(matchesGlob("release-1/2", "release-1?2", { pathAware: false })).toBe(true);
    expect(matchesGlob("x", "")).toBe(false);
    expect(matchesGlob("", "")).toBe(true);
    expect(matchesGlob("", "*")).toBe(true);
    expect(matchesGlob("Main", "main")).toBe(false);
    expect(matchesGlob("Main", "m?IN", { ignoreCase: true })).toBe(true);
    expect(matchesGlob("a+b(c)[d]", "a+b(c)[d]")).toBe(true);
    expect(matchesGlob("fix-🐛", "fix-?")).toBe(true);
    expect(firstMatchingGlob("CI / Lint (node 20)", ["build", "ci / lint*"], { pathAware: false, ignoreCase: true })).toBe("ci / lint*");
  });

  it("answers as the regular expression did, on every small case", () => {
    const patterns = ["*", "**", "?", "a*", "*a", "a**b", "*/b", "**/b", "a?b", "*a*b*", "a*/*b", "?*?", "a***b", "**a**", "A*b"];
    const values = ["", "a", "b", "ab", "a/b", "aab", "a/a/b", "ba", "a//b", "axb", "AB", "a/xb", "abab"];
    for (const options of [{}, { pathAware: false }, { ignoreCase: true }, { pathAware: false, ignoreCase: true }]) {
      for (const pattern of patterns)
        for (const value of values)
          expect(matchesGlob(value, pattern, options), `${pattern} on ${value}`).toBe(regexOracle(value, pattern, options));
    }
  });

  it("finishes on patterns that make a backtracking matcher explode", () => {
    const long = "a".repeat(100_000);
    expect(matchesGlob(long, "*a*a*a*a*a*a*a*a*a*a*a*b")).toBe(false);
    expect(matchesGlob(long, "**a**a**a**a**a**a**a**a**a**a**a**b")).toBe(false);
    expect(matchesGlob(long, "*a?*a?*a?*a?*a?*a?*a?*a?*a?*b", { pathAware: false, ignoreCase: true })).toBe(false);
    expect(matchesGlob(`${"a/".repeat(20_000)}c`, "**a*a*a*a*a*a*a*a*a*a*c")).toBe(false);
    expect(matchesGlob(`${long}b`, "*a*a*a*a*a*a*a*a*a*a*a*b")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { escapeForTerminal, escapeJsonForTerminal, escapeJsonLogLineForTerminal } from "../../../src/core/terminal-text.js";

describe("escapeForTerminal", () => {
  it("shows ESC sequences, C1, BEL, DEL, backspace and a lone CR escaped", () => {
    expect(escapeForTerminal("\x1b]52;c;eA==\x07")).toBe("\\x1b]52;c;eA==\\x07");
    expect(escapeForTerminal("\x9b2J \x9d0;t\x9c")).toBe("\\x9b2J \\x9d0;t\\x9c");
    expect(escapeForTerminal("ok\rFAIL\x7f\b\0\x0b\x0c")).toBe("ok\\x0dFAIL\\x7f\\x08\\x00\\x0b\\x0c");
  });

  it("shows the bidi embeddings, overrides and isolates as \\u escapes", () => {
    expect(escapeForTerminal("a\u202ab\u202ec\u2066d\u2069")).toBe("a\\u202ab\\u202ec\\u2066d\\u2069");
  });

  it("keeps newline, tab, CRLF line ends (as newlines) and printable Unicode", () => {
    expect(escapeForTerminal("one\r\ntwo\tthree\n")).toBe("one\ntwo\tthree\n");
    expect(escapeForTerminal("héllo — 日本 ✓ \u00a0 \u200d")).toBe("héllo — 日本 ✓ \u00a0 \u200d");
  });
});

describe("escapeJsonForTerminal", () => {
  it("leaves no raw control in the text and parses back to exactly the same value", () => {
    const value = { summary: "\x1b[2J\x9b\x7f\u202e\u2066 é\n", nested: ["\x07", { "k\x9d": "\u2069" }] };
    const json = escapeJsonForTerminal(JSON.stringify(value));
    // eslint-disable-next-line no-control-regex
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("escapeJsonLogLineForTerminal", () => {
  it("leaves valid JSON whose strings show the controls as text, for JSON and pretty log output alike", () => {
    const line = JSON.stringify({ msg: "service said \x1b]52;c;eA==\x07 ok\rFAIL\b\f \x9b2J \u202eevil", err: { message: "\x7f\u2066" } });
    const escaped = escapeJsonLogLineForTerminal(line);
    // eslint-disable-next-line no-control-regex
    expect(escaped).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(escaped)).toEqual({
      msg: "service said \\x1b]52;c;eA==\\x07 ok\\x0dFAIL\\x08\\x0c \\x9b2J \\u202eevil",
      err: { message: "\\x7f\\u2066" },
    });
  });

  it("keeps text that only looks like an escape, newlines and tabs as they were", () => {
    const value = { msg: "a literal \\u001b and \\r, a\nnew line\tand a tab" };
    const line = JSON.stringify(value);
    expect(escapeJsonLogLineForTerminal(line)).toBe(line);
  });
});

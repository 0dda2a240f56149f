import { describe, expect, it } from "vitest";
import { newRunMarker, renderMarker } from "../../../src/core/markers/write.js";
import { parseMarker } from "../../../src/core/markers/read.js";
import { compileRedactPatterns, createRedactor, splitRedactPatterns } from "../../../src/core/redact.js";
import { redactToFit } from "../../../src/core/render/fit.js";
import { inlineCode } from "../../../src/core/sanitize-output/code.js";
import { sanitizeMarkdown } from "../../../src/core/sanitize-output/prose.js";
import { truncateText } from "../../../src/core/sanitize-output/safe-markdown.js";

const B62 = "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4";
const TOKENS = {
  ghp: `ghp_${B62}`,
  gho: `gho_${B62}`,
  ghu: `ghu_${B62}`,
  ghs: `ghs_${B62}`,
  ghr: `ghr_${B62}`,
  pat: `github_pat_11ABCDEFG0${"x".repeat(20)}_${"Y".repeat(51)}`,
};
const AWS_KEY = "AKIAIOSFODNN7EXAMPLE";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const PEM =
  "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aozN3tihPmljnnudb9G3HECdnH\nlWu2/a1gB9JW5TBQ+AVpum9Okx7KfqkfBKL9mcHgSL0yWMdjMfNOqNtrQqKlN4kE\n-----END RSA PRIVATE KEY-----";

describe("createRedactor: built-in rules", () => {
  const redactor = createRedactor();

  it("replaces each GitHub token kind and says what it was", () => {
    expect(TOKENS.pat.length - "github_pat_".length).toBe(82);
    for (const token of Object.values(TOKENS)) {
      expect(redactor.redact(`token: ${token}.`)).toBe("token: [redacted GitHub token].");
    }
  });

  it("leaves look-alikes alone: too short, or part of a longer word", () => {
    for (const text of [`ghp_${B62.slice(1)}`, `xghp_${B62}`, "AKIA1234", "ghx_" + B62]) expect(redactor.redact(text)).toBe(text);
  });

  it("redacts URL credentials but keeps the host, AWS key ids, JWTs, Bearer values and PEM blocks", () => {
    expect(redactor.redact("clone https://bot:s3cr3t-pw@git.example.com/o/r.git now")).toBe(
      "clone https://[redacted credentials]@git.example.com/o/r.git now",
    );
    expect(redactor.redact(`key ${AWS_KEY} and ASIAY34FZKBOKMUTVV7A`)).toBe(
      "key [redacted AWS access key id] and [redacted AWS access key id]",
    );
    expect(redactor.redact(`jwt=${JWT};`)).toBe("jwt=[redacted JWT];");
    expect(redactor.redact("Authorization: Bearer abc.DEF-123_456~xyz")).toBe("Authorization: Bearer [redacted bearer token]");
    expect(redactor.redact(`before\n${PEM}\nafter`)).toBe("before\n[redacted private key]\nafter");
    expect(redactor.redact("-----BEGIN PRIVATE KEY-----\nMIIEv… the rest was cut")).toBe("[redacted private key]");
  });

  it("finds a PEM block written into JSON (a log line) with its newlines escaped", () => {
    expect(redactor.redact(JSON.stringify({ msg: PEM }))).toBe('{"msg":"[redacted private key]"}');
  });

  it("redacts a secret that a cut to fit left unrecognisable, right before the …", () => {
    const cut = truncateText(`the token is ${TOKENS.ghs} and more`, 30);
    expect(cut).toBe("the token is ghs_aB3dE5fG7hJ9…");
    expect(redactor.redact(cut)).toBe("the token is [redacted cut secret]…");
    expect(redactor.redact("see https://user:hunter…")).toBe("see https://[redacted credentials]…");
    expect(redactor.redact("Bearer abc…")).toBe("Bearer [redacted bearer token]…");
  });

  it("finds a token inside a <code> element, where _ is written &#95;", () => {
    const code = inlineCode(`a|b ${TOKENS.pat}`);
    expect(code).toContain("github&#95;pat&#95;");
    expect(redactor.redact(code)).toBe("<code>a&#124;b [redacted GitHub token]</code>");
  });

  it("keeps the bridge's marker whole, even when a pattern would match inside it", () => {
    const marker = renderMarker(
      newRunMarker({
        place: { repository: "octo-org/widgets", thread: 1 },
        runId: 4242,
        orgId: 1,
        sourceType: "GIT_HOST",
        requestId: "task-4242",
      }),
    );
    const { patterns } = compileRedactPatterns(["4242"]);
    const body = `${marker}\nRun 4242 done, ${TOKENS.ghp}`;
    const redacted = createRedactor({ patterns }).redact(body);
    expect(redacted).toBe(`${marker}\nRun [redacted by an operator pattern] done, [redacted GitHub token]`);
    expect(parseMarker(redacted)?.runId).toBe(4242);
  });

  it("is idempotent: labels are never matched again", () => {
    const once = createRedactor({ secrets: [{ value: "redacted", label: "word" }] }).redact(`${TOKENS.ghp} ${JWT}`);
    expect(redactor.redact(once)).toBe(once);
  });
});

describe("createRedactor: known secrets", () => {
  const apiToken = "sk-live_0123456789abcdef";
  const webhookSecret = "hook<&>secret";
  const redactor = createRedactor({
    secrets: [
      { value: apiToken, label: "API token" },
      { value: webhookSecret, label: "webhook secret" },
      { value: "abc", label: "too short to look for" },
    ],
  });

  it("replaces them as written, HTML-escaped (prose), JSON-escaped (logs) and entity-escaped (code)", () => {
    expect(redactor.redact(`token ${apiToken}!`)).toBe("token [redacted API token]!");
    expect(redactor.redact(sanitizeMarkdown(`the secret is ${webhookSecret}`))).toBe("the secret is [redacted webhook secret]");
    expect(redactor.redact(JSON.stringify({ msg: `x ${webhookSecret}` }))).toBe('{"msg":"x [redacted webhook secret]"}');
    expect(redactor.redact(inlineCode(`a | ${webhookSecret}`))).toBe("<code>a &#124; [redacted webhook secret]</code>");
    expect(redactor.redact("abc abc")).toBe("abc abc");
  });

  it("redacts the start of one cut to fit", () => {
    expect(redactor.redact(`x ${truncateText(apiToken, 10)}`)).toBe("x [redacted API token]…");
  });
});

describe("operator patterns", () => {
  it("are compiled, applied with their own label, and (?i) makes one case-insensitive", () => {
    const { patterns, errors } = compileRedactPatterns(splitRedactPatterns("\n  INTERNAL-[0-9]{4}  \n(?i)project falcon\n"));
    expect(errors).toEqual([]);
    expect(createRedactor({ patterns }).redact("INTERNAL-1234 is Project FALCON")).toBe(
      "[redacted by an operator pattern] is [redacted by an operator pattern]",
    );
  });

  it("report every bad pattern by its line, with the reason, never quoting it: invalid, or matching the empty string", () => {
    const { patterns, errors } = compileRedactPatterns(["ok-[0-9]+", "(unclosed", "a*", "^"]);
    expect(patterns).toHaveLength(1);
    expect(errors).toEqual([
      "line 2 is not a valid regular expression (Unterminated group)",
      "line 3 matches the empty string; make it match at least one character",
      "line 4 matches the empty string; make it match at least one character",
    ]);
  });
});

describe("hostile input stays linear", () => {
  it("many cut-looking or credential-looking fragments without an end", () => {
    const redactor = createRedactor({ secrets: [{ value: "s".repeat(64), label: "API token" }] });
    const text = [
      "https://a:".repeat(20_000),
      "-----BEGIN PRIVATE KEY-----".repeat(5_000),
      "ghp_".repeat(20_000),
      "s".repeat(63).repeat(500),
      "eyJa.".repeat(20_000),
    ].join("\n");
    const started = performance.now();
    redactor.redact(text);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("redactToFit: redact, then judge the length", () => {
  const redactor = createRedactor();
  const redact = (text: string) => redactor.redact(text);

  it("renders a body again with less room when the labels made it too long", () => {
    const keys = (count: number) => Array.from({ length: count }, (_, i) => `AKIA${String(i).padStart(16, "0")}`).join(" ");
    const renders: number[] = [];
    // A rendering that shows as many keys as fit its room, like the result comment's blocks.
    const body = (room: number) => {
      renders.push(room);
      return keys(Math.floor(room / 21));
    };
    const fitted = redactToFit(body, redact, 10_000);
    expect(fitted.length).toBeLessThanOrEqual(10_000);
    expect(fitted.length).toBeGreaterThan(9_000);
    expect(fitted).not.toMatch(/AKIA\d/);
    expect(renders.length).toBeLessThanOrEqual(7);
  });

  it("cuts text that cannot render again at the end, by characters or by bytes", () => {
    expect(redactToFit("a".repeat(20), redact, 10)).toBe(`${"a".repeat(9)}…`);
    const bytes = (text: string) => Buffer.byteLength(text, "utf8");
    const cut = redactToFit("é".repeat(20), redact, 10, bytes);
    expect(bytes(cut)).toBeLessThanOrEqual(10);
    expect(cut.endsWith("…")).toBe(true);
    expect(redactToFit("abc", redact, 2, bytes)).toBe("");
  });
});

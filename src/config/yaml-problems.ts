/**
 * A YAML syntax error, said without the file's text: the parser's own message may quote the line
 * it stopped at (an alias, a tag, a scalar), and a configuration file's line can hold a value that
 * must not reach a public thread or log. The line, the column and what kind of mistake it is are
 * enough to find it.
 */

/** The parser's error codes (yaml's `ErrorCode`), each as a short phrase. */
const YAML_MISTAKES: Readonly<Record<string, string>> = {
  ALIAS_PROPS: "an alias cannot have an anchor or a tag",
  BAD_ALIAS: "an alias that names no anchor",
  BAD_DIRECTIVE: "an unknown directive",
  BAD_DQ_ESCAPE: "an invalid escape in a double-quoted string",
  BAD_INDENT: "wrong indentation",
  BAD_PROP_ORDER: "an anchor or tag in the wrong place",
  BAD_SCALAR_START: "a value that cannot start with this character (quote it)",
  BLOCK_AS_IMPLICIT_KEY: "a block value used as a key",
  BLOCK_IN_FLOW: "a block value inside brackets or braces",
  DUPLICATE_KEY: "a key written twice in the same mapping",
  IMPOSSIBLE: "an impossible structure",
  KEY_OVER_1024_CHARS: "a key longer than 1024 characters",
  MISSING_CHAR: "a missing closing bracket, brace or quote",
  MULTILINE_IMPLICIT_KEY: "a key spanning several lines",
  MULTIPLE_ANCHORS: "several anchors on one value",
  MULTIPLE_DOCS: "more than one document (one `---` section only)",
  MULTIPLE_TAGS: "several tags on one value",
  NON_STRING_KEY: "a key that is not a string",
  RESOURCE_EXHAUSTION: "aliases that expand too far",
  TAB_AS_INDENT: "a tab used for indentation (use spaces)",
  TAG_RESOLVE_FAILED: "a tag that cannot be read",
  UNEXPECTED_TOKEN: "an unexpected character",
  BAD_COLLECTION_TYPE: "a tag that does not fit its value",
};

interface YamlErrorShape {
  code?: unknown;
  linePos?: ReadonlyArray<{ line: number; col: number }>;
}

/** Where in `file` the YAML is broken and what kind of mistake it is, e.g. "`.github/agent-run.yml` line 3, column 7: not valid YAML (wrong indentation)". */
function describeYamlProblem(error: unknown, file: string): string {
  const shape = (error !== null && typeof error === "object" ? error : {}) as YamlErrorShape;
  const position = shape.linePos?.[0];
  const where = position ? `${file} line ${position.line}, column ${position.col}` : file;
  // An alias naming no anchor is found after parsing, as a ReferenceError without a code.
  const code = typeof shape.code === "string" ? shape.code : error instanceof ReferenceError ? "BAD_ALIAS" : undefined;
  const mistake = code === undefined ? undefined : YAML_MISTAKES[code];
  return `${where}: not valid YAML${mistake ? ` (${mistake})` : ""}`;
}

/** yaml's `parseDocument`, handed in: the Action loads the parser only when there is a file to read. */
export type ParseYamlDocument = typeof import("yaml").parseDocument;

/**
 * A configuration file's YAML as a value, or where and what is wrong with it. A warning (an unknown
 * tag) counts as a mistake: yaml's `parse` would write it, with the line quoted, to the process's
 * warnings (stderr, a public job log in the Action), past every redaction.
 */
export function readConfigYaml(
  parseDocument: ParseYamlDocument,
  text: string,
  file: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  const doc = parseDocument(text);
  const mistake = doc.errors[0] ?? doc.warnings[0];
  if (mistake) return { ok: false, problem: describeYamlProblem(mistake, file) };
  try {
    return { ok: true, value: doc.toJS() };
  } catch (error) {
    // An alias naming no anchor, or aliases expanding too far, are found while building the value.
    return { ok: false, problem: describeYamlProblem(error, file) };
  }
}

/**
 * Compile hints for the Action's start path: V8 compiles a function lazily (a pre-parse when its
 * file loads, then a full parse and bytecode on the first call), except a function expression in
 * parentheses, which it compiles with the file. A function the start is sure to call thus costs one
 * parse instead of two. Written in parentheses, the functions a start calls before its create
 * request (scripts/compile-hints.json, listed by `npx tsx bench/compile-hints.ts`) take about 8%
 * fewer instructions to get there (`npx tsx bench/cold-start.ts --compare <ref> --instructions`);
 * parenthesising every function instead costs more than it saves, most of the loaded code being
 * never called by a start.
 *
 * A hint names a function by where it starts in the sources (`path:line:column`, through the
 * bundle's source map), so it follows the function through unrelated edits and rebuilds; a stale
 * one matches nothing and costs nothing. What the bundle does is unchanged:
 *   - a function expression or a (non-async) arrow function is put in parentheses;
 *   - a function declaration at the top of a file becomes `var f=(function f(){…});`, unless code
 *     that runs while the file loads, before the declaration, may reach it (a `var` is not hoisted
 *     with its value): see `declarationsSafeToMove`.
 * The source map is shifted to match, so stack traces and the benchmark's profile still read as source.
 */
import { SourceMap } from "node:module";
import { decode, encode } from "@jridgewell/sourcemap-codec";
import * as acorn from "acorn";

/** Every function node in `program` that a hint can apply to, with whether it is a top-level declaration. */
export function hintableFunctions(program) {
  const found = [];
  const topLevel = new Set(program.body.filter((node) => node.type === "FunctionDeclaration"));
  // A method's, getter's or setter's function is written without the word `function`: no parentheses can go around it.
  const methods = new Set();
  walk(program, (node) => {
    if (node.type === "MethodDefinition" || (node.type === "Property" && (node.method || node.kind !== "init"))) methods.add(node.value);
    if (node.type === "FunctionDeclaration" && topLevel.has(node) && !node.generator) found.push({ node, declaration: true });
    // V8 compiles `(function …)`, `(async function …)` and `(() => …)` with the file, not `(async () => …)`.
    else if (
      (node.type === "FunctionExpression" && !node.generator && !methods.has(node)) ||
      (node.type === "ArrowFunctionExpression" && !node.async)
    )
      found.push({ node, declaration: false });
  });
  return found.sort((a, b) => a.node.start - b.node.start);
}

/** Calls `visit` on every node below `root`, each before its children (acorn's nodes: any object with a `type`). */
export function walk(root, visit) {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    visit(node);
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === "string") stack.push(child);
      if (value && typeof value.type === "string") stack.push(value);
    }
  }
}

export function parseModule(code) {
  return acorn.parse(code, { ecmaVersion: "latest", sourceType: "module" });
}

/** `offset` in `code` as a 0-based line and column. */
function positionFinder(code) {
  const lineStarts = [0];
  for (let i = code.indexOf("\n"); i !== -1; i = code.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, column: offset - lineStarts[low] };
  };
}

/** Where the code at `offset` comes from, as `path:line:column` (1-based, the path without the map's `../`); null where nothing maps. */
export function sourceKeys(code, map) {
  const sourceMap = new SourceMap(map);
  const positionOf = positionFinder(code);
  return (offset) => {
    const { line, column } = positionOf(offset);
    const entry = sourceMap.findEntry(line, column);
    if (!entry || entry.originalSource === undefined) return null;
    return `${entry.originalSource.replace(/^(\.\.\/)+/, "")}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  };
}

/** The names a subtree reads (every identifier: a conservative over-estimate of what it may call). */
function namesIn(node, into = new Set()) {
  walk(node, (current) => {
    if (current.type === "Identifier") into.add(current.name);
  });
  return into;
}

/**
 * The top-level declarations of `names` that may become `var`s: none that a statement running while
 * the file loads, before the declaration, names or reaches through the functions it names (any
 * function it names may be called then), and none whose name is assigned anywhere (inside its own body
 * the name of a function expression cannot be). Declarations and imports run nothing; `export {…}` only binds.
 */
function declarationsSafeToMove(program, names) {
  const reads = new Map();
  for (const node of program.body) {
    if (node.type === "FunctionDeclaration") reads.set(node.id.name, namesIn(node.body, namesIn({ type: "Params", params: node.params })));
  }
  // For each name, the index of the first statement that may reach it while the file loads.
  const firstReached = new Map();
  program.body.forEach((statement, index) => {
    if (statement.type === "FunctionDeclaration" || statement.type === "ImportDeclaration") return;
    if (statement.type === "ExportNamedDeclaration" && !statement.declaration) return;
    const pending = [...namesIn(statement)];
    while (pending.length > 0) {
      const name = pending.pop();
      if (firstReached.has(name)) continue;
      firstReached.set(name, index);
      for (const next of reads.get(name) ?? []) pending.push(next);
    }
  });
  const indexOf = new Map(program.body.map((node, index) => [node.type === "FunctionDeclaration" ? node.id.name : null, index]));
  const assigned = assignedNames(program);
  return new Set(
    [...names].filter((name) => reads.has(name) && !assigned.has(name) && !((firstReached.get(name) ?? Infinity) < indexOf.get(name))),
  );
}

/** Every name an assignment, an update or a `for … in/of` may write to (the whole pattern's names, keys included). */
function assignedNames(program) {
  const assigned = new Set();
  walk(program, (node) => {
    const target =
      node.type === "AssignmentExpression" || node.type === "ForInStatement" || node.type === "ForOfStatement"
        ? node.left
        : node.type === "UpdateExpression"
          ? node.argument
          : null;
    // `a.b = …` writes a property, not a name.
    if (target && target.type !== "MemberExpression") namesIn(target, assigned);
  });
  return assigned;
}

/**
 * `code` (one bundle file) and its source map with the functions that `hints` name put in
 * parentheses; `movable` says whether this file's declarations may become `var`s (not in a file on an
 * import cycle, which may be called before it has run). Returns the new code and map, and counts.
 */
export function applyCompileHints(code, map, hints, { movable = true } = {}) {
  const program = parseModule(code);
  const keyAt = sourceKeys(code, map);
  const chosen = hintableFunctions(program).filter(({ node }) => hints.has(keyAt(node.start)));
  const declarationNames = movable ? chosen.filter((c) => c.declaration).map((c) => c.node.id.name) : [];
  const safe = declarationsSafeToMove(program, declarationNames);
  const insertions = [];
  let expressions = 0;
  let declarations = 0;
  for (const { node, declaration } of chosen) {
    if (declaration) {
      if (!safe.has(node.id.name)) continue;
      insertions.push({ at: node.start, text: `var ${node.id.name}=(` }, { at: node.end, text: ");" });
      declarations++;
    } else if (!(code[node.start - 1] === "(" && code[node.end] === ")")) {
      insertions.push({ at: node.start, text: "(" }, { at: node.end, text: ")" });
      expressions++;
    }
  }
  // At one offset a closing text goes before an opening one (the end of a function, then the start of the next).
  insertions.sort((a, b) => a.at - b.at || closing(b) - closing(a));
  let out = "";
  let from = 0;
  for (const { at, text } of insertions) {
    out += code.slice(from, at) + text;
    from = at;
  }
  out += code.slice(from);
  return { code: out, map: shiftedMap(code, map, insertions), expressions, declarations };
}

const closing = (insertion) => (insertion.text.startsWith(")") ? 1 : 0);

/** The map with each generated column moved by the text inserted at or before it on its line. */
function shiftedMap(code, map, insertions) {
  if (insertions.length === 0) return map;
  const positionOf = positionFinder(code);
  const byLine = new Map();
  for (const { at, text } of insertions) {
    const { line, column } = positionOf(at);
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push({ column, length: text.length });
  }
  const lines = decode(map.mappings);
  for (const [line, shifts] of byLine) {
    const segments = lines[line] ?? [];
    let s = 0;
    let moved = 0;
    for (const segment of segments) {
      while (s < shifts.length && shifts[s].column <= segment[0]) moved += shifts[s++].length;
      segment[0] += moved;
    }
  }
  return { ...map, mappings: encode(lines) };
}

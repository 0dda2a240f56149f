/**
 * No import cycles in src/: two files that import each other (type-only imports count, they tie
 * the two files' meanings together) are one knot a reader must untie at once. The walk reads the
 * relative imports of every .ts file (as the shared import-cycles tool does) and lists the
 * strongly connected components with more than one file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SRC, importsOf, tsFiles } from "./imports.js";

/** The import cycles under `root`, each as its files relative to `root`, sorted (Tarjan's strongly connected components). */
function importCycles(root: string): string[][] {
  const files = tsFiles(root);
  const edges = new Map(files.map((file) => [file, importsOf(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.map((f) => relative(root, f)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe("import cycles", () => {
  const scratch = mkdtempSync(join(tmpdir(), "import-cycles-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("the walk finds a cycle through a type-only import and an index.ts", () => {
    mkdirSync(join(scratch, "flows"));
    writeFileSync(join(scratch, "a.ts"), 'import type { B } from "./flows/index.js";\nexport type A = B;\n');
    writeFileSync(join(scratch, "flows/index.ts"), 'export { b } from "./b.js";\nexport type B = number;\n');
    writeFileSync(join(scratch, "flows/b.ts"), 'import type { A } from "../a.js";\nexport const b: A = 1;\n');
    writeFileSync(join(scratch, "c.ts"), 'import { b } from "./flows/b.js";\nexport const c = b;\n');
    expect(importCycles(scratch)).toEqual([["a.ts", "flows/b.ts", "flows/index.ts"]]);
  });

  it("src/ has none", () => {
    expect(importCycles(SRC)).toEqual([]);
  });
});

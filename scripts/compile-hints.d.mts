/** Types of compile-hints.mjs (a build script in plain JavaScript, which the benchmark and the tests also use). */
import type { Program, Node } from "acorn";

export interface HintableFunction {
  node: Node & { start: number; end: number; id?: { name: string } | null };
  /** A function declaration at the top of the file (it would become a `var`). */
  declaration: boolean;
}
export function parseModule(code: string): Program;
export function hintableFunctions(program: Program): HintableFunction[];
export function sourceKeys(code: string, map: object): (offset: number) => string | null;
export function applyCompileHints(
  code: string,
  map: { mappings: string },
  hints: ReadonlySet<string>,
  options?: { movable?: boolean },
): { code: string; map: { mappings: string }; expressions: number; declarations: number };

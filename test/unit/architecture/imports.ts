/**
 * The relative imports of src/'s .ts files, read as text (as the shared import-cycles tool reads them):
 * type-only imports count, an import of a folder's index.js is its index.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../../src");
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/g;

export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

export function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    let target = resolve(dirname(file), match[1]!).replace(/\.js$/, ".ts");
    if (!existsSync(target) && existsSync(target.replace(/\.ts$/, "/index.ts"))) target = target.replace(/\.ts$/, "/index.ts");
    if (existsSync(target)) found.push(target);
  }
  return found;
}

/** Static, type-only, re-exported and dynamic imports of packages and built-ins (`node:fs`, `zod/mini`), as written (src/ is ESM: no require). */
const BARE_IMPORT = /(?:(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?|import\s*\(\s*)["']([^."'][^"']*)["']/g;

export function bareImportsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(BARE_IMPORT)].map((match) => match[1]!);
}

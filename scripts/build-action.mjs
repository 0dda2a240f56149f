#!/usr/bin/env node
/**
 * Bundles the GitHub Action (src/action/index.ts) into ONE file, dist/index.js, that a runner
 * starts with `node24` and nothing installed: ESM, every dependency inlined, no minification, no
 * source map (the output would otherwise carry absolute paths of this machine). The build is
 * deterministic, so a test can rebuild into a temporary directory and compare bytes with dist/.
 *
 *   node scripts/build-action.mjs            → dist/index.js, dist/package.json
 *   node scripts/build-action.mjs --out DIR  → the same files under DIR (dist/ untouched)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const ENTRY = "src/action/index.ts";

/**
 * Some dependencies (the `tunnel` proxy helper inside @actions/http-client) call `require` for
 * Node built-ins; an ESM bundle has no `require` of its own without this.
 */
const BANNER = [
  'import { createRequire as __bundleCreateRequire } from "node:module";',
  "const require = __bundleCreateRequire(import.meta.url);",
].join("\n");

/** Packages that must never end up in the action: native addons and the App's server stack. */
const FORBIDDEN = /node_modules[\\/](better-sqlite3|ioredis|probot|fastify|pino|commander|bindings)[\\/]/;

/** `{"type":"module"}` beside the bundle: it stays ESM wherever the folder is copied. */
const DIST_PACKAGE_JSON = `${JSON.stringify({ type: "module" }, null, 2)}\n`;

export async function buildAction(outDir = join(ROOT, "dist")) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: join(outDir, "index.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    banner: { js: BANNER },
    minify: false,
    sourcemap: false,
    legalComments: "eof",
    charset: "utf8",
    // Module paths stay as written (a symlinked node_modules, e.g. in a temporary worktree, builds the same bytes).
    preserveSymlinks: true,
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const inputs = Object.keys(result.metafile.inputs);
  const forbidden = inputs.filter((path) => FORBIDDEN.test(path));
  if (forbidden.length > 0) {
    throw new Error(`The action bundle must not include ${[...new Set(forbidden.map((p) => FORBIDDEN.exec(p)[1]))].join(", ")} (pulled in via ${forbidden[0]}). Import only what the action needs.`);
  }
  const [output] = result.outputFiles;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(output.path, output.contents);
  writeFileSync(join(outDir, "package.json"), DIST_PACKAGE_JSON);
  return { file: output.path, bytes: output.contents.length, inputs: inputs.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outFlag = process.argv.indexOf("--out");
  const outDir = outFlag === -1 ? join(ROOT, "dist") : resolve(process.argv[outFlag + 1] ?? "");
  const { file, bytes, inputs } = await buildAction(outDir);
  console.log(`${relative(process.cwd(), file) || file}: ${(bytes / 1024).toFixed(0)} KiB from ${inputs} modules`);
}

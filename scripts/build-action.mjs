#!/usr/bin/env node
/**
 * Bundles the GitHub Action (src/action/index.ts) into dist/, which a runner starts with `node24`
 * and nothing installed: ESM, every dependency inlined, minified (V8 compiles the entry before the
 * first request, and the minified entry reaches it about 5 ms sooner: `npx tsx bench/cold-start.ts`).
 * Each file has a source map beside it, without the sources' text and with paths relative to dist/
 * (`../src/…`, `../node_modules/…`), so it carries nothing of this machine: stack traces read as
 * source with `NODE_OPTIONS=--enable-source-maps`, and the benchmark's CPU profile is split by
 * package through it. The build is deterministic, so a test can rebuild into a temporary
 * directory and compare bytes with dist/.
 *
 * A runner pays for every byte and every file it loads before the first request, so the bundle is
 * split: dist/index.js holds what every step runs, and what only some steps need is a chunk loaded
 * by `import()` when asked for (what follows the create). The builds, one per process or per
 * library loaded whole on its own, share no chunk (esbuild splits a build's modules into a chunk
 * per set of entries that reach them, so every entry more can add files to the start path):
 * - the main step (index.js and its chunks);
 * - the post step (post.js and its chunks): a process of its own, so a copy of what it shares with
 *   the main step costs nothing but bytes, where one build cost every main step two more files;
 * - two libraries that share no state with the steps, each one file loaded whole when asked for:
 *   the proxy client (proxy-client.js: @actions/github with undici, for a runner with a proxy) and
 *   the YAML parser (yaml-parser.js, for a repository with a configuration file).
 * Chunk names carry a content hash; stale ones are removed.
 * The functions a start calls before its create request are then written in parentheses, which V8
 * compiles with their file instead of parsing them twice (compile-hints.mjs: about 8% fewer
 * instructions to the create; the list is scripts/compile-hints.json, from bench/compile-hints.ts).
 *
 *   node scripts/build-action.mjs            → dist/index.js, dist/post.js, their chunks, the libraries' files, the maps, dist/package.json
 *   node scripts/build-action.mjs --out DIR  → the same files under DIR (dist/ untouched)
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isBuiltin } from "node:module";
import { build } from "esbuild";
import { applyCompileHints, parseModule, walk } from "./compile-hints.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = "src/action/index.ts";
/** The post step's entry (action.yml `runs.post`): dist/post.js, built on its own. */
const POST_ENTRY = "src/action/post.ts";
/**
 * The libraries built apart, each into one file of dist/ named as its entry, that `importer` loads
 * with `import("./<name>.js")` (left as written: it is found beside the steps' files). `require`:
 * whether its dependencies call `require` for Node built-ins (REQUIRE_BANNER).
 */
const APART = [
  { entry: "src/action/proxy-client.ts", importer: "src/action/octokit.ts", require: true },
  { entry: "src/action/yaml-parser.ts", importer: "src/action/config-yaml.ts", require: false },
].map((lib) => ({ ...lib, specifier: `./${lib.entry.split("/").pop().replace(/\.ts$/, ".js")}` }));
const DIST = join(ROOT, "dist");
/** The functions a start calls before its create request, by source position (compile-hints.mjs; listed by bench/compile-hints.ts). */
const COMPILE_HINTS = join(ROOT, "scripts", "compile-hints.json");

/**
 * The proxy client's dependencies (the `tunnel` helper inside @actions/http-client, undici) call
 * `require` for Node built-ins; an ESM file has no `require` of its own without this. The steps'
 * builds need none (builtinRequires, checked by requireFreeOutputs), so their files neither import
 * node:module nor make a `require` each before the create (about 0.8% of a start's instructions).
 */
const REQUIRE_BANNER = [
  'import { createRequire as __bundleCreateRequire } from "node:module";',
  "const require = __bundleCreateRequire(import.meta.url);",
].join("\n");

/** Packages that must never end up in the action: native addons and the App's server stack. */
const FORBIDDEN = /node_modules[\\/](better-sqlite3|ioredis|probot|fastify|pino|commander|bindings)[\\/]/;

/**
 * @actions/core imports @actions/http-client (and so undici) for OIDC tokens, which the Action never
 * asks for. These packages do nothing when merely imported, so they may be left out of a chunk that
 * uses none of their exports: esbuild cannot know that without being told.
 */
const SIDE_EFFECT_FREE = /^(@actions\/http-client|undici)$/;
/**
 * @actions/core's job summary and platform details read node:fs/promises when they load (the latter
 * through @actions/exec and @actions/io), and run programs: the Action writes the summary itself
 * (action/door.ts) and asks nothing of the platform, so both are dropped when nothing uses them.
 */
const CORE_UNUSED = /^\.\/(summary|platform)\.js$/;
const isCore = (importer) => /[\\/]@actions[\\/]core[\\/]/.test(importer);
const sideEffectFree = {
  name: "side-effect-free",
  setup(build) {
    build.onResolve({ filter: SIDE_EFFECT_FREE }, (args) => withoutSideEffects(build, args));
    build.onResolve({ filter: CORE_UNUSED }, (args) => (isCore(args.importer) ? withoutSideEffects(build, args) : undefined));
  },
};

async function withoutSideEffects(build, args) {
  if (args.pluginData === "side-effect-free") return undefined;
  const resolved = await build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    pluginData: "side-effect-free",
  });
  return resolved.errors.length > 0
    ? { errors: resolved.errors }
    : { path: resolved.path, external: resolved.external, sideEffects: false };
}

/**
 * @actions/core imports node:crypto for one `randomUUID()` when it writes an output; the import alone
 * loads the whole module before the first request. Its import is pointed at a stand-in that
 * requires node:crypto on that first call (src/action/lazy-crypto.ts).
 */
const LAZY_CRYPTO = join(ROOT, "src", "action", "lazy-crypto.ts");
const lazyCrypto = {
  name: "lazy-crypto",
  setup(build) {
    build.onResolve({ filter: /^(node:)?crypto$/ }, (args) =>
      /[\\/]@actions[\\/]core[\\/]/.test(args.importer) ? { path: LAZY_CRYPTO } : undefined,
    );
  },
};

/**
 * An ESM `import` of a Node built-in goes through a facade that reads every export of the module,
 * getters included: node:fs's `promises` getter loads node:fs/promises and the readline it needs,
 * about 2 ms of a runner's start before the first request for nothing the step uses. Each static
 * import of a built-in is pointed at a module that takes the built-in from `process.getBuiltinModule`
 * and hands on the names the bundle imports (listed here, so that the bundle does not depend on the
 * Node that built it: a name missing from the list fails the build), each read only where it is used.
 * The start path's four built-ins only; a `require` of a built-in stays the bundle's `require`.
 */
const WITHOUT_FACADE = {
  // `constants` and `promises` only for the modules left out above (esbuild links them before it drops them).
  fs: ["appendFileSync", "constants", "existsSync", "promises", "readFileSync"],
  os: ["EOL"],
  path: ["isAbsolute", "resolve"],
  module: ["createRequire"],
};
const builtinsWithoutFacade = {
  name: "builtins-without-facade",
  setup(build) {
    build.onResolve({ filter: /^(node:)?(fs|os|path|module)$/ }, (args) =>
      args.kind === "import-statement" ? { path: args.path.replace(/^node:/, ""), namespace: "builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: [
        `const builtin = /* @__PURE__ */ process.getBuiltinModule("node:${args.path}");`,
        "const pick = (name) => builtin[name];",
        "export default builtin;",
        ...WITHOUT_FACADE[args.path].map((name) => `export const ${name} = /* @__PURE__ */ pick(${JSON.stringify(name)});`),
      ].join("\n"),
      loader: "js",
    }));
  },
};

/**
 * p-retry times its attempts with the global `performance`, whose first read loads node:perf_hooks
 * (with its histograms and observers) before the create request, about 1% of the instructions a
 * start runs to it (bench/cold-start.ts --instructions). In p-retry alone, `performance` is a
 * binding of the same monotonic clock in milliseconds, read from `process.hrtime`, which Node
 * has loaded already; the rest of the bundle keeps the global.
 */
const P_RETRY = /[\\/]node_modules[\\/]p-retry[\\/]index\.js$/;
const MONOTONIC_CLOCK = "const performance = { now: () => Number(process.hrtime.bigint()) / 1e6 };";
const pRetryClock = {
  name: "p-retry-clock",
  setup(build) {
    build.onLoad({ filter: P_RETRY }, (args) => {
      const source = readFileSync(args.path, "utf8");
      // A p-retry that no longer reads `performance` (or already binds it) needs no clock.
      if (!/\bperformance\.now\(\)/.test(source) || /\b(const|let|var|function)\s+performance\b/.test(source))
        throw new Error(`${args.path} no longer reads the global performance as the build expects: review the p-retry-clock plugin`);
      // At the end, so that the source map's lines stay p-retry's own (its functions read the binding only when called).
      return { contents: `${source}\n${MONOTONIC_CLOCK}\n`, loader: "js" };
    });
  },
};

/** `{"type":"module"}` beside the bundle: it stays ESM wherever the folder is copied. */
const DIST_PACKAGE_JSON = `${JSON.stringify({ type: "module" }, null, 2)}\n`;

/**
 * A bundled CommonJS module's `require` of a Node built-in in the steps' builds (the YAML parser's
 * node:process and node:buffer): the built-in from `process.getBuiltinModule`, where esbuild would
 * call the file's `require`, which the steps' files do not make.
 */
const builtinRequires = {
  name: "builtin-requires",
  setup(build) {
    build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      args.kind === "require-call" && isBuiltin(args.path)
        ? { path: args.path.replace(/^node:/, ""), namespace: "builtin-require" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => ({
      contents: `module.exports = process.getBuiltinModule("node:${args.path}");`,
      loader: "js",
    }));
  },
};

/** The steps import each library built apart as a file of its own (APART). */
const librariesApart = {
  name: "libraries-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
      APART.some((lib) => lib.specifier === args.path && join(ROOT, lib.importer) === args.importer)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/**
 * One build: a step's (`splitting`: its `import()`s load chunks), or a library's (one file, with the
 * `require` its dependencies call when `require` is set; the rest have none).
 */
function bundle(entryPoint, { splitting, require }) {
  return build({
    absWorkingDir: ROOT,
    entryPoints: [entryPoint],
    // Always laid out as dist/ (nothing is written by esbuild): the maps' relative paths, and so the
    // chunks' hashes, are the same whichever folder the files are then written to.
    outdir: DIST,
    entryNames: "[name]",
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting,
    platform: "node",
    format: "esm",
    target: "node24",
    ...(require ? { banner: { js: REQUIRE_BANNER } } : {}),
    minify: true,
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "eof",
    charset: "utf8",
    // Module paths stay as written (a symlinked node_modules, e.g. in a temporary worktree, builds the same bytes).
    preserveSymlinks: true,
    metafile: true,
    write: false,
    logLevel: "warning",
    plugins: [librariesApart, ...(require ? [] : [builtinRequires]), sideEffectFree, lazyCrypto, builtinsWithoutFacade, pRetryClock],
  });
}

async function buildAction(outDir = DIST) {
  const specs = [
    { entry: ENTRY, splitting: true, require: false },
    { entry: POST_ENTRY, splitting: true, require: false },
    ...APART.map((lib) => ({ entry: lib.entry, splitting: false, require: lib.require })),
  ];
  const builds = await Promise.all(specs.map((spec) => bundle(spec.entry, spec)));
  requireFreeOutputs(builds.filter((_, index) => !specs[index].require).flatMap((result) => result.outputFiles));
  const inputs = [...new Set(builds.flatMap((result) => Object.keys(result.metafile.inputs)))];
  const forbidden = inputs.filter((path) => FORBIDDEN.test(path));
  if (forbidden.length > 0) {
    throw new Error(
      `The action bundle must not include ${[...new Set(forbidden.map((p) => FORBIDDEN.exec(p)[1]))].join(", ")} (pulled in via ${forbidden[0]}). Import only what the action needs.`,
    );
  }
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir).filter((name) => name.endsWith(".js") || name.endsWith(".js.map"))) rmSync(join(outDir, stale));
  const written = withCompileHints(mergedOutputs(builds)).map((output) => ({
    path: join(outDir, relative(DIST, output.path)),
    contents: output.contents,
  }));
  for (const output of written) writeFileSync(output.path, output.contents);
  writeFileSync(join(outDir, "package.json"), DIST_PACKAGE_JSON);
  const entry = written.find((output) => output.path === join(outDir, "index.js"));
  const chunks = written.filter((output) => output.path.endsWith(".js")).length - 2;
  return { file: entry.path, bytes: entry.contents.length, chunks, inputs: inputs.length };
}

/** The files built without REQUIRE_BANNER run no `require`: a build error names a file that would. */
function requireFreeOutputs(outputFiles) {
  for (const output of outputFiles.filter((file) => file.path.endsWith(".js"))) {
    if (readsRequire(parseModule(output.text)))
      throw new Error(
        `${relative(DIST, output.path)} calls \`require\`, which it does not declare: point that import at a bundled module (see builtinRequires)`,
      );
  }
}

/** Whether the program reads a variable named `require` (not a property or a key of that name). */
function readsRequire(program) {
  const names = new Set();
  let reads = false;
  walk(program, (node) => {
    // A parent is visited before its children: its property or key is set aside first.
    if ((node.type === "MemberExpression" || node.type === "Property") && !node.computed) names.add(node.property ?? node.key);
    if (node.type === "Identifier" && node.name === "require" && !names.has(node)) reads = true;
  });
  return reads;
}

/**
 * The builds' files. Two builds can write the same chunk (esbuild's runtime helpers, say): its
 * name is its content's hash, so it is written once; the same name with other bytes is a build error.
 */
function mergedOutputs(builds) {
  const byPath = new Map();
  for (const output of builds.flatMap((result) => result.outputFiles)) {
    const same = byPath.get(output.path);
    if (same && Buffer.compare(same.contents, output.contents) !== 0)
      throw new Error(`Two builds wrote ${relative(DIST, output.path)} with different contents`);
    byPath.set(output.path, output);
  }
  return [...byPath.values()];
}

/**
 * The output files with the start path's functions in parentheses (compile-hints.mjs), each map
 * shifted to match. A file on a cycle of static imports keeps its declarations hoisted: the file
 * it imports from may call them before it has run.
 */
function withCompileHints(outputFiles) {
  const hints = new Set(JSON.parse(readFileSync(COMPILE_HINTS, "utf8")));
  const byPath = new Map(outputFiles.map((output) => [output.path, output]));
  const staticImports = (output) =>
    [...output.text.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^"'();]*?from\s*)?"(\.\/[^"]+\.js)"/g)].map((m) =>
      join(dirname(output.path), m[1]),
    );
  const onCycle = (start) => {
    const seen = new Set();
    const pending = staticImports(byPath.get(start));
    while (pending.length > 0) {
      const next = pending.pop();
      if (next === start) return true;
      if (seen.has(next) || !byPath.has(next)) continue;
      seen.add(next);
      pending.push(...staticImports(byPath.get(next)));
    }
    return false;
  };
  const out = new Map(outputFiles.map((output) => [output.path, output.contents]));
  for (const output of outputFiles) {
    if (!output.path.endsWith(".js") || !byPath.has(`${output.path}.map`)) continue;
    const mapText = byPath.get(`${output.path}.map`).text;
    const hinted = applyCompileHints(output.text, JSON.parse(mapText), hints, { movable: !onCycle(output.path) });
    if (hinted.expressions + hinted.declarations === 0) continue;
    out.set(output.path, Buffer.from(hinted.code));
    // Only the mappings change: the rest of the map stays as esbuild laid it out.
    out.set(
      `${output.path}.map`,
      Buffer.from(mapText.replace(/"mappings": "[^"]*"/, () => `"mappings": ${JSON.stringify(hinted.map.mappings)}`)),
    );
  }
  return outputFiles.map((output) => ({ path: output.path, contents: out.get(output.path) }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outFlag = process.argv.indexOf("--out");
  const outDir = outFlag === -1 ? join(ROOT, "dist") : resolve(process.argv[outFlag + 1] ?? "");
  const { file, bytes, chunks, inputs } = await buildAction(outDir);
  console.log(
    `${relative(process.cwd(), file) || file}: ${(bytes / 1024).toFixed(0)} KiB, ${chunks} more chunk(s), from ${inputs} modules`,
  );
}

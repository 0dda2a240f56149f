import type { KnipConfig } from "knip";

/**
 * Dead code fails `npm test` (`npm run lint:dead`), in two passes:
 * - `knip`: the whole repository, tests included. Finds files nothing loads, exports nothing imports (a symbol used
 *   only in its own file is not exported), dependencies nothing uses and programs run from the PATH undeclared.
 * - `knip --production`: the same without the tests (the `!` patterns are production: src/, bench/, demo/,
 *   scripts/). Finds what only tests use: code production never reaches. An export that production uses in its
 *   own file and a test imports too (a limit a test sizes its input by, a step a unit test checks alone) is not
 *   dead, so this pass ignores exports used in their own file.
 * The exports of entry files are not checked: src/index.ts and src/emulator/index.ts are the package's public API
 * (with all they re-export), and a benchmark or script exports what another one or a test imports.
 */
export default ({ production }: { production?: boolean }): KnipConfig => ({
  entry: [
    // The package: its exports (lib/ is built from src/) and the CLI run from source (bin/agent-run.js runs lib/).
    "src/index.ts!",
    "src/emulator/index.ts!",
    "src/cli/bin.ts!",
    // The Action's bundle entries (scripts/build-action.mjs); its chunks are `import()`s, which knip follows.
    "src/action/index.ts!",
    "src/action/post.ts!",
    // Run by hand, by `npm run …` or by a test as their own processes.
    "bench/*.ts!",
    "bench/lib/*-child.ts!",
    "scripts/*.{mjs,ts}!",
    "test/helpers/node24/*.mjs",
    // `npm run demo`: knip reads package.json's scripts, but not as production.
    ...(production ? ["demo/run.ts!"] : []),
  ],
  project: ["src/**/*.ts!", "bin/*.js!", "bench/**/*.ts!", "demo/**/*.ts!", "scripts/**/*.{mjs,ts}!", "test/**/*.{ts,mjs}"],
  // Programs tests and benchmarks start from the PATH, not npm packages (CONTRIBUTING.md says which a machine needs).
  ignoreBinaries: ["redis-server", "buildah", "openssl", "kubectl", "prometheus", "valgrind"],
  ignoreExportsUsedInFile: production === true,
  treatConfigHintsAsErrors: true,
});

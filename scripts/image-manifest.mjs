#!/usr/bin/env node
/**
 * Rewrites package.json in the current directory for the container image's dependency install (Dockerfile):
 * the App's optional peers (probot, better-sqlite3, ioredis, bullmq, prom-client) become dependencies, at the
 * ranges package.json gives them, since the image runs the App; with `--build`, so do the few development tools
 * the library's compilation needs. Every other development dependency goes. `npm install --omit=dev` with the
 * project's package-lock.json beside it then installs exactly the locked versions of what remains.
 * (`npm ci --omit=dev` cannot do this: the peers are development dependencies of this package, so it drops them.)
 */
import { readFileSync, writeFileSync } from "node:fs";

const BUILD_TOOLS = ["typescript", "@types/node", "@types/better-sqlite3"];

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const wanted = [...Object.keys(manifest.peerDependencies ?? {}), ...(process.argv.includes("--build") ? BUILD_TOOLS : [])];
const added = {};
for (const name of wanted) {
  const range = manifest.devDependencies?.[name] ?? manifest.peerDependencies?.[name];
  if (range === undefined) throw new Error(`${name} is neither a development dependency nor a peer of ${manifest.name}`);
  added[name] = range;
}
manifest.dependencies = { ...manifest.dependencies, ...added };
delete manifest.devDependencies;
delete manifest.peerDependencies;
delete manifest.peerDependenciesMeta;
// No lifecycle scripts: `prepare` would run tsc, which the install does not have.
delete manifest.scripts;
writeFileSync("package.json", `${JSON.stringify(manifest, null, 2)}\n`);

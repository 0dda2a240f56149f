/**
 * Where a process spent its CPU, from a V8 CPU profile (`node --cpu-prof`): self time by origin.
 * The bundle is minified, so each sample's position is looked up in the source map esbuild writes
 * beside every file (`dist/<file>.js.map`, sources as `../node_modules/<package>/…` or `../src/…`):
 * a profile of dist/ says which package cost what.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { basename } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PACKAGE = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//;

/** The group of one bundled source path: a package name, or null for the project's own code. */
function packageOf(source: string): string | null {
  return PACKAGE.exec(source)?.[1] ?? null;
}

/** Code that no source-map entry covers: esbuild's own preamble (the `require` shim, its helpers). */
const PREAMBLE = "bundle preamble";

/**
 * Milliseconds of self time per origin: each named group of the bundle (see `groupOf`: a package
 * name, or null for the project's own code), "Node (start-up, module loading, built-ins)",
 * "garbage collection", "idle" (waiting for I/O), and the bundle's preamble.
 */
export function selfTimeByOrigin(
  profileFile: string,
  bundleFiles: readonly string[],
  groupOf: (pkg: string | null) => string,
): Map<string, number> {
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as CpuProfile;
  const maps = new Map(
    bundleFiles
      .filter((file) => existsSync(`${file}.map`))
      .map((file) => [basename(file), new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")) as SourceMapPayload)]),
  );
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const originOfNode = new Map<number, string>();
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    let key = originOfNode.get(id);
    if (key === undefined) {
      key = frameOrigin(nodes.get(id)!.callFrame, maps, groupOf);
      originOfNode.set(id, key);
    }
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return totals;
}

function frameOrigin(frame: ProfileNode["callFrame"], maps: Map<string, SourceMap>, groupOf: (pkg: string | null) => string): string {
  if (frame.functionName === "(idle)") return "idle";
  if (frame.functionName === "(garbage collector)") return "garbage collection";
  const map = frame.url.startsWith("file:") ? maps.get(basename(new URL(frame.url).pathname)) : undefined;
  if (!map) return "Node (start-up, module loading, built-ins)";
  // A frame's position is where its function starts; a module's top-level code starts at 0:0.
  const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
  return entry.originalSource ? groupOf(packageOf(entry.originalSource)) : PREAMBLE;
}

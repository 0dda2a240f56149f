/**
 * Where a process spent its CPU, from a V8 CPU profile (`node --cpu-prof`): self time by origin.
 * The bundle's own code is split by the `// node_modules/<package>/…` and `// src/…` headers that
 * esbuild writes above every module it inlines, so a minute-old profile of dist/ says which package
 * cost what without a source map.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Module origins of one bundle file, by first line (0-based, as V8 counts). */
type Origins = Array<{ fromLine: number; origin: string }>;

const HEADER = /^\/\/ (node_modules\/((?:@[^/]+\/)?[^/]+)|src)\//;

function originsOf(file: string, groupOf: (pkg: string | null) => string): Origins {
  const origins: Origins = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, index) => {
      const match = HEADER.exec(line);
      if (!match) return;
      const origin = groupOf(match[2] ?? null);
      if (origins.at(-1)?.origin !== origin) origins.push({ fromLine: index, origin });
    });
  return origins;
}

/**
 * Milliseconds of self time per origin: each named group of the bundle (see `groupOf`: a package
 * name, or null for the project's own code), "Node (start-up, module loading, built-ins)",
 * "garbage collection", and "idle" (waiting for I/O).
 */
export function selfTimeByOrigin(profileFile: string, bundleFiles: readonly string[], groupOf: (pkg: string | null) => string): Map<string, number> {
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as CpuProfile;
  const byName = new Map(bundleFiles.map((file) => [basename(file), originsOf(file, groupOf)]));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = nodes.get(id)!.callFrame;
    const key = frameOrigin(frame, byName);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  return totals;
}

function frameOrigin(frame: ProfileNode["callFrame"], byName: Map<string, Origins>): string {
  if (frame.functionName === "(idle)") return "idle";
  if (frame.functionName === "(garbage collector)") return "garbage collection";
  const origins = frame.url.startsWith("file:") ? byName.get(basename(new URL(frame.url).pathname)) : undefined;
  if (!origins) return "Node (start-up, module loading, built-ins)";
  let origin = "bundle preamble";
  for (const entry of origins) {
    if (entry.fromLine > frame.lineNumber) break;
    origin = entry.origin;
  }
  return origin;
}

/**
 * The Node versions package.json promises are exactly those the runtime dependencies support: every
 * package that runs in the published library or the App (dependencies and the App's optional peers,
 * with everything they pull in, as package-lock.json resolves them) is walked for its `engines.node`,
 * and our range must admit no version one of them refuses, with its floor the highest of theirs. A
 * dependency that raises its floor (Node 20 → 22 came through fastify and @octokit/request) fails here,
 * not as an EBADENGINE on a user's machine. The README's Node line names the same floor.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, ROOT), "utf8");

type Version = [number, number, number];
type Comparator = { op: ">=" | ">" | "<" | "<=" | "="; version: Version };

/** One `engines.node` range as sets of comparators (any set may match), for the forms npm packages write. */
function parseRange(range: string): Comparator[][] {
  return range.split("||").map((part) => {
    const tokens = part
      .trim()
      .replace(/(>=|<=|>|<|=)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean);
    return tokens.flatMap((token): Comparator[] => {
      const match = /^(>=|<=|>|<|=|\^|~)?v?(\*|x|\d+)(?:\.(\*|x|\d+))?(?:\.(\*|x|\d+))?$/i.exec(token);
      if (!match) throw new Error(`cannot read the range "${range}" (token "${token}")`);
      const [, op = "", ...parts] = match;
      const numbers = parts.map((value) => (value === undefined || /^[x*]$/i.test(value) ? undefined : Number(value)));
      const given = numbers.findIndex((value) => value === undefined);
      const exact = given === -1;
      const low: Version = [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0];
      if (numbers[0] === undefined) return [];
      // The version after the last one the partial or caret/tilde form admits.
      const bump = (index: number): Version =>
        index === 0 ? [low[0] + 1, 0, 0] : index === 1 ? [low[0], low[1] + 1, 0] : [low[0], low[1], low[2] + 1];
      if (op === "^")
        return [
          { op: ">=", version: low },
          { op: "<", version: bump(low[0] > 0 ? 0 : low[1] > 0 ? 1 : 2) },
        ];
      if (op === "~")
        return [
          { op: ">=", version: low },
          { op: "<", version: bump(given === 1 ? 0 : 1) },
        ];
      if (op === "" || op === "=")
        return exact
          ? [{ op: "=", version: low }]
          : [
              { op: ">=", version: low },
              { op: "<", version: bump(given - 1) },
            ];
      if (op === ">" && !exact) return [{ op: ">=", version: bump(given - 1) }];
      if (op === "<=" && !exact) return [{ op: "<", version: bump(given - 1) }];
      return [{ op: op as Comparator["op"], version: low }];
    });
  });
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

function satisfies(version: Version, range: Comparator[][]): boolean {
  return range.some((set) =>
    set.every(({ op, version: bound }) => {
      const order = compare(version, bound);
      return op === ">=" ? order >= 0 : op === ">" ? order > 0 : op === "<" ? order < 0 : op === "<=" ? order <= 0 : order === 0;
    }),
  );
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  engines?: { node?: string } | string[];
}

/** Every package the library or the App runs, by its path in package-lock.json: dependencies, the optional peers, and theirs. */
function runtimePackages(): Map<string, LockEntry> {
  const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, LockEntry> };
  const pkg = JSON.parse(read("package.json")) as { dependencies?: object; peerDependencies?: object };
  // Node's lookup: the nearest node_modules folder up from the package that asks.
  const resolve = (from: string, name: string): string | null => {
    for (let base = from; ;) {
      const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return null;
      const parent = base.lastIndexOf("/node_modules/");
      base = parent < 0 ? "" : base.slice(0, parent);
    }
  };
  const found = new Map<string, LockEntry>();
  const pending = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].map((name) => resolve("", name));
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (path === null || found.has(path)) continue;
    const entry = lock.packages[path]!;
    found.set(path, entry);
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) pending.push(resolve(path, name));
  }
  return found;
}

const nodeRangeOf = (entry: LockEntry) => (Array.isArray(entry.engines) ? undefined : entry.engines?.node);

/** Versions to probe: every major's first and a late release, and every version any range names. */
function probes(ranges: string[]): Version[] {
  const named = ranges.flatMap((range) => parseRange(range).flatMap((set) => set.map((comparator) => comparator.version)));
  const majors = Array.from({ length: 41 }, (_, major): Version[] => [
    [major, 0, 0],
    [major, 999, 999],
  ]).flat();
  return [...named, ...majors];
}

describe("engines.node is what the runtime dependencies support", () => {
  const ours = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
  const packages = runtimePackages();
  const ranges = [...packages].flatMap(([path, entry]) => {
    const range = nodeRangeOf(entry);
    return range ? [{ name: path.replace(/^.*node_modules\//, ""), range }] : [];
  });

  it("reads the ranges npm packages write", () => {
    expect(satisfies([20, 18, 0], parseRange("^20.18.1 || >= 22"))).toBe(false);
    expect(satisfies([20, 18, 1], parseRange("^20.18.1 || >= 22"))).toBe(true);
    expect(satisfies([27, 0, 0], parseRange("20.x || 22.x || 23.x || 24.x || 25.x || 26.x"))).toBe(false);
    expect(satisfies([0, 10, 0], parseRange(">= 0.10.x"))).toBe(true);
    expect(satisfies([21, 0, 0], parseRange("^16 || ^18 || >=20"))).toBe(true);
    expect(satisfies([5, 0, 0], parseRange("6.* || 8.* || >= 10.*"))).toBe(false);
  });

  it("walks the App's dependencies too (probot brings fastify's and octokit's)", () => {
    const names = ranges.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(["probot", "@octokit/request", "better-sqlite3", "ioredis"]));
  });

  it("admits no Node version that a runtime dependency refuses", () => {
    const admitted = probes([ours, ...ranges.map((entry) => entry.range)]).filter((version) => satisfies(version, parseRange(ours)));
    expect(admitted.length).toBeGreaterThan(0);
    const refused = admitted.flatMap((version) =>
      ranges
        .filter((entry) => !satisfies(version, parseRange(entry.range)))
        .map((entry) => `${version.join(".")}: ${entry.name} (${entry.range})`),
    );
    expect(refused).toEqual([]);
  });

  it("its floor is the highest floor among them (no version they all support is left out below it)", () => {
    const all = [ours, ...ranges.map((entry) => entry.range)];
    const supportedByAll = probes(all)
      .filter((version) => ranges.every((entry) => satisfies(version, parseRange(entry.range))))
      .sort(compare);
    const ourFloor = probes(all)
      .filter((version) => satisfies(version, parseRange(ours)))
      .sort(compare)[0]!;
    expect(ourFloor).toEqual(supportedByAll[0]);
  });

  it("the README and CONTRIBUTING.md name that floor", () => {
    const floor = probes([ours])
      .filter((version) => satisfies(version, parseRange(ours)))
      .sort(compare)[0]!;
    expect(read("README.md")).toMatch(new RegExp(`Node ${floor[0]}`));
    expect(read("CONTRIBUTING.md")).toMatch(new RegExp(`Node ${floor[0]}`));
    expect(read("README.md")).not.toMatch(/Node 20\.18/);
    expect(read("CONTRIBUTING.md")).not.toMatch(/Node 20\.18/);
  });
});

/**
 * Instructions a process runs, counted by Valgrind's cachegrind with its cache simulation off: a
 * figure that does not move with the machine's load or clock, for telling apart two builds whose
 * times differ by less than the noise of a timed start (several per cent from one run to the next).
 * It needs `valgrind` on the PATH (Debian: `apt-get install valgrind`); a run under it is about 50
 * times slower, so it counts a few starts only.
 *
 * V8 searches for primes when it makes each process's hash seed (`HashSeed::InitializeRoots`), and
 * that search costs between about 8 and 21 million instructions at random: it is left out of each
 * count, which then varies by well under 1% between starts of the same build.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Valgrind's version line, or null when it is not installed. */
export function valgrindVersion(): string | null {
  try {
    return execFileSync("valgrind", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/**
 * Valgrind's arguments to run `node` (the arguments for node follow) under cachegrind, its counts
 * and its own log written into `outDir`. V8 writes machine code at run time: every write to code is
 * checked (`--smc-check=all-non-file`).
 */
export function cachegrindArgs(node: string, outDir: string): string[] {
  return [
    "--tool=cachegrind",
    "--cache-sim=no",
    "--smc-check=all-non-file",
    `--cachegrind-out-file=${join(outDir, "cachegrind.%p.out")}`,
    `--log-file=${join(outDir, "valgrind.%p.log")}`,
    node,
  ];
}

/** The instructions counted in `outDir` (one process, or all of them), without V8's hash-seed prime search. */
export function instructionsIn(outDir: string): number {
  const files = readdirSync(outDir).filter((name) => name.startsWith("cachegrind.") && name.endsWith(".out"));
  if (files.length === 0) throw new Error(`cachegrind wrote no count in ${outDir} (see valgrind.*.log there)`);
  return files.reduce((sum, name) => sum + withoutHashSeedSearch(readFileSync(join(outDir, name), "utf8")), 0);
}

/**
 * A cachegrind output's total (`summary:`) less the lines counted in the prime test V8's hash seed
 * runs (`detail::sprp`). Each line of a function's block is `<line> <count>`; a block starts at `fn=`.
 */
function withoutHashSeedSearch(output: string): number {
  const summary = /^summary: (\d+)$/m.exec(output);
  if (!summary) throw new Error("a cachegrind output without its summary line: did the process end early?");
  let total = Number(summary[1]);
  let inPrimeTest = false;
  for (const line of output.split("\n")) {
    if (line.startsWith("fn=")) inPrimeTest = line.includes("sprp(");
    else if (inPrimeTest && /^\d+ \d+$/.test(line)) total -= Number(line.split(" ")[1]);
  }
  return total;
}

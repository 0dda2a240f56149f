/**
 * What every benchmark returns and how it is printed: one row per figure, always with the baseline
 * measured in the same run beside it, so a reader never compares against a number from elsewhere.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface BenchRow {
  benchmark: string;
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  /** "yes"/"no" against the target; "n/a" when the row has no target or could not be measured. */
  met: "yes" | "no" | "n/a";
}

export interface BenchResult {
  benchmark: string;
  /** The one factor applied to the emulator clock and every rate window; null when no time is scaled. */
  scale: number | null;
  rows: BenchRow[];
  /** How the figures were measured and anything a reader needs to judge them. */
  notes: string[];
}

const TABLE_COLUMNS = ["benchmark", "figure", "value", "baseline", "ratio", "target", "met?"] as const;

export function markdownTable(rows: readonly BenchRow[]): string {
  const lines = [`| ${TABLE_COLUMNS.join(" | ")} |`, `|${TABLE_COLUMNS.map(() => "---").join("|")}|`];
  for (const r of rows) {
    const cells = [r.benchmark, r.figure, r.value, r.baseline, r.ratio, r.target, r.met].map(escapeCell);
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function printResult(result: BenchResult): void {
  console.log(
    `\n## ${result.benchmark}${result.scale === null ? "" : ` (time scale ${result.scale}: 1 emulated second = ${formatNumber(result.scale * 1000)} ms real)`}`,
  );
  for (const note of result.notes) console.log(`- ${note}`);
  console.log("");
  console.log(markdownTable(result.rows));
}

/** A row for a benchmark that could not run (a missing build, a piece not landed yet): said plainly, never faked. */
export function unavailableRow(benchmark: string, figure: string, why: string, target: string): BenchRow {
  return { benchmark, figure, value: `not measured: ${why}`, baseline: "—", ratio: "—", target, met: "n/a" };
}

export function ratioOf(value: number, baseline: number, digits = 2): string {
  if (!Number.isFinite(value) || !Number.isFinite(baseline)) return "—";
  if (baseline === 0) return value === 0 ? "1×" : "∞";
  return `${formatNumber(value / baseline, digits)}×`;
}

export function formatNumber(value: number, digits = 2): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  const abs = Math.abs(value);
  const places = abs >= 100 ? 0 : abs >= 10 ? Math.min(1, digits) : digits;
  return value.toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places });
}

export const yesNo = (ok: boolean): "yes" | "no" => (ok ? "yes" : "no");

/** True when this module is the script node was asked to run (`npx tsx bench/<name>.ts`). */
export function isMainModule(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(importMetaUrl));
  } catch {
    return false;
  }
}

/** Runs a benchmark as a script: prints its section, exits 1 if it threw. */
export function runAsScript(run: () => Promise<BenchResult>): void {
  run()
    .then((result) => {
      printResult(result);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    });
}

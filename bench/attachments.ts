/**
 * Reading pasted images out of a hostile comment: tens of thousands of unclosed `![` or `<img`. The
 * one-pass reader (core/prompt/images.ts `imageSourcesIn`) against the patterns it replaced, on the
 * same text in the same run; doubling the text should double the one-pass time and quadruple the
 * patterns' (linear against quadratic).
 *
 * `npx tsx bench/attachments.ts`
 */
import { imageSourcesIn } from "../src/core/prompt/images.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { medianMs } from "./lib/stats.js";

const NAME = "attachments";
const SIZES = [5_000, 10_000, 20_000];
const SHAPES: Array<{ label: string; text: (n: number) => string }> = [
  { label: "n × `![` (unclosed images)", text: (n) => "![".repeat(n) },
  { label: "n × `<img ` (tags without an end)", text: (n) => "<img ".repeat(n) },
];

/** The patterns core/prompt/images.ts used before the one-pass reader (the baseline). */
function patternSources(prose: string): string[] {
  const found: Array<{ index: number; url: string }> = [];
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
    found.push({ index: match.index, url: match[1]! });
  }
  for (const match of prose.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    found.push({ index: match.index, url: (match[1] ?? match[2] ?? match[3])! });
  }
  return found.sort((a, b) => a.index - b.index).map((f) => f.url);
}

export async function runAttachmentsBenchmark(): Promise<BenchResult> {
  const rows: BenchRow[] = [];
  for (const shape of SHAPES) {
    for (const n of SIZES) {
      const text = shape.text(n);
      const onePass = medianMs(imageSourcesIn, text, 21);
      const patterns = medianMs(patternSources, text, 1);
      rows.push({
        benchmark: NAME,
        figure: `${shape.label}, n = ${formatNumber(n)}: one pass (median of 21)`,
        value: `${formatNumber(onePass, 2)} ms`,
        baseline: `${formatNumber(patterns, 1)} ms (former patterns, 1 run)`,
        ratio: ratioOf(onePass, patterns, 4),
        target: "< 100 ms",
        met: yesNo(onePass < 100),
      });
    }
  }
  return {
    benchmark: NAME,
    scale: null,
    notes: [
      `The reader alone (no sanitising), Node ${process.version}; each text followed by nothing, so every start fails, the patterns' worst case.`,
      "Linear: each doubling of n about doubles the one-pass time; the patterns' time about quadruples.",
    ],
    rows,
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runAttachmentsBenchmark());

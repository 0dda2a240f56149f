/**
 * Reading a trigger comment's quotes on hostile input: a comment of GitHub's largest size made of
 * quote markers, `<blockquote>` tags, list markers or one long lazy-continuation paragraph. The
 * whole parse (core/trigger.ts `parseTriggerComment`, which sanitises, then reads fences and quotes)
 * against sanitising the same text alone (`sanitizeUserText`, the floor every comment already pays),
 * in the same run; doubling the text should about double both (linear).
 *
 * `npx tsx bench/quotes.ts`
 */
import { sanitizeUserText } from "../src/core/sanitize-input.js";
import { parseTriggerComment, type TriggerGrammar } from "../src/core/trigger.js";
import { formatNumber, isMainModule, ratioOf, runAsScript, yesNo, type BenchResult, type BenchRow } from "./lib/report.js";
import { medianMs } from "./lib/stats.js";

const NAME = "quotes";
const GRAMMAR: TriggerGrammar = { phrase: "/agent", appSlug: "run-bot", mention: true };
/** GitHub's largest comment, and half of it. */
const SIZES = [32_768, 65_536];
const SHAPES: Array<{ label: string; unit: string }> = [
  { label: "quote lines (`> x`), a mention in the last", unit: "> x\n" },
  { label: "nested markers (`> > > >`)", unit: "> > > > " },
  { label: "unclosed `<blockquote>` tags", unit: "<blockquote>" },
  { label: "list markers with no quote (`- 1. - `)", unit: "- 1. - " },
  { label: "lines of list markers with no quote", unit: "- - 1. 2) + * x\n" },
  { label: "one lazy paragraph after a quote", unit: "x @run-bot " },
];

const commentOf = (unit: string, size: number) =>
  `> start\n${unit.repeat(Math.floor(size / unit.length))}`.slice(0, size) + "\n@run-bot go";

export async function runQuotesBenchmark(): Promise<BenchResult> {
  const rows: BenchRow[] = [];
  for (const shape of SHAPES) {
    for (const size of SIZES) {
      const text = commentOf(shape.unit, size);
      const parse = medianMs((body) => parseTriggerComment(body, GRAMMAR), text, 11);
      const sanitise = medianMs(sanitizeUserText, text, 11);
      rows.push({
        benchmark: NAME,
        figure: `${shape.label}, ${formatNumber(size)} characters: parseTriggerComment (median of 11)`,
        value: `${formatNumber(parse, 2)} ms`,
        baseline: `${formatNumber(sanitise, 2)} ms (sanitizeUserText alone)`,
        ratio: ratioOf(parse, sanitise),
        target: "< 50 ms",
        met: yesNo(parse < 50),
      });
    }
  }
  return {
    benchmark: NAME,
    scale: null,
    notes: [
      `Node ${process.version}. Each comment starts with a quote and ends with a mention outside it, so the whole text is read.`,
      "Linear: each doubling of the size about doubles both times.",
    ],
    rows,
  };
}

if (isMainModule(import.meta.url)) runAsScript(() => runQuotesBenchmark());

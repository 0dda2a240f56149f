/**
 * The decision codes table (docs/troubleshooting.md) is read from core's one table of codes
 * (src/core/decision-codes.ts), which the types keep complete: a new "no" is documented by `npm run docs`.
 */
import { DECISION_CODES, DECISION_CODE_LIST } from "../../src/core/decision-codes.js";

const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

export function decisionCodesTable(): string {
  return [
    "| Code | Outcome | What happened | What to do |",
    "|---|---|---|---|",
    ...DECISION_CODE_LIST.map((code) => {
      const entry = DECISION_CODES[code];
      return `| \`${code}\` | ${entry.outcome} | ${cell(entry.means)} | ${cell(entry.whatToDo)} |`;
    }),
  ].join("\n");
}

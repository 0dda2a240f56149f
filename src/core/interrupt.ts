/**
 * A follow-up sent to a working agent (`follow_up: interrupt`): what the thread is shown of it.
 */
import type { RunTrigger } from "./detect/triggers.js";
import { QUOTE_PLACEHOLDER } from "./quotes.js";
import { sanitizeUserText } from "./sanitize-input.js";
import { truncateText } from "./sanitize-output/safe-markdown.js";

/** How much of the follow-up's first line the tracking comment quotes. */
const INTERRUPT_LINE_MAX = 120;

/** The instruction's first non-empty line of the person's own (not where a quote stood), sanitised like any prompt text and bounded. */
export function interruptLineOf(trigger: RunTrigger): string {
  const instruction = "instruction" in trigger ? trigger.instruction : "";
  const line =
    sanitizeUserText(instruction)
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0 && l !== QUOTE_PLACEHOLDER) ?? "";
  return truncateText(line, INTERRUPT_LINE_MAX);
}

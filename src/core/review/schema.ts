/**
 * The schema of a review run's output (format.ts states the format to the agent; parse.ts checks a
 * result against this). Built only where a result is read, never on a start path.
 */
import * as z from "zod/mini";
import { REVIEW_LIMITS } from "./format.js";

const lineNumber = () => z.int().check(z.positive());

const ReviewFindingSchema = z.strictObject({
  path: z.string().check(z.minLength(1), z.maxLength(REVIEW_LIMITS.path)),
  line: lineNumber(),
  start_line: z.optional(lineNumber()),
  side: z.optional(z.enum(["RIGHT", "LEFT"])),
  body: z.string().check(z.maxLength(REVIEW_LIMITS.body)),
  suggestion: z.optional(z.string().check(z.maxLength(REVIEW_LIMITS.suggestion))),
});

export const ReviewOutputSchema = z.strictObject({
  summary: z.string().check(z.maxLength(REVIEW_LIMITS.summary)),
  comments: z._default(z.array(ReviewFindingSchema).check(z.maxLength(REVIEW_LIMITS.comments)), []),
});

export type ReviewFinding = z.output<typeof ReviewFindingSchema>;
export type ReviewOutput = z.output<typeof ReviewOutputSchema>;

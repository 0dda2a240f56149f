/**
 * The client's checks at its edge: a request that breaks the spec is refused before anything is
 * sent (RequestValidationError), and an answer the bridge cannot read is reported as such
 * (InvalidResponseError), each naming every issue the schema found.
 */
import type * as z from "zod/mini";
import { InvalidResponseError, RequestValidationError } from "./errors.js";

/** "prompt: must not be empty", or the message alone for an issue of the whole value. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
}

/** The request as the schema outputs it; `what` names it in the error ("create request"). */
export function validate<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new RequestValidationError(what, describeIssues(result.error.issues));
  return result.data;
}

export function validateRunId(runId: number): number {
  if (!Number.isInteger(runId) || runId <= 0)
    throw new RequestValidationError("run id", [`must be a positive integer, got ${String(runId)}`]);
  return runId;
}

/** The answer as the schema reads it; `what` names it in the error ("run", "logs response"). */
export function parse<S extends z.ZodMiniType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new InvalidResponseError(`The service's ${what} cannot be read: ${describeIssues(result.error.issues).join("; ")}.`);
  return result.data;
}

/** A query without its unset parameters. */
export function definedOnly(query: Record<string, number | string | undefined>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, number | string] => entry[1] !== undefined));
}

/** A body without its unset and null fields: the spec's optional fields are left out rather than sent as null. */
export function dropNullish(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null));
}

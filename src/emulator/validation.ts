/**
 * Request validation with FastAPI-like error bodies: `{ detail: [{ loc, msg, type }] }`, where
 * `loc` starts with "body", "path" or "query". Messages come from the wire schemas. Pure.
 */
import type * as z from "zod/mini";
import { ListRepositoriesQuerySchema, ListRunsQuerySchema, LogsQuerySchema } from "../service/wire.js";

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; detail: ValidationIssue[] };

type ZodIssue = z.core.$ZodIssue;

/** Validates a JSON body against a wire schema. */
export function validateBody<S extends z.ZodMiniType>(schema: S, body: unknown): Validated<z.output<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, detail: parsed.error.issues.flatMap((issue) => toFastApiIssues("body", issue, body)) };
}

/** An integer path or query parameter, as FastAPI reads it. */
export function parseIntegerParam(
  where: "path" | "query",
  name: string,
  raw: unknown,
): { ok: true; value: number } | { ok: false; issue: ValidationIssue } {
  const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  const value = typeof text === "string" && /^[+-]?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (Number.isSafeInteger(value)) return { ok: true, value };
  return {
    ok: false,
    issue: {
      loc: [where, name],
      msg: `Input should be a valid integer, unable to parse ${JSON.stringify(String(text))} as an integer`,
      type: "int_parsing",
    },
  };
}

/**
 * A query of integer and text parameters read like FastAPI: integers parsed first (each failure
 * reported), then the wire schema's rules; parameters it does not know are ignored.
 */
function validateQuery<S extends z.ZodMiniType>(
  schema: S,
  query: Record<string, unknown>,
  names: { integers: readonly string[]; texts?: readonly string[] },
): Validated<z.output<S>> {
  const detail: ValidationIssue[] = [];
  const candidate: Record<string, number | string> = {};
  for (const name of names.integers) {
    if (query[name] === undefined) continue;
    const parsed = parseIntegerParam("query", name, query[name]);
    if (parsed.ok) candidate[name] = parsed.value;
    else detail.push(parsed.issue);
  }
  for (const name of names.texts ?? []) {
    const raw = query[name];
    if (raw === undefined) continue;
    candidate[name] = String(Array.isArray(raw) ? raw[raw.length - 1] : raw);
  }
  if (detail.length > 0) return { ok: false, detail };
  const parsed = schema.safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, detail: parsed.error.issues.flatMap((issue) => toFastApiIssues("query", issue, candidate)) };
}

/** Spec §4.4 query: `skip` and `limit`. */
export function validateLogsQuery(query: Record<string, unknown>): Validated<z.output<typeof LogsQuerySchema>> {
  return validateQuery(LogsQuerySchema, query, { integers: ["skip", "limit"] });
}

/** The runs list's query (real deployments): `skip`, `limit`, `user_id`, `source_type`. */
export function validateRunsQuery(query: Record<string, unknown>): Validated<z.output<typeof ListRunsQuerySchema>> {
  return validateQuery(ListRunsQuerySchema, query, { integers: ["skip", "limit", "user_id"], texts: ["source_type"] });
}

/** The repositories list's query (real deployments): `skip`, `limit`. */
export function validateRepositoriesQuery(query: Record<string, unknown>): Validated<z.output<typeof ListRepositoriesQuerySchema>> {
  return validateQuery(ListRepositoriesQuerySchema, query, { integers: ["skip", "limit"] });
}

function toFastApiIssues(where: "body" | "query", issue: ZodIssue, input: unknown): ValidationIssue[] {
  const loc = [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      loc: [...loc, key],
      msg: `Extra inputs are not permitted: remove "${key}" (the request accepts only the fields of the spec)`,
      type: "extra_forbidden",
    }));
  }
  return [{ loc, msg: issue.message, type: fastApiType(issue, valueAt(input, issue.path)) }];
}

function fastApiType(issue: ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return "missing";
      return issue.expected === "object" || issue.expected === "record" ? "dict_type" : `${issue.expected}_type`;
    case "too_small":
      return issue.origin === "string" ? "string_too_short" : "greater_than_equal";
    case "too_big":
      return issue.origin === "string" ? "string_too_long" : "less_than_equal";
    case "invalid_format":
      return "string_pattern_mismatch";
    case "invalid_value":
      return "enum";
    default:
      return "value_error";
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

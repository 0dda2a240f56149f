/**
 * Configuration given as strings (the Action's `with:` inputs, environment variables), keyed by
 * the config's dotted paths (`check_suite.max_attempts`). Each string is read as the type the
 * schema wants: `true`/`false`, integers, lists (one per line or comma-separated), text as is.
 * A string that does not read as its type is passed on unchanged, so the schema reports it in its
 * usual words ("must be true or false (got \"yes\")"). An empty string means "not set".
 */
import type * as z from "zod/mini";
import { isMapping, objectSchemaOf, repoConfigFields, unwrappedSchemaOf } from "./schema.js";

export type ConfigValueKind = "boolean" | "integer" | "list" | "string";

let leafKinds: Map<string, ConfigValueKind> | undefined;

/** Every leaf of the repository configuration, by dotted path (computed once). */
export function configLeafKinds(): Map<string, ConfigValueKind> {
  leafKinds ??= computeLeafKinds();
  return leafKinds;
}

/**
 * Read from the schema's own definitions, not from its JSON Schema: zod's JSON Schema generator is
 * a fifth of zod's code in the Action's bundle, which a runner would parse at every start.
 */
function computeLeafKinds(): Map<string, ConfigValueKind> {
  const kinds = new Map<string, ConfigValueKind>();
  const visit = (fields: Record<string, z.core.$ZodType>, prefix: string) => {
    for (const [key, field] of Object.entries(fields)) {
      const path = `${prefix}${key}`;
      const object = objectSchemaOf(field);
      if (object) visit(object._zod.def.shape, `${path}.`);
      // A list of mappings (`automations`) has no one-string form: only the file sets it.
      else if (!isListOfMappings(field)) kinds.set(path, leafKindOf(field));
    }
  };
  visit(repoConfigFields(), "");
  return kinds;
}

function isListOfMappings(schema: z.core.$ZodType): boolean {
  const def = unwrappedSchemaOf(schema)._zod.def as { type: string; element?: z.core.$ZodType };
  return def.type === "array" && def.element !== undefined && objectSchemaOf(def.element) !== undefined;
}

/** The kind of a leaf, through the wrappers that defaults and optional values add. */
function leafKindOf(schema: z.core.$ZodType): ConfigValueKind {
  const def = unwrappedSchemaOf(schema)._zod.def as { type: string; format?: string; checks?: z.core.$ZodCheck[] };
  if (def.type === "boolean") return "boolean";
  if (def.type === "array") return "list";
  // An integer is a number in an integer format (`z.int()`), or with one as a check.
  const isInteger =
    isIntegerFormat(def.format) || (def.checks ?? []).some((check) => isIntegerFormat((check._zod.def as { format?: string }).format));
  return def.type === "number" && isInteger ? "integer" : "string";
}

const isIntegerFormat = (format: string | undefined) => format !== undefined && /int/.test(format);

function readAs(kind: ConfigValueKind | undefined, raw: string): unknown {
  const text = raw.trim();
  switch (kind) {
    case "boolean":
      return /^true$/i.test(text) ? true : /^false$/i.test(text) ? false : raw;
    case "integer":
      return /^[+-]?\d+$/.test(text) ? Number(text) : raw;
    case "list":
      return text
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter((item) => item !== "");
    default:
      return raw;
  }
}

/**
 * Layers string values over a base configuration (e.g. the repository's YAML file): a set value
 * wins, an empty or missing one leaves the base alone. The result goes to `parseRepoConfig`;
 * unknown paths are kept so that it reports them.
 */
export function configInputFromStrings(values: Readonly<Record<string, string | undefined>>, base: unknown = {}): unknown {
  if (!isMapping(base)) return base ?? {};
  const merged: Record<string, unknown> = structuredClone(base);
  const set = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== "");
  // Most steps set no config input: the schema walk (slow at start-up) is only done when one is.
  const kinds = set.length > 0 ? configLeafKinds() : new Map<string, ConfigValueKind>();
  for (const [path, raw] of set) {
    const keys = path.split(".");
    let target = merged;
    for (const key of keys.slice(0, -1)) {
      if (!isMapping(target[key])) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    target[keys[keys.length - 1]!] = readAs(kinds.get(path), raw);
  }
  return merged;
}

/**
 * The configuration reference in docs/configuration.md (key, type, default, description), generated
 * from the schema's JSON Schema: the descriptions are the ones registered on the schema itself.
 */
import * as z from "zod/mini";
import { actionDefaultNote } from "./action-defaults.js";
import { repoConfigSchema } from "./schema.js";

interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
  anyOf?: JsonSchemaNode[];
}

function describeType(node: JsonSchemaNode): string {
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" or ");
  if (node.anyOf) return node.anyOf.map(describeType).join(" or ");
  const type = Array.isArray(node.type) ? node.type.join(" or ") : (node.type ?? "any");
  if (type === "integer") {
    const max = node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER ? node.maximum : undefined;
    if (node.minimum !== undefined && max !== undefined) return `integer, ${node.minimum}–${max}`;
    if (node.exclusiveMinimum === 0 || node.minimum === 1) return "positive integer";
    return "integer";
  }
  if (type === "array") return `list of ${node.items ? describeType(node.items) : "values"}s`;
  if (type === "string" && node.maxLength !== undefined) return `string, at most ${node.maxLength} characters`;
  return type;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** A Markdown table of every key (key, type, default, description), generated from the schema. */
export function renderConfigReference(): string {
  const root = z.toJSONSchema(repoConfigSchema(), { io: "input" }) as JsonSchemaNode;
  const rows: string[] = [];
  const visit = (properties: Record<string, JsonSchemaNode>, prefix: string) => {
    for (const [key, node] of Object.entries(properties)) {
      const path = `${prefix}${key}`;
      if (node.properties) {
        visit(node.properties, `${path}.`);
        continue;
      }
      const defaultValue = (node.default === undefined ? "(unset)" : `\`${JSON.stringify(node.default)}\``) + actionDefaultNote(path);
      rows.push(`| \`${path}\` | ${cell(describeType(node))} | ${cell(defaultValue)} | ${cell(node.description ?? "")} |`);
    }
  };
  visit(root.properties ?? {}, "");
  return ["| Key | Type | Default | Description |", "|---|---|---|---|", ...rows].join("\n") + "\n";
}

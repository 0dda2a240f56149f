/**
 * The JSON Schema of `.github/agent-run.yml`, generated from the zod schema so that it can never
 * disagree with what the bridge accepts. It is committed as `schema/agent-run.schema.json` (a
 * test keeps it fresh, `npm run docs` rewrites it) and shipped in the npm package, so that an
 * editor with a YAML language server completes and checks the keys as they are typed.
 */
import * as z from "zod/mini";
import { CONFIG_PATH } from "./path.js";
import { repoConfigSchema } from "./schema.js";

/** Where the committed schema lives in this repository and in the npm package. */
export const CONFIG_SCHEMA_PATH = "schema/agent-run.schema.json";

/** The published copy, for `# yaml-language-server: $schema=…` lines: the file inside the npm package. */
export const CONFIG_SCHEMA_URL = `https://unpkg.com/agent-run-bridge/${CONFIG_SCHEMA_PATH}`;

/**
 * `_extends` (Probot's convention), resolved before the bridge validates the file within the rule
 * of config/sources.ts; editors must not flag it as unknown.
 */
const ExtendsSchema = z.optional(z.string().check(z.minLength(1))).register(z.globalRegistry, {
  description:
    "Inherit the settings of another file, merged under this one: the owner's `.github` repository (`.github` or `.github:path/to/file.yml`) or another file of this repository, named by the repository's own name (`<this repository's name>:path/to/file.yml`). Any other repository, or one more private than this one, is a configuration error. The App resolves it; the Action reads this file alone.",
});

/** The schema as an object (draft 2020-12, strict: an unknown key is an error, as in the bridge). */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(z.extend(repoConfigSchema(), { _extends: ExtendsSchema }), { io: "input", target: "draft-2020-12" });
  const { $schema, ...rest } = generated as Record<string, unknown>;
  return {
    $schema,
    $id: CONFIG_SCHEMA_URL,
    title: `agent-run-bridge repository configuration (${CONFIG_PATH})`,
    description: "What starts agent runs in this repository, who may start them, and how many may start. Every key is optional.",
    ...rest,
  };
}

/** The committed file's exact text. */
export function renderConfigJsonSchema(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

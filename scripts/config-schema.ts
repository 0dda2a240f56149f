/**
 * Writes `schema/agent-run.schema.json` from the config schema (part of `npm run docs`); a unit
 * test fails when the committed file is stale.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_SCHEMA_PATH, renderConfigJsonSchema } from "../src/config/json-schema.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const configSchemaFile = (): string => join(ROOT, CONFIG_SCHEMA_PATH);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(dirname(configSchemaFile()), { recursive: true });
  writeFileSync(configSchemaFile(), renderConfigJsonSchema());
  console.log(`${CONFIG_SCHEMA_PATH}: written`);
}

/**
 * The committed JSON Schema for `.github/agent-run.yml`: fresh (generated from the zod schema),
 * shipped, linked from the example configuration, and judging files the way the bridge does, checked
 * with a real JSON Schema validator (Ajv, draft 2020-12) as an editor's language server would.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { configSchemaFile } from "../../../scripts/config-schema.js";
import { CONFIG_SCHEMA_PATH, CONFIG_SCHEMA_URL, parseRepoConfig, renderConfigJsonSchema } from "../../../src/config/index.js";

const committed = readFileSync(configSchemaFile(), "utf8");
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(committed) as object);
/** The example configuration readers copy (docs/configuration.md links it). */
const example = readFileSync(new URL("../../../examples/agent-run.yml", import.meta.url), "utf8");

describe("schema/agent-run.schema.json", () => {
  it("is the schema generated from the zod schema (run `npm run docs`)", () => {
    expect(committed).toBe(renderConfigJsonSchema());
  });

  it("is shipped in the npm package and named by its published URL", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { files: string[] };
    expect(pkg.files.some((entry) => CONFIG_SCHEMA_PATH.startsWith(entry.replace(/\/$/, "") + "/"))).toBe(true);
    expect((JSON.parse(committed) as { $id: string }).$id).toBe(CONFIG_SCHEMA_URL);
  });

  it("examples/agent-run.yml points editors at it and is valid for both the schema and the bridge", () => {
    expect(example.split("\n")[0]).toBe(`# yaml-language-server: $schema=${CONFIG_SCHEMA_URL}`);
    const raw: unknown = parseYaml(example);
    expect(validate(raw)).toBe(true);
    expect(parseRepoConfig(raw).ok).toBe(true);
  });

  it("rejects a misspelt key where the bridge does, at the same path", () => {
    const raw = { check_suite: { auto_fix: true } };
    expect(validate(raw)).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({
        instancePath: "/check_suite",
        keyword: "additionalProperties",
        params: { additionalProperty: "auto_fix" },
      }),
    );
    expect(parseRepoConfig(raw)).toEqual({
      ok: false,
      errors: [expect.stringMatching(/^`check_suite\.auto_fix`: unknown key .*Did you mean `enabled`\?/)],
    });
  });

  it("accepts `_extends` (Probot resolves it) and an empty file", () => {
    expect(validate({ _extends: "octo-org/.github", mention: false })).toBe(true);
    expect(parseRepoConfig({ _extends: "octo-org/.github", mention: false }).ok).toBe(true);
    expect(validate({})).toBe(true);
  });

  it("agrees with the bridge on values out of range, wrong types and bad enums", () => {
    for (const raw of [
      { limits: { runs_per_repo_per_hour: 0 } },
      { check_suite: { max_attempts: 21 } },
      { kill_switch_label: "" },
      { permissions: { minimum: "read" } },
      { label: "agent" },
      { trigger_phrase: " /agent" },
    ]) {
      expect([JSON.stringify(raw), validate(raw)]).toEqual([JSON.stringify(raw), false]);
      expect(parseRepoConfig(raw).ok).toBe(false);
    }
    const full = {
      limits: { runs_per_thread_per_day: 5, runs_per_repo_per_hour: 10, ci_fixes_per_repo_per_day: 3 },
      kill_switch_label: "bot:off",
    };
    expect(validate(full)).toBe(true);
    expect(parseRepoConfig(full).ok).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { configInputFromStrings, configLeafKinds } from "../../../src/config/inputs.js";
import { DEFAULT_REPO_CONFIG, parseRepoConfig, repoConfigSchema } from "../../../src/config/schema.js";

interface JsonSchemaNode {
  type?: string;
  properties?: Record<string, JsonSchemaNode>;
}

describe("configuration from strings (the Action's inputs)", () => {
  it("knows the kind of every leaf", () => {
    const kinds = configLeafKinds();
    expect(kinds.get("trigger_phrase")).toBe("string");
    expect(kinds.get("check_suite.enabled")).toBe("boolean");
    expect(kinds.get("check_suite.max_attempts")).toBe("integer");
    expect(kinds.get("permissions.users")).toBe("list");
    expect(kinds.get("follow_up")).toBe("string");
    expect(kinds.size).toBe(24);
  });

  it("reads every leaf as the configuration's JSON Schema types it", () => {
    const fromJsonSchema = new Map<string, string>();
    const visit = (properties: Record<string, JsonSchemaNode>, prefix: string) => {
      for (const [key, node] of Object.entries(properties)) {
        if (node.properties) visit(node.properties, `${prefix}${key}.`);
        else
          fromJsonSchema.set(
            `${prefix}${key}`,
            node.type === "boolean" ? "boolean" : node.type === "integer" ? "integer" : node.type === "array" ? "list" : "string",
          );
      }
    };
    visit((z.toJSONSchema(repoConfigSchema(), { io: "input" }) as JsonSchemaNode).properties ?? {}, "");
    // A list of mappings has no one-string form: only the file sets `automations`.
    fromJsonSchema.delete("automations");
    expect(Object.fromEntries(configLeafKinds())).toEqual(Object.fromEntries(fromJsonSchema));
  });

  it("reads each string as its type and layers it over the file", () => {
    const file = { trigger_phrase: "/bot", check_suite: { enabled: false, branches: ["main"] }, _extends: ".github" };
    const input = configInputFromStrings(
      {
        "check_suite.enabled": "TRUE",
        "check_suite.max_attempts": " 5 ",
        "permissions.users": "alice\nbob, carol\n",
        repo_id: "12",
        model: "",
        instructions: "Keep it short.",
      },
      file,
    );
    const result = parseRepoConfig(input);
    expect(result).toEqual({
      ok: true,
      config: {
        ...DEFAULT_REPO_CONFIG,
        trigger_phrase: "/bot",
        repo_id: 12,
        instructions: "Keep it short.",
        permissions: { minimum: "write", users: ["alice", "bob", "carol"], teams: [] },
        check_suite: { ...DEFAULT_REPO_CONFIG.check_suite, enabled: true, max_attempts: 5, branches: ["main"] },
      },
      warnings: [],
    });
    // The file object is not modified.
    expect(file.check_suite.enabled).toBe(false);
  });

  it("a string that is not its type reaches the schema unchanged, named as the caller names it", () => {
    const input = configInputFromStrings({
      "check_suite.enabled": "yes",
      "check_suite.max_attempts": "three",
      "chek_suite.enabled": "true",
    });
    const result = parseRepoConfig(input, { label: (path) => `input \`${path.replace(/[._]/g, "-")}\`` });
    expect(result).toEqual({
      ok: false,
      errors: [
        "input `check-suite-enabled`: must be true or false (got text of 3 characters)",
        "input `check-suite-max-attempts`: must be an integer between 1 and 20 (got text of 5 characters)",
        "input `chek-suite`: unknown key (a typo?). Did you mean `check_suite`? Allowed keys here: trigger_phrase, mention, repo_id, model, agent_type, permissions, label, reviews, review, check_suite, limits, kill_switch_label, follow_up, instructions, automations.",
      ],
    });
  });
});

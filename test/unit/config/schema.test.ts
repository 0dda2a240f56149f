import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import * as z from "zod/mini";
import { DEFAULT_REPO_CONFIG, objectSchemaOf, repoConfigFields, repoConfigSchema, parseRepoConfig } from "../../../src/config/schema.js";
import { renderConfigReference } from "../../../src/config/reference.js";

const errorsOf = (raw: unknown): string[] => {
  const result = parseRepoConfig(raw);
  if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.config)}`);
  return result.errors;
};

describe("parseRepoConfig: defaults", () => {
  it("fills every default when the file is missing or empty", () => {
    const expected = {
      trigger_phrase: "/agent",
      mention: true,
      permissions: { minimum: "write", users: [], teams: [] },
      label: { enabled: true, name: "agent" },
      reviews: { enabled: true, changes_requested: "bridge_branches" },
      review: { max_comments: 20 },
      check_suite: { enabled: false, max_attempts: 3, branches: [], ignore_checks: [], allow_forks: false },
      limits: { runs_per_thread_per_day: 20, runs_per_repo_per_hour: 30, ci_fixes_per_repo_per_day: 20 },
      kill_switch_label: "agent:off",
      follow_up: "queue",
      instructions: "",
      automations: [],
    };
    expect(parseRepoConfig(null)).toEqual({ ok: true, config: expected, warnings: [] });
    expect(parseRepoConfig(undefined)).toEqual({ ok: true, config: expected, warnings: [] });
    expect(parseRepoConfig({})).toEqual({ ok: true, config: expected, warnings: [] });
    // Written out in schema.ts so that a step without the file builds no schema: it must be what the schema makes of {}.
    expect(DEFAULT_REPO_CONFIG).toStrictEqual(repoConfigSchema().parse({}));
    expect(DEFAULT_REPO_CONFIG).toEqual(expected);
  });

  it("keeps given values and fills the rest of a nested section", () => {
    const yaml = `
trigger_phrase: "@bot please"
repo_id: 42
model: big-model
agent_type: partner_code
permissions:
  minimum: maintain
  teams: [my-org/reviewers, triage]
check_suite:
  enabled: true
  branches: ["feature/**"]
follow_up: new
instructions: Run npm test before pushing.
`;
    const result = parseRepoConfig(parseYaml(yaml));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.trigger_phrase).toBe("@bot please");
    expect(result.config.repo_id).toBe(42);
    expect(result.config.model).toBe("big-model");
    expect(result.config.agent_type).toBe("partner_code");
    expect(result.config.permissions).toEqual({ minimum: "maintain", users: [], teams: ["my-org/reviewers", "triage"] });
    expect(result.config.check_suite).toEqual({
      enabled: true,
      max_attempts: 3,
      branches: ["feature/**"],
      ignore_checks: [],
      allow_forks: false,
    });
    expect(result.config.follow_up).toBe("new");
    expect(result.config.label).toEqual({ enabled: true, name: "agent" });
  });

  it("ignores `_extends` (Probot has merged the base file already)", () => {
    const result = parseRepoConfig({ _extends: ".github", mention: false });
    expect(result).toEqual({ ok: true, config: { ...DEFAULT_REPO_CONFIG, mention: false }, warnings: [] });
  });
});

describe("parseRepoConfig: errors name the field, what is wrong and what was given", () => {
  it("wrong type for an integer", () => {
    expect(errorsOf({ check_suite: { max_attempts: "three" } })).toEqual([
      "`check_suite.max_attempts`: must be an integer between 1 and 20 (got text of 5 characters)",
    ]);
  });

  it("out of range integers", () => {
    expect(errorsOf({ check_suite: { max_attempts: 0 } })).toEqual([
      "`check_suite.max_attempts`: must be an integer between 1 and 20 (got an integer)",
    ]);
    expect(errorsOf({ check_suite: { max_attempts: 21 } })).toEqual([
      "`check_suite.max_attempts`: must be an integer between 1 and 20 (got an integer)",
    ]);
    expect(errorsOf({ check_suite: { max_attempts: 2.5 } })).toEqual([
      "`check_suite.max_attempts`: must be an integer between 1 and 20 (got a number)",
    ]);
    expect(errorsOf({ repo_id: -1 })).toEqual(["`repo_id`: must be a positive integer (the service's repository id) (got an integer)"]);
  });

  it("unknown keys, with a suggestion and the allowed keys (typo protection)", () => {
    expect(errorsOf({ trigger_phrse: "/x" })).toEqual([
      "`trigger_phrse`: unknown key (a typo?). Did you mean `trigger_phrase`? Allowed keys here: trigger_phrase, mention, repo_id, model, agent_type, permissions, label, reviews, review, check_suite, limits, kill_switch_label, follow_up, instructions, automations.",
    ]);
    expect(errorsOf({ check_suite: { max_attemps: 2 } })[0]).toBe(
      "`check_suite.max_attemps`: unknown key (a typo?). Did you mean `max_attempts`? Allowed keys here: enabled, max_attempts, branches, ignore_checks, allow_forks.",
    );
    expect(errorsOf({ check_suite: { zzzzzzzz: 1 } })[0]).not.toContain("Did you mean");
  });

  it("enums list the allowed values", () => {
    expect(errorsOf({ permissions: { minimum: "read" } })).toEqual([
      "`permissions.minimum`: must be one of: write, maintain, admin (got text of 4 characters)",
    ]);
    expect(errorsOf({ follow_up: "later" })).toEqual(["`follow_up`: must be one of: queue, new, interrupt (got text of 5 characters)"]);
    expect(errorsOf({ agent_type: "claude" })).toEqual(["`agent_type`: must be one of: native, partner_code (got text of 6 characters)"]);
  });

  it("trigger phrase: one line, no leading or trailing space", () => {
    for (const bad of [" /agent", "/agent\nrun", "", "/agent "]) {
      expect(errorsOf({ trigger_phrase: bad })[0]).toMatch(
        /^`trigger_phrase`: must be one line that starts and ends with a non-space character/,
      );
    }
    expect(repoConfigFields().trigger_phrase.parse("@agent do")).toBe("@agent do");
  });

  it("lists, list entries and sections of the wrong shape", () => {
    expect(errorsOf({ permissions: "write" })).toEqual([
      "`permissions`: must be a mapping with the keys minimum, users, teams (got text of 5 characters)",
    ]);
    expect(errorsOf({ permissions: { users: "octocat" } })).toEqual([
      '`permissions.users`: must be a list of GitHub logins such as ["octocat"] (got text of 7 characters)',
    ]);
    expect(errorsOf({ permissions: { users: ["@octocat"] } })).toEqual([
      '`permissions.users[0]`: each entry must be a GitHub login such as "octocat" (without the @) (got text of 8 characters)',
    ]);
    expect(errorsOf({ permissions: { teams: ["a/b/c"] } })[0]).toMatch(/^`permissions\.teams\[0\]`: each entry must be a team/);
    expect(errorsOf({ check_suite: { branches: ["!main"] } })[0]).toContain('a leading "!" is not supported');
    expect(errorsOf({ label: { enabled: "yes" } })).toEqual(["`label.enabled`: must be true or false (got text of 3 characters)"]);
  });

  it("instructions are bounded", () => {
    expect(parseRepoConfig({ instructions: "x".repeat(4000) }).ok).toBe(true);
    expect(errorsOf({ instructions: "x".repeat(4001) })[0]).toMatch(
      /^`instructions`: must be at most 4000 characters \(got text of 4001 characters\)$/,
    );
  });

  it("a file that is not a mapping", () => {
    expect(errorsOf(["trigger_phrase"])).toEqual([
      "configuration: must be a YAML mapping of keys to values, such as `trigger_phrase: /agent` (got a list of 1)",
    ]);
    expect(errorsOf("/agent")).toEqual([
      "configuration: must be a YAML mapping of keys to values, such as `trigger_phrase: /agent` (got text of 6 characters)",
    ]);
  });

  it("reports every problem at once", () => {
    expect(errorsOf({ mention: "no", follow_up: 1, check_suite: { enabled: 1 } })).toHaveLength(3);
  });
});

describe("field schemas compose into other schemas (the Action's inputs)", () => {
  it("a composed schema keeps the defaults and the messages", () => {
    const ActionInputs = z.strictObject({
      trigger_phrase: repoConfigFields().trigger_phrase,
      check_suite: repoConfigFields().check_suite,
      api_url: z.string(),
    });
    expect(ActionInputs.parse({ api_url: "http://x" })).toEqual({
      api_url: "http://x",
      trigger_phrase: "/agent",
      check_suite: DEFAULT_REPO_CONFIG.check_suite,
    });
    const failed = ActionInputs.safeParse({ api_url: "x", check_suite: { max_attempts: 99 } });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.message).toBe("must be an integer between 1 and 20");
  });
});

describe("renderConfigReference", () => {
  const table = renderConfigReference();
  const rows = table.trim().split("\n");

  it("is a Markdown table with one row per leaf key, in schema order", () => {
    expect(rows[0]).toBe("| Key | Type | Default | Description |");
    expect(rows[1]).toBe("|---|---|---|---|");
    const keys = rows.slice(2).map((row) => /^\| `([^`]+)` \|/.exec(row)?.[1]);
    expect(keys).toEqual([
      "trigger_phrase",
      "mention",
      "repo_id",
      "model",
      "agent_type",
      "permissions.minimum",
      "permissions.users",
      "permissions.teams",
      "label.enabled",
      "label.name",
      "reviews.enabled",
      "reviews.changes_requested",
      "review.max_comments",
      "check_suite.enabled",
      "check_suite.max_attempts",
      "check_suite.branches",
      "check_suite.ignore_checks",
      "check_suite.allow_forks",
      "limits.runs_per_thread_per_day",
      "limits.runs_per_repo_per_hour",
      "limits.ci_fixes_per_repo_per_day",
      "kill_switch_label",
      "follow_up",
      "instructions",
      "automations",
    ]);
  });

  it("takes types, defaults and descriptions from the schema", () => {
    const row = (key: string) => rows.find((r) => r.startsWith(`| \`${key}\` |`));
    expect(row("check_suite.max_attempts")).toBe(
      `| \`check_suite.max_attempts\` | integer, 1–20 | \`3\` | ${z.globalRegistry.get((objectSchemaOf(repoConfigFields().check_suite)!._zod.def.shape as Record<string, z.core.$ZodType>).max_attempts!)?.description} |`,
    );
    expect(row("follow_up")).toContain('| `"queue"` or `"new"` or `"interrupt"` | `"queue"` |');
    expect(row("repo_id")).toContain("| positive integer | (unset) |");
    expect(row("permissions.teams")).toContain("| list of strings | `[]` |");
    expect(row("trigger_phrase")).toContain('`"/agent"`');
    // Every description in the table is the one registered on the schema.
    const described = JSON.stringify(z.toJSONSchema(repoConfigSchema(), { io: "input" }));
    for (const r of rows.slice(2)) {
      const description = r.split(" | ")[3]!.replace(/ \|$/, "");
      expect(described).toContain(JSON.stringify(description).slice(1, -1));
    }
  });
});

/**
 * The Action's own defaults for an event come from one table (config/action-defaults.ts): the Action
 * applies it where the file is silent, and the configuration reference prints it beside the schema's
 * default, so docs/configuration.md cannot promise `false` while the Action acts on `true`.
 */
import { describe, expect, it } from "vitest";
import { ACTION_EVENT_DEFAULTS, actionDefaultNote, actionEventDefaults, fileSetsPath } from "../../../src/config/action-defaults.js";
import { DEFAULT_REPO_CONFIG, renderConfigReference } from "../../../src/config/index.js";
import { readDoc } from "../../../scripts/doc-sections.js";

describe("the Action's defaults per event", () => {
  it("a workflow_run workflow turns CI auto-fix on where the file is silent, never over the file", () => {
    expect(actionEventDefaults("workflow_run", undefined)).toEqual({ "check_suite.enabled": "true" });
    expect(actionEventDefaults("workflow_run", { check_suite: { max_attempts: 2 } })).toEqual({ "check_suite.enabled": "true" });
    expect(actionEventDefaults("workflow_run", { check_suite: { enabled: false } })).toEqual({});
    expect(actionEventDefaults("issue_comment", undefined)).toEqual({});
    expect(fileSetsPath({ check_suite: null }, "check_suite.enabled")).toBe(false);
  });

  it("the App's default stays the schema's", () => {
    expect(DEFAULT_REPO_CONFIG.check_suite.enabled).toBe(false);
  });

  it("every key of the table is said in the configuration reference and in docs/configuration.md, beside its default", () => {
    const reference = renderConfigReference();
    const page = readDoc("docs/configuration.md");
    for (const [event, values] of Object.entries(ACTION_EVENT_DEFAULTS)) {
      for (const [path, value] of Object.entries(values)) {
        const note = actionDefaultNote(path);
        expect(note).toContain(`the Action on \`${event}\`: \`${value}\``);
        const row = reference.split("\n").find((line) => line.startsWith(`| \`${path}\` |`));
        expect(row).toContain(note);
        expect(page).toContain(row);
      }
    }
  });
});

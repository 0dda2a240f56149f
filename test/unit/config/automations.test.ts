import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { checkConfigText } from "../../../src/config/check-file.js";
import { parseRepoConfig } from "../../../src/config/schema.js";

const FILE = `
trigger_phrase: /bot
automations:
  - name: triage-bugs
    on: issues.opened
    prompt: Reproduce this bug and open a pull request that fixes it.
    labels: [bug]
  - name: Bad Name
    on: issues.opened
    prompt: x
  - name: review-src
    on: pull_request.opened
    prompt: Review the change.
    paths: ["src/**"]
    promt: typo
  - name: triage-bugs
    on: pull_request.ready_for_review
    prompt: a second entry under a name already taken
  - name: review-ready
    on: pull_request.ready_for_review
    prompt: Review it now that it is ready.
`;

describe("automations in .github/agent-run.yml", () => {
  it("an invalid entry is skipped and reported; the valid entries and the rest of the file still apply", () => {
    const result = parseRepoConfig(parseYaml(FILE));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.trigger_phrase).toBe("/bot");
    expect(result.config.automations.map((automation) => automation.name)).toEqual(["triage-bugs", "review-ready"]);
    expect(result.config.automations[0]).toEqual({
      name: "triage-bugs",
      on: "issues.opened",
      prompt: "Reproduce this bug and open a pull request that fixes it.",
      labels: ["bug"],
      paths: [],
      mode: "run",
      drafts: false,
    });
    expect(result.warnings).toEqual([
      '`automations[1].name`: must be 1 to 40 lowercase letters, digits or hyphens, such as "triage-bugs" (got text of 8 characters)',
      "`automations[2].promt`: unknown key (a typo?). Did you mean `prompt`? Allowed keys here: name, on, prompt, labels, paths, mode, drafts.",
      "`automations[3].name`: the same name as `automations[0]`; names must be unique (this entry is skipped)",
    ]);
  });

  it("an unknown event is named with the ones there are", () => {
    const result = parseRepoConfig({ automations: [{ name: "x", on: "issues.closed", prompt: "p" }] });
    expect(result.ok && result.warnings).toEqual([
      "`automations[0].on`: must be one of issues.opened, pull_request.opened, pull_request.ready_for_review (got text of 13 characters)",
    ]);
  });

  it("a broken rest of the file still fails, with the automations' problems among its errors", () => {
    const result = parseRepoConfig({ follow_up: "later", automations: [{ name: "x", on: "issues.opened" }] });
    expect(result).toEqual({
      ok: false,
      errors: [
        "`follow_up`: must be one of: queue, new, interrupt (got text of 5 characters)",
        "`automations[0].prompt`: must be the instruction for the agent (text) (missing)",
      ],
    });
  });

  it("`agent-run config check` points at the line of a skipped automation and fails", () => {
    const check = checkConfigText(FILE, "agent-run.yml");
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems[0]).toMatch(/^agent-run\.yml:8:11: `automations\[1\]\.name`: must be 1 to 40 lowercase letters/);
    expect(check.problems).toHaveLength(3);
  });
});

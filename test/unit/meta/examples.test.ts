/**
 * The examples are files a reader copies, so each is checked the way its consumer reads it: every
 * workflow in examples/workflows/ against GitHub's own workflow parser and schema
 * (@actions/workflow-parser), its steps that use this action against action.yml, and its header for a
 * security note. (examples/agent-run.yml is checked against the configuration schema in
 * test/unit/config/json-schema.test.ts, examples/app.env against the App's settings in docs.test.ts.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WORKFLOWS = join(ROOT, "examples/workflows");
/** A step that runs this action: `OWNER/agent-run-bridge@ref` (any owner, any ref). */
const THIS_ACTION = /^[^/\s]+\/agent-run-bridge@\S+$/;

interface ActionManifest {
  inputs: Record<string, { required?: boolean; default?: string }>;
}
interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs?: Record<string, { steps?: Step[] }>;
}

const manifest = parseYaml(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionManifest;
const requiredInputs = Object.entries(manifest.inputs)
  .filter(([, input]) => input.required && input.default === undefined)
  .map(([name]) => name);

/** What is wrong with the inputs a workflow gives this action: unknown keys and missing required inputs, per step. */
function inputProblems(content: string): string[] {
  const steps = Object.values((parseYaml(content) as Workflow).jobs ?? {})
    .flatMap((job) => job.steps ?? [])
    .filter((step) => THIS_ACTION.test(step.uses ?? ""));
  return steps.flatMap((step, index) => {
    const given = Object.keys(step.with ?? {});
    return [
      ...given.filter((key) => !(key in manifest.inputs)).map((key) => `step ${index + 1}: \`${key}\` is not an input of action.yml`),
      ...requiredInputs.filter((key) => !given.includes(key)).map((key) => `step ${index + 1}: the required input \`${key}\` is missing`),
    ];
  });
}

/** The leading comment lines of a file: its header. */
const headerOf = (text: string) => text.slice(0, text.search(/^[^#\n]/m));

describe("examples/workflows/", () => {
  const files = readdirSync(WORKFLOWS);

  it("holds the three workflows the docs name, and only workflow files", () => {
    expect(files).toEqual(expect.arrayContaining(["comment-triggered.yml", "ci-fix.yml", "scheduled-batch.yml"]));
    expect(files.filter((name) => !/\.ya?ml$/.test(name))).toEqual([]);
  });

  describe.each(files)("%s", (name) => {
    const content = readFileSync(join(WORKFLOWS, name), "utf8");

    it("passes GitHub's workflow schema", () => {
      const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual([]);
      expect(parsed.value).toBeDefined();
    });

    it("says in its header what it trusts (a `# Security:` note)", () => {
      expect(headerOf(content)).toMatch(/^# Security: \S/m);
    });

    it("gives this action only inputs of action.yml, and every required one", () => {
      expect(inputProblems(content)).toEqual([]);
    });
  });

  it("the checks catch a workflow that breaks GitHub's schema, misspells an input or leaves a required one out", () => {
    const broken = [
      "on: push",
      "jobs:",
      "  agent:",
      "    runs-on: ubuntu-latest",
      "    stepz: []",
      "    steps:",
      "      - uses: octo-org/agent-run-bridge@v1",
      "        with: { api-url: https://agents.example.com, api-tokn: x }",
    ].join("\n");
    const parsed = parseWorkflow({ name: "broken.yml", content: broken }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual([expect.stringContaining("'stepz'")]);
    expect(inputProblems(broken)).toEqual([
      "step 1: `api-tokn` is not an input of action.yml",
      "step 1: the required input `api-token` is missing",
      "step 1: the required input `org-id` is missing",
    ]);
    expect(headerOf(broken)).toBe("");
  });
});

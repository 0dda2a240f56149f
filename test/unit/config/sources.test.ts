/**
 * Where a repository's settings may come from (config/sources.ts), and that no message about a
 * configuration file quotes a value written in it (issues.ts, yaml-problems.ts).
 */
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "../../../src/config/json-schema.js";
import { parseRepoConfig } from "../../../src/config/schema.js";
import {
  judgeExtends,
  judgeSourceVisibility,
  labelWithOrigin,
  visibilityOf,
  type ConfigFileRef,
  type RepoVisibility,
} from "../../../src/config/sources.js";
import { readConfigYaml } from "../../../src/config/yaml-problems.js";

const REPO = { owner: "octo-org", repo: "widgets" };
const OWN: ConfigFileRef = { ...REPO, path: ".github/agent-run.yml" };

describe("judgeExtends", () => {
  it("lets a file name this repository or the owner's .github, with Probot's reading of the value", () => {
    expect(judgeExtends(".github", OWN, REPO)).toEqual({
      ok: true,
      target: { owner: "octo-org", repo: ".github", path: ".github/agent-run.yml" },
      crossesRepository: true,
    });
    expect(judgeExtends("Octo-Org/.github:defaults/agent.yaml", OWN, REPO)).toMatchObject({
      ok: true,
      target: { owner: "octo-org", repo: ".github", path: "defaults/agent.yaml" },
    });
    expect(judgeExtends("widgets:.github/base.yml", OWN, REPO)).toEqual({
      ok: true,
      target: { owner: "octo-org", repo: "widgets", path: ".github/base.yml" },
      crossesRepository: false,
    });
  });

  it("refuses another repository of the owner, any repository of another owner, and what is no file name, naming the rule and not the value", () => {
    for (const value of ["payroll", "octo-org/payroll", "other-org/.github", "other-org/widgets:x.yml", "", 7, ["a"], "a b"]) {
      const judged = judgeExtends(value, OWN, REPO);
      expect(judged.ok, JSON.stringify(value)).toBe(false);
      const problem = (judged as { problem: string }).problem;
      expect(problem).toMatch(/^`_extends` in `\.github\/agent-run\.yml`: /);
      expect(problem).toContain("settings are read only from this repository and the owner's `.github` repository");
      if (typeof value === "string" && value.length > 3) expect(problem).not.toContain(value);
    }
  });
});

describe("judgeSourceVisibility", () => {
  const judge = (configured: RepoVisibility, source: RepoVisibility) =>
    judgeSourceVisibility({
      configured,
      source,
      file: { owner: "octo-org", repo: ".github", path: ".github/agent-run.yml" },
      via: "extends",
      repo: REPO,
    });

  it("allows the same visibility or a less private one: public < internal < private", () => {
    expect(judge("public", "public")).toBeNull();
    expect(judge("internal", "public")).toBeNull();
    expect(judge("internal", "internal")).toBeNull();
    expect(judge("private", "internal")).toBeNull();
    expect(judge("private", "public")).toBeNull();
  });

  it("refuses a more private source, naming the rule", () => {
    expect(judge("public", "internal")).toContain("which is internal while this repository is public");
    expect(judge("public", "private")).toContain("which is private while this repository is public");
    expect(judge("internal", "private")).toContain(
      "settings are never read from a repository more private than the one they configure (public, then internal, then private)",
    );
  });

  it("reads GitHub's visibility, else the private flag, and takes what it cannot read as private", () => {
    expect(visibilityOf({ visibility: "internal", private: true })).toBe("internal");
    expect(visibilityOf({ private: false })).toBe("public");
    expect(visibilityOf({ visibility: "secret" })).toBe("private");
    expect(visibilityOf({})).toBe("private");
  });
});

describe("labelWithOrigin", () => {
  it("names a key set by another file with that file", () => {
    const label = labelWithOrigin(
      new Map([
        ["follow_up", OWN],
        ["permissions", { owner: "octo-org", repo: ".github", path: ".github/agent-run.yml" }],
        ["mention", { ...REPO, path: ".github/base.yml" }],
      ]),
      REPO,
    );
    expect(label("follow_up")).toBe("`follow_up`");
    expect(label("permissions.users[0]")).toBe("`permissions.users[0]` (in `.github/agent-run.yml` of the owner's `.github` repository)");
    expect(label("mention")).toBe("`mention` (in `.github/base.yml`)");
    expect(label("")).toBe("configuration");
  });
});

describe("no message quotes a value of the file", () => {
  const SECRET = "codename-NIGHTJAR-42";

  /** Every key path of the schema (from its JSON Schema), e.g. `permissions.minimum`. */
  function keyPaths(): string[][] {
    const paths: string[][] = [];
    const visit = (node: { properties?: Record<string, unknown> }, prefix: string[]) => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        const nested = child as { properties?: Record<string, unknown> };
        if (nested.properties) visit(nested, [...prefix, key]);
        else paths.push([...prefix, key]);
      }
    };
    visit(configJsonSchema() as { properties?: Record<string, unknown> }, []);
    return paths.filter((path) => path[0] !== "_extends");
  }

  const at = (path: string[], value: unknown): Record<string, unknown> =>
    path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;

  it("whatever the key and whatever shape the secret is given in", () => {
    const shapes = [SECRET, [SECRET], { [SECRET.toLowerCase()]: SECRET }, `${SECRET}\n${"x".repeat(5000)}`, [1, SECRET]];
    let invalid = 0;
    for (const path of keyPaths()) {
      for (const shape of shapes) {
        const result = parseRepoConfig(at(path, shape));
        if (result.ok) continue;
        invalid++;
        for (const error of result.errors) expect(error, path.join(".")).not.toContain(SECRET);
      }
    }
    expect(invalid).toBeGreaterThan(keyPaths().length * 3);
  });

  it("a YAML mistake says where and what kind, never the line's text, and writes no process warning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      for (const text of [
        `a: *${SECRET}\n`,
        `a: [${SECRET}\n`,
        `a: !${SECRET} x\n`,
        `a: "${SECRET}\\q"\n`,
        `a: ${SECRET}\na: 2\n`,
        `\ta: ${SECRET}\n`,
      ]) {
        const read = readConfigYaml(parseDocument, text, "`.github/agent-run.yml`");
        expect(read.ok, text).toBe(false);
        const problem = (read as { problem: string }).problem;
        expect(problem).toMatch(/^`\.github\/agent-run\.yml`( line \d+, column \d+)?: not valid YAML \(/);
        expect(problem).not.toContain("NIGHTJAR");
      }
      // Let a warning emitted on the way (process.emitWarning is asynchronous) arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

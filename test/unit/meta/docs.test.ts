import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applySections, readmeSections, readReadme } from "../../../scripts/readme-sections.js";
import { BRIDGE_VERSION } from "../../../src/version.js";

describe("documentation and metadata stay true", () => {
  it("the README's generated tables match the schema, action.yml and the renderer (run `npm run docs`)", () => {
    const readme = readReadme();
    expect(applySections(readme, readmeSections())).toBe(readme);
  });

  it("the README leads with the two set-up commands", () => {
    const readme = readReadme();
    const firstBlock = readme.slice(readme.indexOf("```sh"), readme.indexOf("```", readme.indexOf("```sh") + 5));
    expect(firstBlock).toContain("npm ci && npm run demo");
    expect(firstBlock).toContain("npm test");
  });

  it("the version baked into bundles equals package.json's", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(BRIDGE_VERSION).toBe(pkg.version);
  });
});

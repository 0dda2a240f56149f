/**
 * .github/workflows/release.yml cannot run here; its shape is checked instead: a version tag starts it, it grants
 * no permission by default and each job only what it needs, every action is pinned to a full commit SHA with its
 * release tag beside it, the image is built for amd64 and arm64 and pushed to ghcr.io with provenance, and the npm
 * package is published with npm provenance.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const TEXT = readFileSync(new URL("../../../.github/workflows/release.yml", import.meta.url), "utf8");

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
const workflow = parse(TEXT) as { on: { push: { tags: string[] } }; permissions: Record<string, string>; jobs: Record<string, Job> };

/** `uses:` lines that are not `owner/repo@<40 hex digits> # vX.Y.Z` (a tag or branch can be moved; a SHA cannot). */
function unpinnedUses(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^\s*(-\s+)?uses:/.test(line))
    .filter((line) => !/uses:\s+[\w.-]+\/[\w.-]+@[0-9a-f]{40}\s+#\s+v\d+\.\d+\.\d+\s*$/.test(line))
    .map((line) => line.trim());
}

const stepUsing = (job: Job, action: string) => job.steps.find((step) => step.uses?.startsWith(`${action}@`));

describe("the release workflow", () => {
  it("runs on a version tag and checks the tag against package.json first", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*.*.*"] } });
    expect(workflow.jobs.image!.needs).toBe("version");
    expect(workflow.jobs.npm!.needs).toBe("version");
    expect(workflow.jobs.version!.steps.map((step) => step.run ?? "").join("\n")).toContain("require('./package.json').version");
  });

  it("grants nothing by default, and each job only what it needs", () => {
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.version!.permissions).toEqual({ contents: "read" });
    expect(workflow.jobs.image!.permissions).toEqual({ contents: "read", packages: "write" });
    expect(workflow.jobs.npm!.permissions).toEqual({ contents: "read", "id-token": "write" });
  });

  it("pins every action to a full commit SHA, naming its release tag", () => {
    expect(TEXT).toMatch(/uses:/);
    expect(unpinnedUses(TEXT)).toEqual([]);
    // The check itself: a tag or a short SHA would not pass.
    expect(unpinnedUses("      - uses: actions/checkout@v7\n      - uses: actions/checkout@3d3c42e # v7.0.1")).toHaveLength(2);
    for (const job of Object.values(workflow.jobs))
      expect(stepUsing(job, "actions/checkout")?.with).toMatchObject({ "persist-credentials": false });
  });

  it("builds the image for amd64 and arm64 and pushes it to ghcr.io with provenance and an SBOM", () => {
    const image = workflow.jobs.image!;
    expect(stepUsing(image, "docker/login-action")?.with).toMatchObject({ registry: "ghcr.io", password: "${{ secrets.GITHUB_TOKEN }}" });
    expect(stepUsing(image, "docker/metadata-action")?.with?.images).toBe("ghcr.io/${{ github.repository_owner }}/agent-run-bridge");
    const build = stepUsing(image, "docker/build-push-action")!.with!;
    expect(String(build.platforms).split(",").sort()).toEqual(["linux/amd64", "linux/arm64"]);
    expect(build).toMatchObject({ push: true, provenance: "mode=max", sbom: true, tags: "${{ steps.meta.outputs.tags }}" });
    expect(stepUsing(image, "docker/setup-qemu-action")).toBeDefined();
  });

  it("publishes the npm package with npm provenance, from a clean install", () => {
    const npm = workflow.jobs.npm!;
    expect(stepUsing(npm, "actions/setup-node")?.with).toMatchObject({ "registry-url": "https://registry.npmjs.org" });
    const runs = npm.steps.map((step) => step.run).filter(Boolean);
    expect(runs).toContain("npm ci --no-audit --no-fund");
    const publish = npm.steps.find((step) => step.run?.startsWith("npm publish"))!;
    expect(publish.run).toContain("--provenance");
    expect(publish.env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
  });
});

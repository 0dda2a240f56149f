/**
 * The release workflow moves the major tag (`v1`) to each release, as actions/checkout does: the
 * README's `uses: OWNER/agent-run-bridge@v1` exists only because of it. The workflow passes GitHub's
 * own parser, and its step's script runs here against a local repository with a bare "origin".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CONTENT = readFileSync(join(ROOT, ".github/workflows/release.yml"), "utf8");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  steps: Step[];
}
const workflow = parseYaml(CONTENT) as { on: { push: { tags: string[] } }; jobs: Record<string, Job> };
const job = workflow.jobs["major-tag"]!;
const moveStep = job?.steps.find((step) => step.name === "Point the major tag at this release");

describe("release.yml moves the major tag", () => {
  it("passes GitHub's workflow parser", () => {
    const parsed = parseWorkflow({ name: "release.yml", content: CONTENT }, new NoOperationTraceWriter());
    expect(parsed.context.errors.getErrors().map((error) => error.message)).toEqual([]);
  });

  it("has a job that runs on each version tag, after the version check, allowed to push a tag and nothing more", () => {
    expect(workflow.on.push.tags).toEqual(["v*.*.*"]);
    expect(job.needs).toBe("version");
    expect(job.permissions).toEqual({ contents: "write" });
    expect(job.steps[0]).toMatchObject({ uses: expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/), with: { "fetch-depth": 0 } });
    // The token is handed to the one push, never left in .git/config (persist-credentials: false).
    expect(job.steps[0]?.with?.["persist-credentials"]).toBe(false);
    expect(moveStep).toMatchObject({
      env: { TAG: "${{ github.ref_name }}", GITHUB_TOKEN: "${{ github.token }}" },
      run: expect.stringContaining("push --force origin"),
    });
  });

  describe("its script, run against a local repository", () => {
    let dir: string;
    const git = (cwd: string, ...args: string[]) =>
      execFileSync("git", args, {
        cwd,
        encoding: "utf8",
        stdio: "pipe",
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.com",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.com",
        },
      }).trim();
    const work = () => join(dir, "work");
    const origin = () => join(dir, "origin.git");
    /** A release: a commit tagged (annotated, as a release is) and pushed; returns the commit. */
    const release = (tag: string) => {
      writeFileSync(join(work(), "VERSION"), tag);
      git(work(), "commit", "-qam", tag);
      git(work(), "tag", "-a", tag, "-m", tag);
      git(work(), "push", "-q", "origin", `refs/tags/${tag}`);
      return git(work(), "rev-parse", "HEAD");
    };
    const runStep = (tag: string) =>
      execFileSync("bash", ["-c", moveStep!.run!], { cwd: work(), encoding: "utf8", env: { ...process.env, TAG: tag }, stdio: "pipe" });
    const originTag = (name: string) => {
      try {
        return git(origin(), "rev-parse", `refs/tags/${name}^{commit}`);
      } catch {
        return undefined;
      }
    };

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "major-tag-"));
      git(dir, "init", "-q", "--bare", origin());
      git(dir, "clone", "-q", origin(), work());
      writeFileSync(join(work(), "VERSION"), "");
      git(work(), "add", "VERSION");
      git(work(), "commit", "-qm", "start");
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("creates v1 at the first release, then moves it to each newer one", () => {
      const first = release("v1.0.0");
      expect(runStep("v1.0.0")).toContain("v1 now points at v1.0.0");
      expect(originTag("v1")).toBe(first);
      const second = release("v1.1.0");
      runStep("v1.1.0");
      expect(originTag("v1")).toBe(second);
    });

    it("leaves it for a prerelease and for an older patch released after a newer one", () => {
      const current = originTag("v1");
      release("v1.2.0-rc.1");
      expect(runStep("v1.2.0-rc.1")).toContain("prerelease");
      git(work(), "checkout", "-q", "v1.0.0");
      release("v1.0.1");
      expect(runStep("v1.0.1")).toContain("is not the newest v1 release (v1.1.0 is)");
      expect(originTag("v1")).toBe(current);
    });

    it("a new major version gets its own tag and leaves the old one", () => {
      const v1 = originTag("v1");
      const v2 = release("v2.0.0");
      runStep("v2.0.0");
      expect(originTag("v2")).toBe(v2);
      expect(originTag("v1")).toBe(v1);
    });
  });
});

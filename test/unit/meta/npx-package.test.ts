/**
 * `npx agent-run …` outside a project that has agent-run-bridge installed runs another npm package,
 * one named `agent-run`: a user who copied it would run a stranger's code. Every place that tells a
 * person how to run the CLI says `npx -p agent-run-bridge agent-run …` (or `--package=agent-run-bridge`),
 * and this scan keeps it so: the docs, the examples, the strings in src/, action.yml, the Dockerfile.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FILES = ["README.md", "CONTRIBUTING.md", "AGENTS.md", "SECURITY.md", "action.yml", "Dockerfile", ".env.example", "app.yml"];
const FOLDERS = ["docs", "examples", "src", "deploy", "demo"];

/**
 * `npx` (or `npm exec`) whose command is `agent-run`, with no `-p`/`--package` naming agent-run-bridge
 * among its options. `npx agent-run-bridge …` is the package itself, and is fine.
 */
const BARE_NPX = /\b(?:npx|npm\s+exec)((?:\s+-{1,2}[\w-]+(?:[= ]\S+)?)*)\s+(?:--\s+)?agent-run(?![\w-])/g;
const NAMES_OUR_PACKAGE = /(?:-p|--package)[= ]agent-run-bridge(?:@\S*)?(?:\s|$)/;

export function bareNpxIn(text: string): string[] {
  return [...text.matchAll(BARE_NPX)].filter((match) => !NAMES_OUR_PACKAGE.test(`${match[1]!} `)).map((match) => match[0]);
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("the CLI is never run as a bare `npx agent-run`", () => {
  it("the scan sees a bare one and lets the package's own forms pass", () => {
    expect(bareNpxIn("run `npx agent-run config check` first")).toEqual(["npx agent-run"]);
    expect(bareNpxIn("PORT=3001 npx --yes agent-run app &")).toEqual(["npx --yes agent-run"]);
    expect(bareNpxIn("npm exec -- agent-run get 1")).toEqual(["npm exec -- agent-run"]);
    expect(bareNpxIn("npx -p some-other agent-run app")).toEqual(["npx -p some-other agent-run"]);
    expect(
      bareNpxIn(
        "npx -p agent-run-bridge agent-run app; npx --package=agent-run-bridge@1 agent-run get 1; npx agent-run-bridge get 1; npx -y -p agent-run-bridge agent-run logs 2",
      ),
    ).toEqual([]);
  });

  it("in the docs, the examples, src/, action.yml and the Dockerfile", () => {
    const paths = [...FILES.map((name) => join(ROOT, name)), ...FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder)))];
    expect(paths.length).toBeGreaterThan(100);
    const found = paths.flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, index) => bareNpxIn(line).map((hit) => `${relative(ROOT, path)}:${index + 1}: ${hit}`)),
    );
    expect(found).toEqual([]);
  });
});

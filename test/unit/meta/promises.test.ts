/**
 * What the documentation promises a reader who copies from it, checked against the thing it names:
 * every `agent-run <command>` (and every command given to the image) is a command of the CLI, every
 * example workflow has its row in docs/action.md, the image tags the pages name are the ones the
 * release workflow pushes and the ones they pin are this version, and `.env.example` sets what the
 * App requires and recommends and points only at files and headings that exist.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import GithubSlugger from "github-slugger";
import markdownIt, { type Token } from "markdown-it";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { APP_SETTING_DOCS, requiredSettings, settingsTheAppReads } from "../../../scripts/docs/app-settings.js";
import { CliContext } from "../../../src/cli/context.js";
import { buildProgram } from "../../../src/cli/program.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const parser = markdownIt({ html: true });

/** The pages and files a reader copies commands from. */
function readerFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  const examples = readdirSync(join(ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ya?ml|env|md)$/.test(name))
    .map((name) => `examples/${name}`);
  const deploy = readdirSync(join(ROOT, "deploy"), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => `deploy/${name}`);
  const top = ["README.md", "CONTRIBUTING.md", "AGENTS.md", "Dockerfile", ".env.example", "compose.yaml", "compose.embedded.yaml"];
  return [...top, ...docs, ...examples, ...deploy];
}

/** What a reader would run from a file: a Markdown page's code (spans, blocks), any other file whole. */
function codeOf(file: string): string {
  const text = read(file);
  if (!file.endsWith(".md")) return text;
  const code: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "fence" || token.type === "code_block" || token.type === "code_inline") code.push(token.content);
      if (token.children) visit(token.children);
    }
  };
  visit(parser.parse(text, {}));
  return code.join("\n");
}

/** The CLI's command tree, from the program itself: "create", "config check", … */
function cliCommands(): Map<string, Command> {
  const context = new CliContext({
    stdout: { write: () => true },
    stderr: { write: () => true },
    stdin: (async function* () {})(),
    env: {},
    isTTY: false,
  });
  const commands = new Map<string, Command>();
  const visit = (command: Command, prefix: string) => {
    for (const sub of command.commands) {
      const path = `${prefix}${sub.name()}`;
      commands.set(path, sub);
      visit(sub, `${path} `);
    }
  };
  visit(buildProgram(context), "");
  return commands;
}

/**
 * The commands a text runs: `agent-run <words>` and the image's arguments (`ghcr.io/…/agent-run-bridge:tag <words>`),
 * each as far as its words name a command (a word after a command without subcommands is its argument).
 */
function commandsRunIn(text: string, known: Map<string, Command>): Array<{ said: string; problem: string | null }> {
  const invocations = [
    ...text.matchAll(/(?<![\w./-])agent-run(?![\w-])((?:[ \t]+[a-z][a-z-]*)+)/g),
    ...text.matchAll(/(?<!=)ghcr\.io\/[^\s/]+\/agent-run-bridge(?::[^\s`'"]+)?((?:[ \t]+[a-z][a-z-]*)+)/g),
  ];
  return invocations.map((match) => {
    const words = match[1]!.trim().split(/[ \t]+/);
    let path = "";
    for (const word of words) {
      const next = path ? `${path} ${word}` : word;
      const parent = path ? known.get(path) : undefined;
      // A command without subcommands takes the word as its argument.
      if (parent && parent.commands.length === 0) break;
      if (!known.has(next)) return { said: match[0], problem: `\`${next}\` is not a command of the CLI` };
      path = next;
    }
    return { said: match[0], problem: null };
  });
}

describe("every documented command exists", () => {
  const known = cliCommands();

  it("reads the CLI's command tree from the program (subcommands included)", () => {
    expect([...known.keys()]).toEqual(expect.arrayContaining(["create", "get", "logs", "config", "config check", "app", "emulator"]));
  });

  it("catches a command the CLI does not have (the Dockerfile once suggested `… runs list`)", () => {
    expect(commandsRunIn("docker run ghcr.io/OWNER/agent-run-bridge:1.0.0 runs list", known)).toEqual([
      { said: expect.any(String), problem: "`runs` is not a command of the CLI" },
    ]);
    expect(commandsRunIn("npx agent-run config lint .github/agent-run.yml", known)[0]!.problem).toContain("`config lint`");
    expect(commandsRunIn("agent-run get 1842 --json; agent-run config check x.yml", known).map((found) => found.problem)).toEqual([
      null,
      null,
    ]);
  });

  it.each(readerFiles())("%s runs only commands of the CLI", (file) => {
    const problems = commandsRunIn(codeOf(file), known).filter((found) => found.problem !== null);
    expect(problems).toEqual([]);
  });
});

describe("docs/action.md's workflow table", () => {
  it("has a row for every workflow in examples/workflows/, and none for a workflow that is not there", () => {
    const files = readdirSync(join(ROOT, "examples/workflows")).sort();
    const page = read("docs/action.md");
    const table = page.slice(page.indexOf("| Workflow |"), page.indexOf("\n\n", page.indexOf("| Workflow |")));
    const rows = [...table.matchAll(/^\| \[`([^`]+)`\]\(\.\.\/examples\/workflows\/([^)]+)\) \|/gm)];
    expect(rows.every((row) => row[1] === row[2])).toBe(true);
    expect(rows.map((row) => row[1]).sort()).toEqual(files);
  });
});

describe("the container image's tags", () => {
  const version = (JSON.parse(read("package.json")) as { version: string }).version;

  /** The tags release.yml's docker/metadata-action pushes for a tag vX.Y.Z, in the docs' notation. */
  function releasedTags(): string[] {
    const workflow = parseYaml(read(".github/workflows/release.yml")) as {
      jobs: Record<string, { steps?: Array<{ uses?: string; with?: { tags?: string; flavor?: string } }> }>;
    };
    const meta = Object.values(workflow.jobs)
      .flatMap((job) => job.steps ?? [])
      .find((step) => step.uses?.startsWith("docker/metadata-action@"));
    expect(meta?.with?.tags).toBeDefined();
    const notation: Record<string, string> = { "{{version}}": "X.Y.Z", "{{major}}.{{minor}}": "X.Y", "{{major}}": "X" };
    const tags = [...meta!.with!.tags!.matchAll(/type=semver,pattern=(\S+)/g)].map((match) => notation[match[1]!] ?? match[1]!);
    // metadata-action adds `latest` to a semver release unless the flavor says latest=false.
    if (!/latest=false/.test(meta!.with!.flavor ?? "")) tags.push("latest");
    return tags;
  }

  const listed = (tags: string[]) =>
    `${tags
      .slice(0, -1)
      .map((tag) => `\`${tag}\``)
      .join(", ")} and \`${tags.at(-1)}\``;

  it("docs/containers.md and CONTRIBUTING.md name the tags release.yml pushes", () => {
    const tags = releasedTags();
    expect(tags).toContain("X.Y.Z");
    expect(read("docs/containers.md").replace(/\s+/g, " ")).toContain(`pushed as ${listed(tags)}`);
    expect(read("CONTRIBUTING.md").replace(/\s+/g, " ")).toContain(`(tags ${listed(tags)}`);
  });

  it.each(readerFiles())("%s pins the image to this version, and runs it only pinned", (file) => {
    const text = read(file);
    const pinned = [...text.matchAll(/ghcr\.io\/(?:OWNER|<owner>)\/agent-run-bridge:([^\s`'"]+)/g)].map((match) => match[1]!);
    expect(pinned.filter((tag) => tag !== version && tag !== "<version>")).toEqual([]);
    // Every `docker run` of the published image names its tag: one version, the same on every page.
    const unpinnedRuns = text.split("\n").filter((line) => /docker run\b.*ghcr\.io\/\S+\/agent-run-bridge(?![:\w-])/.test(line));
    expect(unpinnedRuns).toEqual([]);
  });
});

describe(".env.example", () => {
  const text = read(".env.example");
  const set = new Set([...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));

  it("sets every setting the App requires (one of each alternative) and every one the settings table recommends", () => {
    const missing = [...requiredSettings()].filter(
      ([name, alternatives]) => !set.has(name) && !alternatives.some((other) => set.has(other)),
    );
    expect(missing.map(([name]) => name)).toEqual([]);
    const recommended = Object.entries(APP_SETTING_DOCS)
      .filter(([, doc]) => doc.meaning.includes("**Recommended**"))
      .map(([name]) => name);
    expect(recommended).toContain("ALLOWED_OWNERS");
    expect(recommended.filter((name) => !set.has(name))).toEqual([]);
  });

  it("names only settings the App reads", () => {
    const named = [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]{2,})=/gm)].map((match) => match[1]!);
    const reads = new Set(settingsTheAppReads());
    expect(named.filter((name) => !reads.has(name))).toEqual([]);
  });

  it("points only at files and headings that exist", () => {
    const pointers = [...text.matchAll(/(?<![\w.-])((?:docs|examples)\/[\w./-]+|[\w-]+\.(?:md|ya?ml))(?:#([\w-]+))?/g)];
    expect(pointers.length).toBeGreaterThan(2);
    const problems = pointers.flatMap(([said, file, anchor]) => {
      if (!existsSync(join(ROOT, file!))) return [`${said}: no such file`];
      if (!anchor) return [];
      const slugger = new GithubSlugger();
      const tokens = parser.parse(read(file!), {});
      const anchors = tokens.flatMap((token, index) =>
        token.type === "heading_open" ? [slugger.slug((tokens[index + 1]?.children ?? []).map((child) => child.content).join(""))] : [],
      );
      return anchors.includes(anchor) ? [] : [`${said}: no such heading`];
    });
    expect(problems).toEqual([]);
    expect(text).not.toMatch(/README'?s? settings/);
  });
});

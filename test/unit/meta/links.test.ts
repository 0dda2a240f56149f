/**
 * Every relative link in the repository's Markdown resolves: to a file or folder that exists, and to
 * a heading of the page it names, by GitHub's anchors (github-slugger). Links are read with a
 * CommonMark parser (markdown-it), as GitHub reads them, so a link in a code block is not a link.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import GithubSlugger from "github-slugger";
import markdownIt, { type Token } from "markdown-it";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** Built, installed or local folders: not the project's documentation. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules", "dist", "lib", "coverage", ".data", ".cache"]);

/**
 * Pages that other branches of this round add (the container image's page, the automations page): linked
 * from here already. Each entry must go once its page exists (the last test says so).
 */
const PAGES_ON_OTHER_BRANCHES: string[] = [];

const parser = markdownIt({ html: true });

function markdownFiles(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : markdownFiles(join(folder, entry.name));
    return entry.name.endsWith(".md") ? [join(folder, entry.name)] : [];
  });
}

/** The text GitHub slugs a heading from: its inline text and code, without the markup. */
function headingText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((child) => child.type === "text" || child.type === "code_inline")
    .map((child) => child.content)
    .join("");
}

interface Page {
  links: string[];
  anchors: Set<string>;
}

const pages = new Map<string, Page>();

function readPage(file: string): Page {
  const known = pages.get(file);
  if (known) return known;
  const tokens = parser.parse(readFileSync(file, "utf8"), {});
  const slugger = new GithubSlugger();
  const page: Page = { links: [], anchors: new Set() };
  tokens.forEach((token, index) => {
    if (token.type === "heading_open") page.anchors.add(slugger.slug(headingText(tokens[index + 1])));
    for (const child of token.children ?? []) {
      const target = child.type === "link_open" ? child.attrGet("href") : child.type === "image" ? child.attrGet("src") : null;
      if (target !== null) page.links.push(String(target));
    }
  });
  pages.set(file, page);
  return page;
}

/** Why a link from `file` does not resolve, or null when it does. */
function brokenLink(file: string, link: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("//")) return null;
  const [pathPart = "", anchor] = link.split("#", 2);
  const target = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
  const fromRoot = relative(ROOT, target);
  if (!existsSync(target)) return PAGES_ON_OTHER_BRANCHES.includes(fromRoot) ? null : `${fromRoot} does not exist`;
  if (anchor === undefined || !target.endsWith(".md") || statSync(target).isDirectory()) return null;
  return readPage(target).anchors.has(anchor) ? null : `${fromRoot} has no heading #${anchor}`;
}

describe("links in the documentation", () => {
  const files = markdownFiles();

  it("finds the pages it checks", () => {
    const names = files.map((file) => relative(ROOT, file));
    expect(names).toEqual(expect.arrayContaining(["README.md", "docs/README.md", "CONTRIBUTING.md", "SECURITY.md"]));
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))("every relative link and anchor in %s resolves", (_name, file) => {
    const broken = readPage(file)
      .links.map((link) => [link, brokenLink(file, link)] as const)
      .filter(([, why]) => why !== null)
      .map(([link, why]) => `${link}: ${why}`);
    expect(broken).toEqual([]);
  });

  it("docs/README.md, the index, links every page of docs/", () => {
    const index = join(ROOT, "docs/README.md");
    const linked = new Set(readPage(index).links.map((link) => resolve(dirname(index), link.split("#")[0]!)));
    const pagesOfDocs = readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md") && name !== "README.md")
      .map((name) => join(ROOT, "docs", name));
    expect(pagesOfDocs.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page))).toEqual([]);
  });

  it("every page linked ahead of its branch is still missing here (drop it from PAGES_ON_OTHER_BRANCHES once it exists)", () => {
    expect(PAGES_ON_OTHER_BRANCHES.filter((page) => existsSync(join(ROOT, page)))).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { GITHUB_COM, githubServerAt, isAttachmentUrl } from "../../../src/core/github-hosts.js";
import { imageSourcesIn, parseImageAttachments } from "../../../src/core/prompt/images.js";

describe("parseImageAttachments", () => {
  it("finds GitHub-hosted Markdown and HTML images, in order, without duplicates", () => {
    const body = [
      "Screenshot: ![shot](https://github.com/user-attachments/assets/1111)",
      '<img width="300" alt="x" src="https://private-user-images.githubusercontent.com/9/2222.png?jwt=abc&amp;x=1">',
      "![old](https://user-images.githubusercontent.com/9/3333.png)",
      "![dup](https://github.com/user-attachments/assets/1111)",
    ].join("\n");
    expect(parseImageAttachments(body)).toEqual([
      "https://github.com/user-attachments/assets/1111",
      "https://private-user-images.githubusercontent.com/9/2222.png?jwt=abc&x=1",
      "https://user-images.githubusercontent.com/9/3333.png",
    ]);
  });

  it("ignores other hosts, plain http, code, and images hidden in comments", () => {
    const body = [
      "![a](https://evil.example/a.png)",
      "![b](http://user-images.githubusercontent.com/1.png)",
      "![c](https://user-images.githubusercontent.com.evil.example/1.png)",
      "![d](https://github.com/someone/repo/raw/main/x.png)",
      "`![e](https://github.com/user-attachments/assets/inline)`",
      "```\n![f](https://github.com/user-attachments/assets/fenced)\n```",
      "<!-- ![g](https://github.com/user-attachments/assets/hidden) -->",
    ].join("\n");
    expect(parseImageAttachments(body)).toEqual([]);
  });

  it("is bounded", () => {
    const body = Array.from({ length: 9 }, (_, i) => `![i](https://github.com/user-attachments/assets/${i})`).join("\n");
    expect(parseImageAttachments(body)).toHaveLength(4);
    expect(parseImageAttachments(body, 2)).toEqual([
      "https://github.com/user-attachments/assets/0",
      "https://github.com/user-attachments/assets/1",
    ]);
  });

  it("isAttachmentUrl", () => {
    expect(isAttachmentUrl("https://github.com/user-attachments/files/1/log.txt")).toBe(true);
    expect(isAttachmentUrl("https://user:pw@github.com/user-attachments/assets/1")).toBe(false);
    expect(isAttachmentUrl("https://github.com:8443/user-attachments/assets/1")).toBe(false);
    expect(isAttachmentUrl("not a url")).toBe(false);
  });
});

describe("on a GitHub Enterprise Server", () => {
  const server = githubServerAt("https://ghe.example.com");

  it("finds attachments on the server's own host (and its media. subdomain), none on github.com", () => {
    const body = [
      "![a](https://ghe.example.com/user-attachments/assets/1111)",
      '<img src="https://media.ghe.example.com/user/7/files/2222">',
      "![b](https://ghe.example.com/media/user/7/files/3333)",
      "![c](https://github.com/user-attachments/assets/4444)",
      "![d](https://user-images.githubusercontent.com/9/5555.png)",
      "![e](http://ghe.example.com/user-attachments/assets/6666)",
      "![f](https://ghe.example.com.evil.example/user-attachments/assets/7777)",
      "![g](https://ghe.example.com/owner/repo/raw/main/x.png)",
    ].join("\n");
    expect(parseImageAttachments(body, 10, server)).toEqual([
      "https://ghe.example.com/user-attachments/assets/1111",
      "https://media.ghe.example.com/user/7/files/2222",
      "https://ghe.example.com/media/user/7/files/3333",
    ]);
  });

  it("keeps the server's scheme and port", () => {
    const plain = githubServerAt("http://127.0.0.1:8080/");
    expect(plain).toMatchObject({ enterprise: true, webOrigin: "http://127.0.0.1:8080", tokenOrigins: ["http://127.0.0.1:8080"] });
    expect(isAttachmentUrl("http://127.0.0.1:8080/user-attachments/assets/1", plain)).toBe(true);
    expect(isAttachmentUrl("http://127.0.0.1:9090/user-attachments/assets/1", plain)).toBe(false);
    expect(isAttachmentUrl("https://127.0.0.1:8080/user-attachments/assets/1", plain)).toBe(false);
  });

  it("github.com's URL is github.com", () => {
    expect(githubServerAt("https://github.com")).toBe(GITHUB_COM);
    expect(githubServerAt(undefined)).toBe(GITHUB_COM);
    expect(() => githubServerAt("ftp://ghe.example.com")).toThrow(/https:\/\//);
  });
});

/** Today's patterns, kept as the reference the one-pass reader must agree with. */
function patternImageUrls(prose: string): string[] {
  const found: Array<{ index: number; url: string }> = [];
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
    found.push({ index: match.index, url: match[1]! });
  }
  for (const match of prose.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    found.push({ index: match.index, url: (match[1] ?? match[2] ?? match[3])! });
  }
  return found.sort((a, b) => a.index - b.index).map((f) => f.url);
}

describe("reading hostile comments", () => {
  const url = "https://github.com/user-attachments/assets/";

  it("agrees with the patterns it replaces on random mixtures of their pieces", () => {
    const pieces = ["![", "]", "(", ")", "<", ">", " ", "\n", '"', "'", "<img", "<IMG", " src=", "src", "=", "x", "a]", url];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let sample = 0; sample < 3000; sample++) {
      const length = 1 + Math.floor(random() * 24);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]!).join("");
      expect(imageSourcesIn(text), JSON.stringify(text)).toEqual(patternImageUrls(text));
    }
  });

  // Each of these took the patterns seconds to minutes (quadratic); read once, they finish at once.
  it.each([
    ["unclosed image starts", "![".repeat(100_000)],
    ["image starts with a bracket and no parenthesis", "![a]".repeat(100_000)],
    ["destinations that never close", `![a](${"x![a](".repeat(60_000)}`],
    ["unclosed titles", '![a](u "'.repeat(60_000)],
    ["img tags without an end", "<img ".repeat(100_000)],
    ["img tags in one long tag", `${"<img src=x".repeat(60_000)}`],
    ["unclosed pointy destinations", "](<".repeat(100_000)],
    ["src attributes without values", `<img${" src=".repeat(100_000)}`],
    ["unclosed quoted sources", '<img src="'.repeat(60_000)],
  ])("%s, then a real attachment", (_name, hostile) => {
    const body = `${hostile}\n\ntext ![shot](${url}1)`;
    expect(parseImageAttachments(body)).toEqual([`${url}1`]);
  });
});

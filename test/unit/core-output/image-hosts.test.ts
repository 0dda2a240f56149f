import { describe, expect, it } from "vitest";
import { GITHUB_COM, githubServerAt } from "../../../src/core/github-hosts.js";
import { GITHUB_IMAGE_HOSTS, imageHostsFor, isAllowedImageUrl } from "../../../src/core/sanitize-output/image-hosts.js";
import { sanitizeInline, sanitizeMarkdown } from "../../../src/core/sanitize-output/prose.js";
import { readGfm } from "./gfm.js";

/** Where the images of the sanitised text load from, read the way GitHub renders it. */
const imagesOf = (text: string, imageHosts = GITHUB_IMAGE_HOSTS) => readGfm(sanitizeMarkdown(text, { imageHosts })).imageSources;
const hrefsOf = (text: string) => readGfm(sanitizeMarkdown(text)).hrefs;

describe("images in agent output render only from GitHub's own hosts", () => {
  it("an inline image elsewhere becomes a plain link to the same place", () => {
    const text = "Look ![x](https://elsewhere.example/p.png?d=secret) here";
    expect(imagesOf(text)).toEqual([]);
    expect(hrefsOf(text)).toEqual(["https://elsewhere.example/p.png?d=secret"]);
    expect(sanitizeMarkdown(text)).toBe("Look \\![x](https://elsewhere.example/p.png?d=secret) here");
  });

  it("images on github.com and *.githubusercontent.com still render", () => {
    const text = [
      "![shot](https://github.com/user-attachments/assets/0b5c-11)",
      "![raw](https://raw.githubusercontent.com/o/r/main/a.png)",
      "![private](https://private-user-images.githubusercontent.com/1/2.png?jwt=a&b=c)",
    ].join("\n\n");
    expect(imagesOf(text)).toEqual([
      "https://github.com/user-attachments/assets/0b5c-11",
      "https://raw.githubusercontent.com/o/r/main/a.png",
      "https://private-user-images.githubusercontent.com/1/2.png?jwt=a&b=c",
    ]);
  });

  it("hosts that only look like GitHub's do not", () => {
    for (const url of [
      "https://github.com.evil.example/p.png",
      "https://evilgithubusercontent.com/p.png",
      "https://githubusercontent.com.evil.example/p.png",
      "https://user:pw@github.com/p.png",
      "https://github.com\\@evil.example/p.png",
    ]) {
      expect(imagesOf(`![x](${url})`), url).toEqual([]);
    }
  });

  it("reference-style images, nested images, titles and images inside links do not render from elsewhere", () => {
    const texts = [
      "![x][pic]\n\n[pic]: https://elsewhere.example/p.png",
      "![x]\n\n[x]: https://elsewhere.example/p.png",
      "![x][]\n\n[x]: <https://elsewhere.example/p.png>",
      '![x](https://elsewhere.example/p.png "title")',
      "![x](<https://elsewhere.example/p.png>)",
      "[![x](https://elsewhere.example/p.png)](https://github.com)",
      "![[a](https://github.com/x.png)](https://elsewhere.example/p.png)",
      "![a `code` b](https://elsewhere.example/p.png)",
      "![x](https://github.com/p.png)(https://elsewhere.example/q.png)",
      "![x](\nhttps://elsewhere.example/p.png\n)",
    ];
    for (const text of texts) {
      expect(
        imagesOf(text).filter((src) => !src.startsWith("https://github.com/")),
        text,
      ).toEqual([]);
    }
  });

  it("raw <img> HTML is shown as text, whatever its host", () => {
    const reading = readGfm(sanitizeMarkdown('<img src="https://elsewhere.example/p.png"> <IMG SRC=https://elsewhere.example/q.png>'));
    expect(reading.imageSources).toEqual([]);
    expect(reading.html).toEqual([]);
  });

  it("one-line agent text (sanitizeInline) follows the same rule", () => {
    expect(readGfm(sanitizeInline("![x](https://elsewhere.example/p.png)")).imageSources).toEqual([]);
    expect(readGfm(sanitizeInline("![x](https://github.com/p.png)")).imageSources).toEqual(["https://github.com/p.png"]);
  });

  it("a GitHub Enterprise Server's own host is allowed when given", () => {
    const hosts = imageHostsFor(githubServerAt("https://ghe.example.com"));
    const text = "![a](https://ghe.example.com/storage/user/1/files/a.png) ![b](https://media.ghe.example.com/b.png)";
    expect(imagesOf(text)).toEqual([]);
    expect(imagesOf(text, hosts)).toEqual(["https://ghe.example.com/storage/user/1/files/a.png", "https://media.ghe.example.com/b.png"]);
  });
});

describe("imageHostsFor", () => {
  it("is github.com's hosts for github.com, and adds an Enterprise Server's host and its subdomains", () => {
    expect(imageHostsFor(GITHUB_COM)).toEqual(GITHUB_IMAGE_HOSTS);
    expect(imageHostsFor(githubServerAt(undefined))).toEqual(GITHUB_IMAGE_HOSTS);
    expect(imageHostsFor(githubServerAt("https://github.com"))).toEqual(GITHUB_IMAGE_HOSTS);
    expect(imageHostsFor(githubServerAt("https://GHE.example.com"))).toEqual([
      ...GITHUB_IMAGE_HOSTS,
      "ghe.example.com",
      "*.ghe.example.com",
    ]);
    expect(imageHostsFor(githubServerAt("https://ghe.example.com:8443/"))).toEqual([
      ...GITHUB_IMAGE_HOSTS,
      "ghe.example.com",
      "*.ghe.example.com",
    ]);
  });

  it("isAllowedImageUrl: http(s) only, exact hosts, subdomains for *.", () => {
    expect(isAllowedImageUrl("https://avatars.githubusercontent.com/u/1")).toBe(true);
    expect(isAllowedImageUrl("https://githubusercontent.com/u/1")).toBe(false);
    expect(isAllowedImageUrl("data:image/png;base64,AAAA")).toBe(false);
    expect(isAllowedImageUrl("javascript://github.com/%0aalert(1)")).toBe(false);
  });
});

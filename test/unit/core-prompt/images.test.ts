import { describe, expect, it } from "vitest";
import { isGitHubAttachmentUrl, parseImageAttachments } from "../../../src/core/prompt/images.js";

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

  it("isGitHubAttachmentUrl", () => {
    expect(isGitHubAttachmentUrl("https://github.com/user-attachments/files/1/log.txt")).toBe(true);
    expect(isGitHubAttachmentUrl("https://user:pw@github.com/user-attachments/assets/1")).toBe(false);
    expect(isGitHubAttachmentUrl("not a url")).toBe(false);
  });
});

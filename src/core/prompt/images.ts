/**
 * Which images of a trigger go with a new run: GitHub-hosted attachments in the comment (Markdown
 * images and `<img src>`), not those hidden in HTML comments or shown as code, at most four.
 */
import { classifyLines, sanitizeUserText } from "../sanitize-input.js";

const ATTACHMENT_HOSTS = new Set(["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"]);

export function isGitHubAttachmentUrl(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  if (ATTACHMENT_HOSTS.has(url.hostname)) return true;
  return url.hostname === "github.com" && url.pathname.startsWith("/user-attachments/");
}

export const MAX_IMAGE_ATTACHMENTS = 4;

/**
 * GitHub-hosted image attachments in a comment (Markdown images and `<img src>`), in order,
 * without duplicates, at most `max`. Images hidden in HTML comments or shown as code are skipped.
 */
export function parseImageAttachments(body: string | null | undefined, max: number = MAX_IMAGE_ATTACHMENTS): string[] {
  const prose = classifyLines(sanitizeUserText(body))
    .filter((line) => !line.code)
    .map((line) => line.text.replace(/`[^`\n]*`/g, ""))
    .join("\n");
  const found: Array<{ index: number; url: string }> = [];
  for (const match of prose.matchAll(/!\[[^\]\n]*\]\(\s*<?([^\s)>]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g)) {
    found.push({ index: match.index, url: match[1]! });
  }
  for (const match of prose.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi)) {
    found.push({ index: match.index, url: (match[1] ?? match[2] ?? match[3])! });
  }
  const urls: string[] = [];
  for (const { url } of found.sort((a, b) => a.index - b.index)) {
    const decoded = url.replace(/&amp;/g, "&");
    if (isGitHubAttachmentUrl(decoded) && !urls.includes(decoded)) urls.push(decoded);
    if (urls.length >= max) break;
  }
  return urls;
}

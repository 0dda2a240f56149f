/** Links in a comment: only plain http(s) URLs, their text sanitised like any prose. */
import { sanitizeProseLine } from "./prose.js";
import { cleanText, truncateText, type OutputSanitizeOptions, type SafeMarkdown } from "./safe-markdown.js";

/**
 * The URL to link to, or null when it is not a plain http(s) URL (other schemes, credentials,
 * unparseable). Parentheses and spaces are percent-encoded so the Markdown link cannot end early.
 */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.username !== "" || parsed.password !== "") return null;
  return parsed.href.replace(/[()\s<>"`]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** `[text](url)` when the URL is http(s); otherwise just the text. The text is sanitised. */
export function renderLink(text: string, url: string | null | undefined, options: OutputSanitizeOptions = {}): SafeMarkdown {
  const href = safeHttpUrl(url);
  const cleaned = cleanText(text).replace(/\s+/g, " ").trim();
  const source = options.maxLength !== undefined ? truncateText(cleaned, options.maxLength) : cleaned;
  if (href === null) return sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase }) as SafeMarkdown;
  const label = sanitizeProseLine(source, { triggerPhrase: options.triggerPhrase, linkText: true });
  return `[${label === "" ? "link" : label}](${href})` as SafeMarkdown;
}

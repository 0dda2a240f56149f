/** Small pieces every comment renderer uses: elapsed time, links to a run and its page, mentions, counts. */
import { inlineCode } from "../sanitize-output/code.js";
import { md, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { safeHttpUrl } from "../sanitize-output/links.js";

/** Epoch milliseconds or a Date. */
export type TimeInput = Date | number;

export const toMs = (time: TimeInput) => (time instanceof Date ? time.getTime() : time);

/** "45s", "4m 12s", "2h 5m", "3d 4h". Negative or invalid durations read "0s". */
export function formatElapsed(ms: number): string {
  const totalSeconds = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

/** A URL short enough to put in a body, or null. */
export function linkTarget(url: string | null | undefined): string | null {
  const href = safeHttpUrl(url);
  return href !== null && href.length <= 2000 ? href : null;
}

/** "[#123](url)", or "123" without a URL: a bare "#123" would link to issue 123. */
export function runLink(runId: number, webUrl: string | null): SafeMarkdown {
  const id = String(runId) as SafeMarkdown;
  return webUrl ? (`[#${id}](${webUrl})` as SafeMarkdown) : id;
}

export function runPageNote(webUrl: string | null): SafeMarkdown {
  return webUrl ? (`the full text is on [the run page](${webUrl})` as SafeMarkdown) : md`the full text is on the run page`;
}

export function sub(text: SafeMarkdown): SafeMarkdown {
  return md`<sub>${text}</sub>`;
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** `@login` for a valid GitHub login (they are mentioned, so they see it), else the text as code. */
export function mentionOf(login: string): SafeMarkdown {
  return GITHUB_LOGIN.test(login) ? (`@${login}` as SafeMarkdown) : inlineCode(login, { maxLength: 60 });
}

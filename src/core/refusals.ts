/**
 * How often the bridge answers someone who may not trigger it: once per person per thread per day.
 * Ten comments from a stranger then cost one write, not ten, of the installation's write budget;
 * the refusal itself is written at the lowest priority. The App remembers refusals in its store; the
 * Action, which keeps nothing, reads its own earlier refusal in the thread (`refusedRecently`).
 */
import type { MarkerPlace } from "./markers/schema.js";
import { listTrustedKindMarkers, type BotIdentity, type MarkerComment } from "./markers/trust.js";
import { mentionOf } from "./render/pieces.js";

/** One refusal per person per thread within this window. */
export const REFUSAL_WINDOW_MS = 24 * 60 * 60_000;

/** The store key under which the App counts refusals to one person in one thread. */
export function refusalKey(thread: { owner: string; repo: string; issueNumber: number }, login: string): string {
  return `refusal:${thread.owner.toLowerCase()}/${thread.repo.toLowerCase()}#${thread.issueNumber}:${login.toLowerCase()}`;
}

/**
 * Whether the bridge's own refusal to `login` is in the thread at `place`, written within the window
 * before `now`. Its marker must be the bot's (signed, when the bot signs) and name this thread: any
 * workflow of the repository writes as github-actions[bot], and a look-alike refusal, or a real one
 * copied from another thread, must not silence the real one.
 */
export function refusedRecently(
  comments: readonly MarkerComment[],
  login: string,
  self: BotIdentity,
  now: number,
  place: MarkerPlace,
): boolean {
  const addressed = `${mentionOf(login)},`.toLowerCase();
  return listTrustedKindMarkers(comments, "refusal", self, place).some(({ comment }) => {
    const at = comment.created_at ? Date.parse(comment.created_at) : Number.NaN;
    if (!(now - at < REFUSAL_WINDOW_MS)) return false;
    return (comment.body ?? "").toLowerCase().includes(`🚫 ${addressed}`);
  });
}

/**
 * Which markers to believe: only those in comments written by one of the bot's own logins
 * (anybody can paste a perfect marker into a comment of their own) and, for a bot whose login
 * others share (the Action's `github-actions[bot]`), signed with its key (signature.ts); among
 * them the run a thread, a branch or a request points at, and the bot's own comments of a kind.
 */
import { classifyActor, isBotAccount } from "../actors.js";
import { parseCommentKind, parseMarker } from "./read.js";
import { hasValidMarkerSignature, type MarkerSigner } from "./signature.js";
import { normalizeBranch, type BotCommentKind, type RunMarker } from "./schema.js";

/** The shape of an issue comment as the GitHub REST API returns it (only what trust needs). */
export interface MarkerComment {
  id: number;
  body?: string | null;
  /** ISO 8601; needed only by readers that count by time (spend limits). */
  created_at?: string | null;
  user?: { login: string; type?: string } | null;
  performed_via_github_app?: { slug?: string } | null;
}

/** Who the bot is: its comment author logins, e.g. `my-app[bot]` (App) or `github-actions[bot]` (Action). */
export interface BotIdentity {
  botLogins: readonly string[];
  /** Set when the login is shared (the Action): only markers signed with this key are the bot's. */
  markerSigner?: MarkerSigner | undefined;
}

/** Just who the bot is, from a wider self (the bots it lets in, say, are not the bot). */
export function botIdentityOf(self: BotIdentity): BotIdentity {
  return { botLogins: self.botLogins, markerSigner: self.markerSigner };
}

export interface FoundRunMarker {
  marker: RunMarker;
  commentId: number;
}

/**
 * Whether the bot wrote this comment. Logins compare case-insensitively (GitHub logins do); a
 * `…[bot]` login must not come with a user type other than `Bot`.
 */
export function isTrustedAuthor(comment: MarkerComment, self: BotIdentity): boolean {
  const login = comment.user?.login;
  if (!login || classifyActor(login, self) !== "self") return false;
  const type = comment.user?.type;
  return !(isBotAccount(login) && type !== undefined && type !== "Bot");
}

/**
 * Whether the bot wrote this comment's marker: its author, and its signature when the bot signs.
 * A marker without a valid signature (forged, or written before the Action signed) is not believed.
 */
export function isTrustedMarkerComment(comment: MarkerComment, self: BotIdentity): boolean {
  if (!isTrustedAuthor(comment, self)) return false;
  return self.markerSigner === undefined || hasValidMarkerSignature(comment.body, self.markerSigner);
}

/** Every run marker the bot wrote in the thread, newest first (by comment id: GitHub ids increase). */
export function listTrustedRunMarkers(comments: readonly MarkerComment[], self: BotIdentity): FoundRunMarker[] {
  const found: FoundRunMarker[] = [];
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self)) continue;
    const marker = parseMarker(comment.body);
    if (marker) found.push({ marker, commentId: comment.id });
  }
  return found.sort((a, b) => b.commentId - a.commentId);
}

/** The newest run marker the bot wrote in the thread. Markers in anyone else's comments are ignored. */
export function findTrustedRunMarker(comments: readonly MarkerComment[], self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self)[0] ?? null;
}

/**
 * The newest trusted run marker that names `branch`: for a review or a check failure on a pull
 * request whose head branch a known run produced or worked on.
 */
export function findRunForBranch(comments: readonly MarkerComment[], branch: string, self: BotIdentity): FoundRunMarker | null {
  const wanted = normalizeBranch(branch);
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId !== null && marker.branches.includes(wanted)) ?? null;
}

/** The newest trusted marker of one run: its state says whether the result was already delivered. */
export function findLatestMarkerForRun(comments: readonly MarkerComment[], runId: number, self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.runId === runId) ?? null;
}

/** The comment the bot already posted for a request (a webhook redelivery must not post twice). */
export function findMarkerForRequest(comments: readonly MarkerComment[], requestId: string, self: BotIdentity): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self).find(({ marker }) => marker.requestId === requestId) ?? null;
}

/** The newest trusted comment of a kind (e.g. `hand_back`: the pull request was already handed back). */
export function findTrustedComment(comments: readonly MarkerComment[], kind: BotCommentKind, self: BotIdentity): MarkerComment | null {
  let newest: MarkerComment | null = null;
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self) || parseCommentKind(comment.body) !== kind) continue;
    if (newest === null || comment.id > newest.id) newest = comment;
  }
  return newest;
}

/**
 * Which markers to believe: only those in comments written by one of the bot's own logins
 * (anybody can paste a perfect marker into a comment of their own) and, for a bot whose login
 * others share (the Action's `github-actions[bot]`), signed with its key (signature.ts); among
 * them the run a thread, a branch or a request points at, and the bot's own comments of a kind.
 *
 * A run marker also belongs to one thread: it names the repository and the issue or pull request
 * it was written in, and a reader in any other thread ignores it (a workflow that echoes text
 * writes as `github-actions[bot]` too, and could copy a signed marker from one thread into another).
 * Markers written before they named their thread (`"v":1`) come back as `legacy`: a caller that
 * acts on their run believes them only when the run's own record, read from the service, names
 * this thread (`runRecordNamesPlace`).
 */
import { classifyActor, isBotAccount } from "../actors.js";
import { parseCommentKind, parseMarker } from "./read.js";
import { hasValidMarkerSignature, type MarkerSigner } from "./signature.js";
import { BRIDGE_METADATA_KEYS, type AgentRun } from "../../service/wire.js";
import { normalizeBranch, type BotCommentKind, type MarkerPlace, type RunMarker } from "./schema.js";

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
  /** Written before markers named their thread: its run is this thread's only if the service's record says so. */
  legacy: boolean;
}

const sameRepository = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Where a run marker belongs as seen from `place`: here, in another thread (ignored), or unknown (`legacy`, v1). */
export function markerPlaceFrom(marker: RunMarker, place: MarkerPlace): "here" | "elsewhere" | "legacy" {
  if (marker.repo === undefined || marker.thread === undefined) return "legacy";
  return sameRepository(marker.repo, place.repository) && marker.thread === place.thread ? "here" : "elsewhere";
}

/** `…/owner/name/pull/12` (a pull request's web address, on github.com or a GitHub Enterprise host). */
const PULL_REQUEST_PATH = /\/([^/\s]+\/[^/\s]+)\/pull\/(\d+)\/?$/;

/**
 * Whether the service's record of a run names `place`: the metadata the bridge sent with its create
 * (the repository and the issue or pull-request number), or one of the pull requests the run
 * opened. A legacy marker's run is believed only then: the record is the service's, not the thread's.
 */
export function runRecordNamesPlace(run: Pick<AgentRun, "metadata" | "git_host_pull_requests">, place: MarkerPlace): boolean {
  const metadata = run.metadata ?? {};
  const repository = metadata[BRIDGE_METADATA_KEYS.repository];
  if (typeof repository === "string" && sameRepository(repository, place.repository)) {
    const numbers = [metadata[BRIDGE_METADATA_KEYS.issueNumber], metadata[BRIDGE_METADATA_KEYS.pullRequestNumber]];
    if (numbers.includes(place.thread)) return true;
  }
  return (run.git_host_pull_requests ?? []).some((pr) => {
    const path = pr.url ? PULL_REQUEST_PATH.exec(pr.url) : null;
    return path !== null && sameRepository(path[1]!, place.repository) && Number(path[2]) === place.thread;
  });
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

/**
 * Every run marker the bot wrote in the thread at `place` (where `comments` were read), newest
 * first (by comment id: GitHub ids increase). Markers naming another thread are left out; legacy
 * ones are kept, marked.
 */
export function listTrustedRunMarkers(comments: readonly MarkerComment[], self: BotIdentity, place: MarkerPlace): FoundRunMarker[] {
  const found: FoundRunMarker[] = [];
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self)) continue;
    const marker = parseMarker(comment.body);
    const where = marker ? markerPlaceFrom(marker, place) : "elsewhere";
    if (marker && where !== "elsewhere") found.push({ marker, commentId: comment.id, legacy: where === "legacy" });
  }
  return found.sort((a, b) => b.commentId - a.commentId);
}

/** The newest run marker the bot wrote in the thread. Markers in anyone else's comments are ignored. */
export function findTrustedRunMarker(comments: readonly MarkerComment[], self: BotIdentity, place: MarkerPlace): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self, place)[0] ?? null;
}

/**
 * The trusted markers of runs that name `branch`, newest first: for a review or a check failure on
 * a pull request whose head branch a known run produced or worked on.
 */
export function listRunsForBranch(
  comments: readonly MarkerComment[],
  branch: string,
  self: BotIdentity,
  place: MarkerPlace,
): FoundRunMarker[] {
  const wanted = normalizeBranch(branch);
  return listTrustedRunMarkers(comments, self, place).filter(({ marker }) => marker.runId !== null && marker.branches.includes(wanted));
}

/** The newest trusted marker of one run: its state says whether the result was already delivered. */
export function findLatestMarkerForRun(
  comments: readonly MarkerComment[],
  runId: number,
  self: BotIdentity,
  place: MarkerPlace,
): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self, place).find(({ marker }) => marker.runId === runId) ?? null;
}

/** The comment the bot already posted for a request (a webhook redelivery must not post twice). */
export function findMarkerForRequest(
  comments: readonly MarkerComment[],
  requestId: string,
  self: BotIdentity,
  place: MarkerPlace,
): FoundRunMarker | null {
  return listTrustedRunMarkers(comments, self, place).find(({ marker }) => marker.requestId === requestId) ?? null;
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

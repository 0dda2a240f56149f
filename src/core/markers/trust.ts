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
 * this thread (`runRecordNamesPlace`). Markers of the other kinds (refusals, stops…) name their
 * thread too and are read the same way (`listTrustedKindMarkers`); their legacy ones have no run
 * record to check, so LEGACY_KIND_MARKERS says per kind which way is safe.
 */
import { classifyActor, isBotAccount } from "../actors.js";
import { parseKindMarker, parseMarker } from "./read.js";
import { hasValidMarkerSignature, type MarkerSigner } from "./signature.js";
import { BRIDGE_METADATA_KEYS, type AgentRun } from "../../service/wire.js";
import { normalizeBranch, type KindMarker, type MarkerPlace, type RunMarker } from "./schema.js";

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

/** Whether two `owner/name` name the same repository (GitHub's names compare case-insensitively). */
export const sameRepository = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Where a marker naming `written` (null: it names no thread, it is legacy) belongs as seen from the
 * thread at `place`: here, in another thread (ignored by every reader), or unknown. Every marker
 * reader asks this one question, so none can forget the thread.
 */
export function placeRelation(written: MarkerPlace | null, place: MarkerPlace): "here" | "elsewhere" | "legacy" {
  if (written === null) return "legacy";
  return sameRepository(written.repository, place.repository) && written.thread === place.thread ? "here" : "elsewhere";
}

/** Where a run marker belongs as seen from `place`: here, in another thread (ignored), or unknown (`legacy`, v1). */
export function markerPlaceFrom(marker: RunMarker, place: MarkerPlace): "here" | "elsewhere" | "legacy" {
  const written = marker.repo === undefined || marker.thread === undefined ? null : { repository: marker.repo, thread: marker.thread };
  return placeRelation(written, place);
}

/**
 * Whether a kind marker that names no thread (written before they did) is still believed. There is
 * no run record to check it against, so each kind leans the safe way: a legacy `stop` keeps CI
 * auto-fix paused (the worst a copy can do is pause it until a person's next trigger, while not
 * believing it would restart fixes a maintainer stopped). The others are not believed: each only
 * keeps a reply from being repeated (a refusal, an over-limit or config-error reply, the hand-back
 * after the attempt cap, which the run markers' count enforces either way), so the worst an upgrade
 * costs is one more reply, and a copy can silence none.
 */
export const LEGACY_KIND_MARKERS: Readonly<Record<KindMarker["kind"], "believed" | "ignored">> = {
  stop: "believed",
  hand_back: "ignored",
  refusal: "ignored",
  over_limit: "ignored",
  config_error: "ignored",
  service_error: "ignored",
};

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

export interface FoundKindMarker {
  comment: MarkerComment;
  marker: KindMarker;
}

/**
 * The bot's comments of a kind in the thread at `place` (where `comments` were read), in the given
 * order: trusted (trusted author, and signature when the bot signs), naming this thread, or naming
 * none where that kind's legacy markers are believed (LEGACY_KIND_MARKERS).
 */
export function listTrustedKindMarkers(
  comments: readonly MarkerComment[],
  kind: KindMarker["kind"],
  self: BotIdentity,
  place: MarkerPlace,
): FoundKindMarker[] {
  const found: FoundKindMarker[] = [];
  for (const comment of comments) {
    if (!isTrustedMarkerComment(comment, self)) continue;
    const marker = parseKindMarker(comment.body);
    if (marker?.kind !== kind) continue;
    const where = placeRelation(marker.place, place);
    if (where === "here" || (where === "legacy" && LEGACY_KIND_MARKERS[kind] === "believed")) found.push({ comment, marker });
  }
  return found;
}

/** The newest trusted comment of a kind in the thread at `place` (e.g. `hand_back`: the pull request was already handed back). */
export function findTrustedComment(
  comments: readonly MarkerComment[],
  kind: KindMarker["kind"],
  self: BotIdentity,
  place: MarkerPlace,
): MarkerComment | null {
  let newest: MarkerComment | null = null;
  for (const { comment } of listTrustedKindMarkers(comments, kind, self, place)) {
    if (newest === null || comment.id > newest.id) newest = comment;
  }
  return newest;
}

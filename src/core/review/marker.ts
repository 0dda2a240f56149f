/**
 * The hidden marker in a review's body: the run and the commit it reviewed, bound to the thread like
 * every other marker. Before posting, the bridge looks for its own review carrying the marker for
 * this run and head, so a redelivery, a crash or a restart never posts a second review.
 *
 *   <!-- agent-run-bridge:review {"v":2,"repo":"octo/app","thread":7,"runId":123,"headSha":"…"} -->
 *
 * Agent text cannot forge one: sanitize-output neutralises the marker opening in everything it shows,
 * and only reviews by the bridge's own logins are read. The Action's login (`github-actions[bot]`) is
 * every workflow's, so the Action signs its review's marker as it signs its comments' (signature.ts)
 * and believes only a review marker whose signature verifies: another workflow's review carrying a
 * copied or made-up marker cannot pass for the one already posted and keep the real one from being posted.
 */
import * as z from "zod/mini";
import { MARKER_NAMESPACE } from "../sanitize-output/safe-markdown.js";
import { KIND_MARKER_VERSION, type MarkerPlace } from "../markers/schema.js";
import { parseJson } from "../markers/read.js";
import type { MarkerSigner } from "../markers/signature.js";
import { sameRepository, type BotIdentity } from "../markers/trust.js";

export interface ReviewMarker {
  place: MarkerPlace;
  runId: number;
  headSha: string;
}

// Built on first use, as the other markers' schemas are: a step that posts no review never needs it.
const ReviewMarkerJsonSchema = z.lazy(() =>
  z.strictObject({
    v: z.literal(KIND_MARKER_VERSION),
    repo: z.string().check(z.maxLength(200), z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/)),
    thread: z.int().check(z.positive()),
    runId: z.int().check(z.nonnegative()),
    headSha: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
  }),
);

// The first line: the content (kind and JSON), then the Action's signature of that content if any.
const MARKER_LINE = new RegExp(`^<!-- (${MARKER_NAMESPACE}:review (\\{[^\\n]*?\\}))(?: sig=([A-Za-z0-9_-]{43}))? -->[ \\t]*(?:\\r?\\n|$)`);

export function renderReviewMarker(marker: ReviewMarker): string {
  const json = {
    v: KIND_MARKER_VERSION,
    repo: marker.place.repository,
    thread: marker.place.thread,
    runId: marker.runId,
    headSha: marker.headSha,
  };
  const checked = ReviewMarkerJsonSchema.safeParse(json);
  if (!checked.success) throw new TypeError(`renderReviewMarker: invalid review marker (${checked.error.issues[0]?.message ?? "?"})`);
  return `<!-- ${MARKER_NAMESPACE}:review ${JSON.stringify(checked.data)} -->`;
}

/** The marker a review body starts with, or null. */
export function parseReviewMarker(body: string | null | undefined): ReviewMarker | null {
  const match = body ? MARKER_LINE.exec(body) : null;
  if (!match) return null;
  const checked = ReviewMarkerJsonSchema.safeParse(parseJson(match[2]!));
  if (!checked.success) return null;
  const { repo, thread, runId, headSha } = checked.data;
  return { place: { repository: repo, thread }, runId, headSha };
}

/**
 * Whether the review marker the body starts with carries a signature of its own content that
 * verifies. The very line parseReviewMarker reads is checked: a signed marker copied onto a later
 * line of the body signs nothing of this one.
 */
function hasSignedMarker(body: string | null, signer: MarkerSigner): boolean {
  const match = body ? MARKER_LINE.exec(body) : null;
  return match?.[3] !== undefined && signer.verify(match[1]!, match[3]);
}

/** A review as listed by GitHub: who wrote it and its body. */
export interface ListedReview {
  id: number;
  authorLogin: string | null;
  body: string | null;
  htmlUrl: string;
}

/**
 * The bridge's own review of `runId` at `headSha` in this thread, if already posted: by one of its
 * logins and, for a bot that signs (the Action), with a marker whose signature verifies.
 */
export function findPostedReview(reviews: readonly ListedReview[], wanted: ReviewMarker, self: BotIdentity): ListedReview | null {
  const own = new Set(self.botLogins.map((login) => login.toLowerCase()));
  const signer = self.markerSigner;
  for (const review of reviews) {
    if (!review.authorLogin || !own.has(review.authorLogin.toLowerCase())) continue;
    if (signer && !hasSignedMarker(review.body, signer)) continue;
    const marker = parseReviewMarker(review.body);
    if (
      marker &&
      marker.runId === wanted.runId &&
      marker.headSha === wanted.headSha &&
      marker.place.thread === wanted.place.thread &&
      sameRepository(marker.place.repository, wanted.place.repository)
    )
      return review;
  }
  return null;
}

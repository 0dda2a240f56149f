/**
 * The hidden marker in a review's body: the run and the commit it reviewed, bound to the thread like
 * every other marker. Before posting, the bridge looks for its own review carrying the marker for
 * this run and head, so a redelivery, a crash or a restart never posts a second review.
 *
 *   <!-- agent-run-bridge:review {"v":2,"repo":"octo/app","thread":7,"runId":123,"headSha":"…"} -->
 *
 * Agent text cannot forge one: sanitize-output neutralises the marker opening in everything it shows,
 * and only reviews by the bridge's own logins are read.
 */
import * as z from "zod/mini";
import { MARKER_NAMESPACE } from "../sanitize-output/safe-markdown.js";
import { KIND_MARKER_VERSION, type MarkerPlace } from "../markers/schema.js";
import { sameRepository } from "../markers/trust.js";

export interface ReviewMarker {
  place: MarkerPlace;
  runId: number;
  headSha: string;
}

const ReviewMarkerJsonSchema = z.strictObject({
  v: z.literal(KIND_MARKER_VERSION),
  repo: z.string().check(z.maxLength(200), z.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/)),
  thread: z.int().check(z.positive()),
  runId: z.int().check(z.nonnegative()),
  headSha: z.string().check(z.regex(/^[0-9a-f]{40}$/)),
});

const MARKER_LINE = new RegExp(`^<!-- ${MARKER_NAMESPACE}:review (\\{[^\\n]*?\\}) -->`);

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
  let json: unknown;
  try {
    json = JSON.parse(match[1]!);
  } catch {
    return null;
  }
  const checked = ReviewMarkerJsonSchema.safeParse(json);
  if (!checked.success) return null;
  const { repo, thread, runId, headSha } = checked.data;
  return { place: { repository: repo, thread }, runId, headSha };
}

/** A review as listed by GitHub: who wrote it and its body. */
export interface ListedReview {
  id: number;
  authorLogin: string | null;
  body: string | null;
  htmlUrl: string;
}

/** The bridge's own review of `runId` at `headSha` in this thread, if already posted. */
export function findPostedReview(
  reviews: readonly ListedReview[],
  wanted: ReviewMarker,
  self: { botLogins: readonly string[] },
): ListedReview | null {
  const own = new Set(self.botLogins.map((login) => login.toLowerCase()));
  for (const review of reviews) {
    if (!review.authorLogin || !own.has(review.authorLogin.toLowerCase())) continue;
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

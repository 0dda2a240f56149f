/**
 * Which findings anchor in the pull request's diff. A finding anchors when its path is a file of the
 * pull request and its lines (`start_line`..`line`) fall inside one hunk of that file's patch on its
 * side: RIGHT counts added and context lines (new line numbers), LEFT removed and context lines (old
 * line numbers). Anchored findings go inline, up to `max_comments`; the rest are listed in the body.
 */
import { sideOf } from "./format.js";
import type { ReviewFinding } from "./schema.js";

export interface PullRequestFile {
  filename: string;
  /** Absent for a binary file or a diff too large for GitHub to show: nothing anchors there. */
  patch?: string | null;
}

/** One hunk's lines on each side. */
interface Hunk {
  right: Set<number>;
  left: Set<number>;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The hunks of a unified-diff patch (GitHub's `patch` field: hunks without file headers). */
export function parseHunks(patch: string | null | undefined): Hunk[] {
  const hunks: Hunk[] = [];
  if (!patch) return hunks;
  let current: Hunk | null = null;
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split("\n")) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      current = { right: new Set(), left: new Set() };
      hunks.push(current);
      oldLine = Number(header[1]);
      newLine = Number(header[3]);
      continue;
    }
    if (!current) continue;
    const mark = line[0];
    if (mark === "+") current.right.add(newLine++);
    else if (mark === "-") current.left.add(oldLine++);
    else if (mark === " ") {
      current.left.add(oldLine++);
      current.right.add(newLine++);
    }
    // `\ No newline at end of file` counts on neither side.
  }
  return hunks;
}

export type AnchorMiss = "not_a_file_of_the_pull_request" | "outside_the_diff";

export interface ReviewPlan {
  /** Findings that anchor, in order, up to max_comments. */
  inline: ReviewFinding[];
  /** Findings that anchor but are over max_comments. */
  overflow: ReviewFinding[];
  /** Findings that do not anchor, with why. */
  unanchored: { finding: ReviewFinding; why: AnchorMiss }[];
}

/** Whether a finding's lines resolve in one hunk of `hunks` on its side. */
export function linesResolve(hunks: readonly Hunk[], finding: Pick<ReviewFinding, "line" | "start_line" | "side">): boolean {
  const side = sideOf(finding) === "RIGHT" ? "right" : "left";
  const start = finding.start_line ?? finding.line;
  return hunks.some((hunk) => {
    for (let line = start; line <= finding.line; line++) if (!hunk[side].has(line)) return false;
    return true;
  });
}

/** Sorts findings into inline comments, overflow and unanchored ones; none is dropped. */
export function planReview(findings: readonly ReviewFinding[], files: readonly PullRequestFile[], maxComments: number): ReviewPlan {
  const hunksByPath = new Map(files.map((file) => [file.filename, parseHunks(file.patch)] as const));
  const plan: ReviewPlan = { inline: [], overflow: [], unanchored: [] };
  for (const finding of findings) {
    const hunks = hunksByPath.get(finding.path);
    if (!hunks) plan.unanchored.push({ finding, why: "not_a_file_of_the_pull_request" });
    else if (!linesResolve(hunks, finding)) plan.unanchored.push({ finding, why: "outside_the_diff" });
    else if (plan.inline.length < maxComments) plan.inline.push(finding);
    else plan.overflow.push(finding);
  }
  return plan;
}

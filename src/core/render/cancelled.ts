/**
 * The tracking comment's final form when the Action's job was cancelled (or hit its
 * `timeout-minutes`) while the run was being started or watched: the job is gone, the run is not
 * (the service has no cancel call), and a later trigger in the thread resumes it through the
 * marker, which stays: `done` as after a watch that gave up, or `stopped` with no run when the job
 * ended before one was started.
 */
import type { RunMarker } from "../markers/schema.js";
import { renderMarker } from "../markers/write.js";
import { inlineCode } from "../sanitize-output/code.js";
import { joinMarkdown, md, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { linkTarget, runLink, sub } from "./pieces.js";

export interface CancelledCommentInput {
  /** The run's marker as last written; its `runId` says whether a run was started. */
  marker: RunMarker;
  webUrl?: string | null;
  /** Shown in the "reply with …" hint. */
  triggerPhrase: string;
}

/** The marker of a cancelled job's last word on its run. */
function cancelledMarker(marker: RunMarker): RunMarker {
  return marker.runId === null
    ? { ...marker, state: "done", outcome: "stopped" }
    : { ...marker, state: "done", outcome: "watch_timed_out" };
}

/** Whether a comment with this marker still says the run is being started or watched. */
export function isWorkingMarker(marker: RunMarker | null): marker is RunMarker {
  return marker !== null && marker.state !== "done";
}

export function renderCancelledComment(input: CancelledCommentInput): string {
  const { marker } = input;
  const hint = inlineCode(`${input.triggerPhrase.trim()} <instructions>`, { maxLength: 100 });
  const webUrl = linkTarget(input.webUrl);
  let lines: SafeMarkdown[];
  if (marker.runId === null) {
    lines = [
      md`⏹️ **This job was cancelled** before an agent run was started; nothing was sent to the Agent Run Service.`,
      sub(md`Reply with ${hint} to ask again.`),
    ];
  } else {
    const link = runLink(marker.runId, webUrl);
    const where = webUrl ? md`at [the run page](${webUrl as SafeMarkdown})` : md`on the Agent Run Service`;
    lines = [
      md`⏹️ **This job was cancelled**; agent run ${link} goes on ${where}. This comment is no longer updated.`,
      sub(md`Reply with ${hint} to continue it: its result comes with the answer.`),
    ];
  }
  return `${renderMarker(cancelledMarker(marker))}\n${joinMarkdown(lines, "\n\n")}`;
}

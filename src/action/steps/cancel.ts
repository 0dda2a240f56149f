/**
 * The step's last word when its job is cancelled: it stops waiting for the run, the tracking
 * comment becomes its "cancelled; the run goes on" form (written after any edit in flight, and
 * nothing is written after it), and the outcome carries what the outputs can say.
 */
import { parseMarker } from "../../core/markers/read.js";
import { isWorkingMarker, renderCancelledComment } from "../../core/render/cancelled.js";
import type { CancelSignal } from "../cancellation.js";
import type { JobCheckpoint } from "../checkpoint.js";
import { log } from "../door.js";
import { answerWithin } from "../thread.js";
import type { StepResult } from "./step.js";

/** How long a create or resume already sent may take to answer, so that the comment can name its run. */
const SENDING_GRACE_MS = 3_000;

export async function cancelStep(checkpoint: JobCheckpoint, signal: CancelSignal): Promise<StepResult> {
  const watching = checkpoint.watching;
  if (!watching) {
    const message = `The job was cancelled (${signal}) before a run was started.`;
    return { outcome: { kind: "cancelled", signal, run: null, resumed: false, comment: null }, failure: message };
  }
  const run = watching.run ?? (watching.sending ? await answerWithin(watching.sending, SENDING_GRACE_MS) : null);
  const marker = run ? { ...watching.marker, runId: run.id } : watching.marker;
  const webUrl = run?.web_url ?? null;
  // A result (or a stop) that landed meanwhile is the thread's last word: it stays.
  const comment = await watching.thread.seal((lastBody) =>
    lastBody === null || isWorkingMarker(parseMarker(lastBody))
      ? renderCancelledComment({ marker, webUrl, triggerPhrase: watching.triggerPhrase })
      : null,
  );
  const message = run
    ? `The job was cancelled (${signal}); agent run ${run.id} goes on${webUrl ? ` at ${webUrl}` : ""}: reply in the thread to continue it.`
    : `The job was cancelled (${signal}) before the run was started.`;
  log.warning(message);
  return { outcome: { kind: "cancelled", signal, run, resumed: watching.resumed, comment }, failure: message };
}

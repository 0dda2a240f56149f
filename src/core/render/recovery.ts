/**
 * What a thread is told when the App's store lost its data and the run recovery (app/run-recovery.ts)
 * finds a request or follow-ups it can no longer carry out: said plainly, with what to do next. Each
 * is a service-error reply (its kind marker), so the tracking comment no longer says "working".
 */
import { renderKindMarker } from "../markers/write.js";
import { renderLink } from "../sanitize-output/links.js";
import { linkTarget, plural } from "./pieces.js";

/**
 * A request whose tracking comment said "queued" (no run known yet) when the store lost it.
 * `lookAt`: the service's web page of runs (AGENT_RUN_RUNS_URL), linked when known.
 */
export function renderLostRequest(queuedAt: number, lookAt: string | null = null): string {
  const when = new Date(queuedAt).toISOString();
  const page = linkTarget(lookAt);
  const where = page ? renderLink("the Agent Run Service's runs", page) : "the Agent Run Service";
  return [
    renderKindMarker("service_error"),
    "⚠️ **The bridge lost this request: its store was emptied before the run was known to start.**",
    "",
    `Look on ${where} for a run started after ${when}; if there is none, ask again in a new comment.`,
  ].join("\n");
}

/** A follow-up (a resume) that was waiting for its turn when the store lost it; its run is not working now. */
export function renderLostFollowUp(queuedAt: number): string {
  const when = new Date(queuedAt).toISOString();
  return [
    renderKindMarker("service_error"),
    "⚠️ **The bridge lost this follow-up: its store was emptied before the follow-up was known to reach the run, and the run is not working now.**",
    "",
    `If the run shows no work after ${when}, ask again in a new comment.`,
  ].join("\n");
}

/**
 * The follow-ups the store held behind a run or a request (sent when it finished), now gone: they will not be sent.
 * `runWatched`: the run above is watched again (its result comes); else the request above was lost too.
 */
export function renderDroppedFollowUps(followUps: readonly { htmlUrl: string }[], runWatched: boolean): string {
  const links = followUps.map((f, i) => renderLink(`follow-up ${i + 1}`, f.htmlUrl)).join(", ");
  const what = runWatched ? "the run above" : "the request above";
  const next = runWatched
    ? "The run is watched again and its result is posted here; then ask again in a new comment."
    : "Ask again in a new comment.";
  return [
    renderKindMarker("service_error"),
    `⚠️ **The bridge lost ${plural(followUps.length, "follow-up", "follow-ups")} it held for ${what}: its store was emptied meanwhile.**`,
    "",
    `${links}: ${followUps.length === 1 ? "it" : "they"} will not be sent. ${next}`,
  ].join("\n");
}

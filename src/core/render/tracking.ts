/**
 * The tracking comment: posted as soon as a trigger is accepted and edited while the run works
 * (queued, starting, working, resuming, a follow-up waiting). It starts with the run's hidden marker
 * (markers/), whose state says `queued` or `running`; its final form is the result (result.ts).
 */
import { SOURCE, type SourceType } from "../../service/wire.js";
import type { RunMarker } from "../markers/schema.js";
import { renderMarker } from "../markers/write.js";
import { joinMarkdown, md, type SafeMarkdown } from "../sanitize-output/safe-markdown.js";
import { renderLink } from "../sanitize-output/links.js";
import { sanitizeInline } from "../sanitize-output/prose.js";
import { formatElapsed, linkTarget, plural, runLink, sub, toMs, type TimeInput } from "./pieces.js";

export type TrackingPhase = "queued" | "starting" | "running" | "resuming" | "queued_follow_up";

export interface TrackingCommentInput {
  /** The run's marker; its `state` is set from the phase (`queued` while no run exists or the phase is `queued`). */
  marker: RunMarker;
  webUrl?: string | null;
  phase: TrackingPhase;
  /** 1-based position in the rate-budget queue, for `queued`. */
  queuePosition?: number;
  /** From `describeCurrentStep`. */
  currentStep?: SafeMarkdown | null;
  startedAt: TimeInput;
  now: TimeInput;
  /** Follow-ups waiting for the run to finish. */
  followUps?: number;
  /** The comment, review or check that started this. */
  triggerUrl?: string | null;
  /** Defaults to the marker's. */
  sourceType?: SourceType;
  /**
   * A new run sent without a `repo_id` (none configured, none found in the service's repository
   * list): the comment says that the organization's default repository applies.
   */
  orgDefaultRepository?: boolean;
  /** Follow-ups sent to the working agent (`follow_up: interrupt`), oldest first, and whether the service refused one. */
  interrupts?: { delivered: ReadonlyArray<{ firstLine: string; confirmed: boolean }>; refused: boolean };
}

/** How many delivered follow-ups the comment quotes; older ones are counted. */
const DELIVERED_SHOWN = 3;

/** The follow-ups that reached the working agent (each first line quoted, sanitised like any user text), and a refusal said once. */
function interruptLines(interrupts: NonNullable<TrackingCommentInput["interrupts"]>): SafeMarkdown[] {
  const lines: SafeMarkdown[] = [];
  const shown = interrupts.delivered.slice(-DELIVERED_SHOWN);
  const earlier = interrupts.delivered.length - shown.length;
  if (earlier > 0)
    lines.push(`💬 ${plural(earlier, "earlier follow-up", "earlier follow-ups")} reached the working agent.` as SafeMarkdown);
  for (const message of shown) {
    const quote = message.firstLine ? md`\n> ${sanitizeInline(message.firstLine)}` : md``;
    lines.push(
      message.confirmed
        ? md`💬 Your follow-up reached the working agent:${quote}`
        : md`💬 Your follow-up was sent to the working agent, but the service did not confirm it:${quote}`,
    );
  }
  if (interrupts.refused) {
    lines.push(md`ℹ️ The Agent Run Service does not take follow-ups while a run works: they are sent when it finishes.`);
  }
  return lines;
}

function triggerNote(sourceType: SourceType, triggerUrl: string | null): SafeMarkdown | null {
  const link = (text: string) => (triggerUrl ? renderLink(text, triggerUrl) : (text as SafeMarkdown));
  switch (sourceType) {
    case SOURCE.gitHostCheckSuite:
      return md`Started because ${link("checks failed")}`;
    case SOURCE.gitHostPrReview:
      return md`Started for ${link("this review")}`;
    default:
      return triggerUrl ? md`Triggered by ${link("this comment")}` : null;
  }
}

function followUpNote(count: number): SafeMarkdown {
  return count === 1
    ? md`📝 Your follow-up is queued: it will be sent when the run finishes.`
    : (`📝 ${count} follow-ups are queued: they will be sent when the run finishes.` as SafeMarkdown);
}

/** The comment's first line: what the run is doing in this phase, with its elapsed time or queue position where they matter. */
function phaseLine(input: TrackingCommentInput, runId: number | null, webUrl: string | null): SafeMarkdown {
  // Only phrases about an existing run use the link.
  const link = runId === null ? md`` : runLink(runId, webUrl);
  const elapsed = formatElapsed(toMs(input.now) - toMs(input.startedAt)) as SafeMarkdown;
  const position =
    input.queuePosition !== undefined && Number.isInteger(input.queuePosition) && input.queuePosition > 0
      ? (` (position ${input.queuePosition})` as SafeMarkdown)
      : md``;
  switch (input.phase) {
    case "queued":
      return runId === null
        ? md`⏳ **Queued**${position}: waiting for the Agent Run Service's rate budget. The run starts by itself.`
        : md`⏳ A follow-up for agent run ${link} is **queued**${position}: waiting for the Agent Run Service's rate budget.`;
    case "starting":
      return runId === null ? md`🤖 Starting an agent run…` : md`🤖 Agent run ${link} started…`;
    case "running":
      return runId === null ? md`🤖 An agent run is working · ${elapsed} so far` : md`🤖 Agent run ${link} is working · ${elapsed} so far`;
    case "resuming":
      return md`🔁 Resuming agent run ${link} ${resumeReason(input.sourceType ?? input.marker.sourceType)}…`;
    case "queued_follow_up":
      return md`🤖 Agent run ${link} is still working · ${elapsed} so far`;
  }
}

function resumeReason(source: SourceType): SafeMarkdown {
  return source === SOURCE.gitHostCheckSuite
    ? md`to fix the failing checks`
    : source === SOURCE.gitHostPrReview
      ? md`with this review`
      : md`with your follow-up`;
}

/** The comment posted as soon as a trigger is accepted, edited while the run works. */
export function renderTrackingComment(input: TrackingCommentInput): string {
  const webUrl = linkTarget(input.webUrl);
  const runId = input.marker.runId;
  if (runId === null && (input.phase === "resuming" || input.phase === "queued_follow_up")) {
    throw new TypeError(`renderTrackingComment: the "${input.phase}" phase is about an existing run, but the marker has no runId`);
  }
  const state = input.phase === "queued" || runId === null ? "queued" : "running";
  const { outcome: _finalOutcome, ...identity } = input.marker;
  const marker = renderMarker({ ...identity, state });
  const followUps = Math.max(0, Math.floor(input.followUps ?? 0));

  const lines: SafeMarkdown[] = [phaseLine(input, runId, webUrl)];
  const step = input.currentStep && input.currentStep.length <= 2000 ? input.currentStep : null;
  if (step && (input.phase === "running" || input.phase === "queued_follow_up" || input.phase === "resuming")) {
    lines.push(md`**Now:** ${step}`);
  }
  if (input.interrupts && input.phase !== "queued") lines.push(...interruptLines(input.interrupts));
  if (input.phase === "queued_follow_up" || (followUps > 0 && input.phase !== "queued")) {
    lines.push(followUpNote(Math.max(1, followUps)));
  }
  if (input.orgDefaultRepository && input.phase !== "resuming" && input.phase !== "queued_follow_up") {
    lines.push(
      md`ℹ️ No \`repo_id\` is configured for this repository and the Agent Run Service did not list it, so the organization's default repository applies.`,
    );
  }
  const note = input.marker.automation
    ? md`Started by this repository's automation **${sanitizeInline(input.marker.automation)}**`
    : triggerNote(input.sourceType ?? input.marker.sourceType, linkTarget(input.triggerUrl));
  const footer = note ? md`${note} · this comment updates as the run progresses.` : md`This comment updates as the run progresses.`;
  lines.push(sub(footer));
  return `${marker}\n${joinMarkdown(lines, "\n\n")}`;
}

/**
 * What a cancelled job needs to leave its thread in order: the tracking comment, the run's marker
 * and link. The step keeps the live objects for its own signal handler (steps/cancel.ts), and saves
 * a copy with `core.saveState` each time it changes, which the runner hands to the `post` step as
 * `STATE_checkpoint` (post-step.ts) when the process was killed before it could finish the comment.
 */
import type { RunMarker } from "../core/markers/schema.js";
import { RunMarkerSchema } from "../core/markers/schema.js";
import type { RepoRef } from "../github/client.js";
import type { AgentRun } from "../service/wire.js";
import type { ThreadReporter } from "./thread.js";

export const CHECKPOINT_STATE = "checkpoint";

/** The run being started or watched, as the step knows it (steps/start.ts's TrackedRun). */
export interface WatchedRun {
  readonly marker: RunMarker;
  readonly run: AgentRun | null;
  /** The create or resume on its way, when the signal may come before its answer. */
  readonly sending: Promise<AgentRun> | null;
  readonly thread: ThreadReporter;
  readonly repo: RepoRef | null;
  readonly triggerPhrase: string;
  readonly resumed: boolean;
}

/** What the post step reads back. */
export interface SavedCheckpoint {
  v: 1;
  repo: RepoRef;
  commentId: number;
  marker: RunMarker;
  webUrl: string | null;
  triggerPhrase: string;
  /** The main step reached its end: the post step has nothing to do. */
  finished: boolean;
}

export class JobCheckpoint {
  private current: WatchedRun | null = null;
  private saved: SavedCheckpoint | null = null;
  private savedJson = "";

  constructor(private readonly saveState: (name: string, value: string) => void) {}

  /** The run being started or watched, for the signal handler. */
  get watching(): WatchedRun | null {
    return this.current;
  }

  watch(run: WatchedRun): void {
    this.current = run;
  }

  /** Saves what the post step would need, once the tracking comment exists (only when it changed). */
  save(run: WatchedRun): void {
    const comment = run.thread.comment;
    if (!comment || !run.repo) return;
    this.write({
      v: 1,
      repo: run.repo,
      commentId: comment.id,
      marker: run.marker,
      webUrl: run.run?.web_url ?? null,
      triggerPhrase: run.triggerPhrase,
      finished: false,
    });
  }

  /** The step reached its end: its last word is written or it had none to write. */
  finish(): void {
    if (this.saved) this.write({ ...this.saved, finished: true });
  }

  private write(checkpoint: SavedCheckpoint): void {
    const json = JSON.stringify(checkpoint);
    if (json === this.savedJson) return;
    this.saved = checkpoint;
    this.savedJson = json;
    this.saveState(CHECKPOINT_STATE, json);
  }
}

/** The saved checkpoint, or null when there is none or it is not one (a runner never hands over anything else). */
export function readCheckpoint(value: string | undefined): SavedCheckpoint | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const c = parsed as Partial<SavedCheckpoint>;
  const marker = RunMarkerSchema.safeParse(c.marker);
  const repoOk = typeof c.repo?.owner === "string" && typeof c.repo.repo === "string" && c.repo.owner !== "" && c.repo.repo !== "";
  if (c.v !== 1 || !repoOk || !Number.isSafeInteger(c.commentId) || !marker.success || typeof c.triggerPhrase !== "string") return null;
  return {
    v: 1,
    repo: { owner: c.repo!.owner, repo: c.repo!.repo },
    commentId: c.commentId!,
    marker: marker.data,
    webUrl: typeof c.webUrl === "string" ? c.webUrl : null,
    triggerPhrase: c.triggerPhrase,
    finished: c.finished === true,
  };
}

/**
 * Reactions: the names GitHub accepts, what the bot reacts to, and which reaction it adds when
 * (👀 when a trigger is accepted, 🚀 when its run succeeded, 😕 when it failed, 👍 on a stop it
 * carried out). The App's engine and the Action both ask `reactionForPhase`; github/reactions.ts
 * only sends them.
 */
import type { RunPhase } from "../../service/status.js";

/** Every reaction GitHub accepts. */
export const REACTION_CONTENTS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

/** What to react to; `id` is the comment id, or the issue/pull request number for `kind: "issue"`. */
export interface ReactionTarget {
  kind: "issue_comment" | "review_comment" | "issue";
  id: number;
}

/** When the bot reacts: a trigger accepted, a run's phase once it ends, a `/agent stop` carried out. */
export type ReactionMoment = "triggered" | RunPhase | "stop_accepted";

/** 👀 when a trigger is accepted, 🚀 on success, 😕 on failure, 👍 on a stop; nothing otherwise. */
export function reactionForPhase(phase: ReactionMoment): ReactionContent | null {
  switch (phase) {
    case "triggered":
      return "eyes";
    case "succeeded":
      return "rocket";
    case "failed":
      return "confused";
    case "stop_accepted":
      return "+1";
    default:
      return null;
  }
}

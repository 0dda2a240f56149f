/** Which reaction the bot adds to a trigger, and when: 👀 when it is accepted, 🚀 on success, 😕 on failure. */
import type { RunPhase } from "../../service/status.js";

export type Reaction = "eyes" | "rocket" | "confused";

/** 👀 when a trigger is accepted, 🚀 on success, 😕 on failure; nothing otherwise. */
export function reactionForPhase(phase: RunPhase | "triggered"): Reaction | null {
  switch (phase) {
    case "triggered":
      return "eyes";
    case "succeeded":
      return "rocket";
    case "failed":
      return "confused";
    default:
      return null;
  }
}

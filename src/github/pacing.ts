/**
 * GitHub writes paced per installation. GitHub's secondary limits belong to each installation's
 * token: about 80 content-creating requests a minute, 500 an hour, and a second between writes of
 * one identity, made one at a time. Each installation gets its own lane, so installations never
 * wait behind each other; within a lane, acknowledgements go before results, results before
 * progress edits, and a progress edit that a later write makes pointless, or that waited too long,
 * is dropped instead of sent. With Redis, the windows and pauses are shared by every replica.
 *
 * The parts live in pacing/: what callers see (types.ts), GitHub's limits and its rate-limit answers
 * (limits.ts), an installation's queue of writes (lanes.ts), the windows of this process
 * (local-windows.ts) and of every replica through Redis (shared-windows.ts), and the pacer (pacer.ts).
 */
import { Pacer } from "./pacing/pacer.js";
import type { WritePacer, WritePacerOptions } from "./pacing/types.js";

export { GITHUB_WRITE_LIMITS } from "./pacing/limits.js";
// Everything in types.ts is the pacer's public contract.
export * from "./pacing/types.js";

/**
 * The one pacer every GitHub write of a process goes through (Probot's own throttling is then
 * turned off). One lane per installation; with `redis`, shared by every replica.
 */
export function createWritePacer(options: WritePacerOptions = {}): WritePacer {
  return new Pacer(options);
}

/**
 * A faithful local implementation of the Agent Run Service (spec §4), for the demo, the CLI
 * (`agent-run emulator`), benchmarks and tests. `startEmulator()` listens on loopback;
 * `buildEmulator()` gives the fastify app for `inject()`.
 *
 * Where the spec is silent, the emulator decides as follows:
 * - Checks run in this order: injected faults → 401 → 429 → 400 (path, query and body issues
 *   together, FastAPI style) → 403 → 404 → 409. A request refused with 401 or 429 costs no budget.
 * - Rate limits are sliding windows per token: 60 per 60 s on every endpoint, 60 per 30 s on
 *   get/resume/logs, 10 per 60 s on creation. Retry-After (opt-in) is whole seconds, at least 1.
 * - Logs: `page` = floor(skip/limit)+1, `pages` = ceil(total_logs/limit), so 0 for a run without
 *   entries yet; `total_logs` counts the entries visible now.
 * - A run is queued for the first 10% of its duration, then running while entries appear; the
 *   last entry (FINAL_ANSWER or ERROR) appears exactly when it finishes. `result`, `summary` and
 *   new pull requests appear on completion and are null again while a resumed run runs.
 * - A resume takes a script like a creation (a matching one, else the next unmatched one); without
 *   one it follows the default script but opens no new pull request. Its `logSteps` include the
 *   USER_MESSAGE entry that holds the follow-up prompt.
 * - Timestamps are wall-clock times; entries skipped over by `advanceTime` carry the time of the jump.
 * - The HTML pages need no token (a local tool); `/_emulator/*` answers only on loopback.
 */
import type { AddressInfo } from "node:net";
import { createEmulatorServer } from "./server.js";
import type { BuiltEmulator, EmulatorOptions, RunningEmulator } from "./types.js";
import { listeningUrl } from "../http/listening-url.js";

export type {
  BuiltEmulator,
  EmulatorControl,
  EmulatorOptions,
  EmulatorStats,
  Faults,
  RunningEmulator,
  RunScript,
  ScriptedPullRequest,
  StatusVocabulary,
} from "./types.js";
export { API_ROUTES } from "./api-routes.js";
export type { ApiRoute, ApiRouteName } from "./api-routes.js";
export { ADMIN_PREFIX } from "./control.js";
export { DEFAULT_ORG_ID, DEFAULT_TOKEN } from "./options.js";
export { DEFAULT_RUN_SCRIPT } from "./scripts.js";
export { STATUS_WORDS } from "./lifecycle.js";

export function buildEmulator(options: EmulatorOptions = {}): BuiltEmulator {
  const { app, control } = createEmulatorServer(options);
  return { app, control };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { app, control, state } = createEmulatorServer(options);
  try {
    await app.listen({ host: state.options.host, port: state.options.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  const listeningAt = listeningUrl(address);
  state.base.url = state.options.publicUrl ?? listeningAt;
  const first = state.options.tokens[0]!;
  let closing: PromiseLike<void> | undefined;
  return {
    url: listeningAt,
    token: first.token,
    orgId: first.orgIds[0] ?? 0,
    close: async () => {
      // Safe to call twice: fastify closes once.
      if (!closing) closing = app.close();
      await closing;
    },
    control,
  };
}

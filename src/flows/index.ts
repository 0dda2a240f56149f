/**
 * The I/O orchestration shared by the App and the Action: one path from a webhook to "what to do",
 * so that no decision exists twice. Decisions are core's (pure); this folder only fetches their
 * inputs through src/github and the service client. Nothing here writes to GitHub or the service:
 * a shell (src/app/handlers, src/action/steps) acts on what `prepareRun` or `prepareStop` returns.
 */
export * from "./types.js";
export { prepareRun, replanWithKnownRun, THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";
export { configErrorReply, detectDespiteConfigError, mayHearConfigError } from "./config-errors.js";
export { asMarkerComments, factsFromConfig, killSwitchInPayload, markerPlaceOf, planFromEvent, triggerPermission } from "./facts.js";
export { selectAutomations } from "./automations.js";
export { sharedRepositoryIds, type RepositoryLister } from "./repository-id.js";

/**
 * The I/O orchestration shared by the App and the Action: one path from a webhook to "what to do",
 * so that no decision exists twice. Decisions are core's (pure); this folder only fetches their
 * inputs through src/github and the service client. Nothing here writes to GitHub or the service:
 * a shell (src/app/handlers, src/action/steps) acts on what `prepareRun` or `prepareStop` returns.
 */
export * from "./types.js";
export { prepareRun, replanWithKnownRun, THREAD_COMMENT_SCAN_LIMIT } from "./prepare.js";
export {
  configErrorReply,
  configForDetection,
  detectDespiteConfigError,
  mayHearConfigError,
  type ConfigErrorDetection,
} from "./config-errors.js";
export {
  asMarkerComments,
  checkFailureFacts,
  factsFromConfig,
  findKnownRun,
  killSwitchInPayload,
  markerPlaceOf,
  planFromEvent,
  pullRequestHeadOf,
  triggerPermission,
  type KnownRunQuery,
} from "./facts.js";
export {
  asPromptComments,
  fetchReviewComments,
  listCheckFailures,
  promptInputFor,
  readCheckFailureDetails,
  type CheckFailures,
  type FetchedThread,
  type ListedCheckFailures,
} from "./context.js";
export { DEFAULT_MAX_IMAGE_BYTES, triggerImages } from "./images.js";
export { prepareStop, type PreparedStop, type StopEdit } from "./stop.js";
export { selectAutomations, type AutomationSelection } from "./automations.js";
export { checkSpendLimitsFromComments, REPOSITORY_COMMENT_PAGES, type SpendLimitCheck } from "./spend-limits.js";
export {
  MAX_REPOSITORY_PAGES,
  REPOSITORY_ID_CACHE_MS,
  RepositoryIdDirectory,
  sharedRepositoryIds,
  type RepositoryIdResolution,
  type RepositoryLister,
} from "./repository-id.js";

export * from "./wire.js";
export * from "./errors.js";
export * from "./status.js";
export * from "./budget.js";
export {
  AgentRunClient,
  RunStillGoingError,
  type AgentRunClientOptions,
  type CallOptions,
  type OptionalEndpoint,
  type OptionalListing,
  type ServiceLogger,
  type WaitOptions,
} from "./client.js";
export {
  findInterruptedRun,
  parseServiceTimestamp,
  INTERRUPTED_RUN_DEFAULTS,
  type InterruptedRunQuery,
  type InterruptedRunSearch,
} from "./reconcile.js";
export { sweepRuns, type RunSweep, type RunSweepQuery } from "./run-sweep.js";
export {
  createRunOnce,
  bridgeMatchOf,
  withCreateId,
  CREATE_ONCE_DEFAULTS,
  type CreateOnceOptions,
  type CreateOnceResult,
} from "./create-once.js";
